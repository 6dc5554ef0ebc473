import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 45: a stop that always works. With dashboard event streams open (a browser tab, `curl -N`), SIGTERM starts
/// the graceful stop at once and the stop closes the streams; a second signal ends it with a sentence, not the
/// service group's error.
@Suite("ibtrader run stops with event-stream clients connected")
struct RunCommandStopTests {
    // Slow by nature (a few seconds): a real process against its simulator, real sockets and real signals. The bound
    // is far below the deploy files' grace period (120 s) and far above the stop itself (about a second); before the
    // fix the stop waited for the clients to leave, which here is never.
    static let stopBound = Duration.seconds(30)

    @Test(
        "SIGTERM with two /api/events clients: exit 0 within the bound, both streams closed by the stop",
        .enabled(if: ibtraderProgramRuns, "no .build/debug/ibtrader: build first"))
    func sigtermWithEventStreams() async throws {
        let run = try await StreamedRun.start()
        defer { run.cleanUp() }
        kill(run.process.processIdentifier, SIGTERM)
        let start = ContinuousClock.now
        let exited = try await eventually(within: Self.stopBound) { !run.process.isRunning }
        let output = run.finishOutput()
        try #require(exited, "ibtrader still ran \(Self.stopBound) after SIGTERM with two event streams open: \(output)")
        #expect(ContinuousClock.now - start < Self.stopBound)
        #expect(run.process.terminationStatus == 0, "\(output)")
        #expect(output.contains("stopped (graceful shutdown)"), "\(output)")
        #expect(try await eventually(within: .seconds(5)) { run.clients.allSatisfy(\.ended) }, "an event stream stayed open")
    }

    @Test(
        "a second SIGTERM during the stop ends it in a sentence, without the service group's error",
        .enabled(if: ibtraderProgramRuns, "no .build/debug/ibtrader: build first"))
    func secondSignalIsPlain() async throws {
        let run = try await StreamedRun.start()
        defer { run.cleanUp() }
        kill(run.process.processIdentifier, SIGTERM)
        kill(run.process.processIdentifier, SIGTERM)
        let exited = try await eventually(within: Self.stopBound) { !run.process.isRunning }
        let output = run.finishOutput()
        try #require(exited, "ibtrader still ran after two SIGTERMs: \(output)")
        for swift in ["ServiceGroupError", "errorCode:", ".swift", "Error("] {
            #expect(!output.contains(swift), "'\(swift)' in the operator's output: \(output)")
        }
        #expect(run.process.terminationStatus == 0, "\(output)")
    }
}

/// `ibtrader run --simulated` with its dashboard on a free port and two event-stream clients reading it.
private struct StreamedRun {
    var process: Process
    var errors: Pipe
    var output: ProgramOutput
    var directory: URL
    var clients: [EventStreamClient]

    static func start() async throws -> StreamedRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stop-sse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let port = try CrashProcessHarness.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ibtraderProgramPath)
        process.arguments = ["run", "--simulated"]
        var environment = ProcessInfo.processInfo.environment
        environment["IBTRADER_JOURNAL_PATH"] = directory.appendingPathComponent("journal.sqlite").path
        environment["IBTRADER_DASHBOARD_PORT"] = "\(port)"
        environment["IBTRADER_LOGGING_LEVEL"] = "info"
        process.environment = environment
        let errors = Pipe()
        let output = ProgramOutput()
        process.standardError = errors
        process.standardOutput = Pipe()
        errors.fileHandleForReading.readabilityHandler = { output.append($0.availableData) }
        try process.run()
        var run = StreamedRun(process: process, errors: errors, output: output, directory: directory, clients: [])
        let running = try await eventually(within: .seconds(120)) {
            output.contains("subscribed to 5-second bars") || !process.isRunning
        }
        guard running, process.isRunning else {
            run.cleanUp()
            throw StreamTestError(description: "ibtrader did not start running: \(output.all)")
        }
        run.clients = try (0..<2).map { _ in try EventStreamClient(port: port) }
        let streaming = try await eventually(within: .seconds(30)) { run.clients.allSatisfy { $0.events > 0 } }
        guard streaming else {
            run.cleanUp()
            throw StreamTestError(description: "the event streams sent nothing: \(output.all)")
        }
        return run
    }

    /// Everything the program wrote to standard error.
    func finishOutput() -> String {
        errors.fileHandleForReading.readabilityHandler = nil
        if !process.isRunning { output.append(errors.fileHandleForReading.readDataToEndOfFile()) }
        return output.all
    }

    func cleanUp() {
        if process.isRunning { process.terminate() }
        for client in clients { client.disconnect() }
        try? FileManager.default.removeItem(at: directory)
    }
}

private struct StreamTestError: Error, CustomStringConvertible {
    var description: String
}

/// A raw HTTP client of `/api/events` on a thread of its own: counts the events and notes when the server ends the
/// stream (end of file).
private final class EventStreamClient: Sendable {
    private final class Progress: Sendable {
        let state = Mutex((events: 0, ended: false))
    }

    private let fd: Int32
    private let progress = Progress()

    init(port: Int) throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        let request = Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        guard connected, write(socketFD, request, request.count) == request.count else {
            close(socketFD)
            throw StreamTestError(description: "cannot send the event-stream request to the dashboard on port \(port)")
        }
        fd = socketFD
        let progress = progress
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(socketFD, &buffer, buffer.count)
                guard count > 0 else { break }
                let events = String(decoding: buffer[0..<count], as: UTF8.self).components(separatedBy: "data: ").count - 1
                progress.state.withLock { $0.events += events }
            }
            progress.state.withLock { $0.ended = true }
        }
    }

    var events: Int { progress.state.withLock { $0.events } }
    var ended: Bool { progress.state.withLock { $0.ended } }

    /// Hangs up (the reader thread then ends).
    func disconnect() { shutdown(fd, Int32(SHUT_RDWR)) }

    deinit { close(fd) }
}
