import Foundation
import Storage
import Synchronization
import Testing

/// The built `ibtrader` next to the test bundle's package (`.build/debug/ibtrader`), if it exists.
private let ibtraderPath: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".build/debug/ibtrader").path

/// Collects a child's stderr as it arrives.
private final class Output: Sendable {
    let text = Mutex("")
    func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
    func contains(_ part: String) -> Bool { text.withLock { $0.contains(part) } }
    var all: String { text.withLock { $0 } }
}

@Suite("ibtrader run and signals")
struct RunCommandSignalTests {
    /// Polls `condition` every 50 ms until it holds or `limit` passes.
    private func eventually(within limit: Duration, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    // Slow by nature (a few seconds): a real process starts the simulator, connects, warms up and subscribes
    // before the signal; the limits only bound a loaded machine.
    @Test(
        "SIGTERM to `ibtrader run --simulated` stops it gracefully: exit 0, a 'stopped' line, the journal's stop event",
        .enabled(if: FileManager.default.isExecutableFile(atPath: ibtraderPath), "no .build/debug/ibtrader: build first"))
    func sigtermStopsGracefully() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigterm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journalPath = directory.appendingPathComponent("journal.sqlite").path

        let process = Process()
        process.executableURL = URL(fileURLWithPath: ibtraderPath)
        process.arguments = ["run", "--simulated", "--speed", "max"]
        var environment = ProcessInfo.processInfo.environment
        environment["IBTRADER_JOURNAL_PATH"] = journalPath
        environment["IBTRADER_LOGGING_LEVEL"] = "info"
        process.environment = environment
        let errors = Pipe()
        let output = Output()
        process.standardError = errors
        process.standardOutput = Pipe()
        errors.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let running = try await eventually(within: .seconds(120)) {
            output.contains("subscribed to 5-second bars") || !process.isRunning
        }
        try #require(running && process.isRunning, "ibtrader did not start running: \(output.all)")
        kill(process.processIdentifier, SIGTERM)
        let exited = try await eventually(within: .seconds(60)) { !process.isRunning }
        try #require(exited, "ibtrader did not exit after SIGTERM: \(output.all)")
        errors.fileHandleForReading.readabilityHandler = nil
        output.append(errors.fileHandleForReading.readDataToEndOfFile())

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0, "\(output.all)")
        #expect(output.contains("stopped (graceful shutdown)"), "\(output.all)")
        let journal = try OrderJournal(path: journalPath)
        #expect(try journal.events(kind: .lifecycle).last?.message == "stopped: graceful shutdown")
    }
}
