import Foundation
import TWSTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Separate `ibtrader` processes for the crash tests: a gateway simulator with a frozen replay clock moved through
/// its admin port (so data time advances only when the test says), and bot runs against it.
enum CrashProcessHarness {
    /// The built `ibtrader` executable next to the test bundle (`.build/<config>/ibtrader`), if any.
    static let binary: URL? = {
        var candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        // The package's debug build folder, found from this file (…/Tests/InteractiveBrokersTests/…).
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        for folder in candidates {
            let url = folder.appendingPathComponent("ibtrader")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    struct HarnessError: Error, CustomStringConvertible {
        var description: String
    }

    /// A free TCP port on loopback (bound, read, released; the gateway binds it right after).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw HarnessError(description: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A line-oriented blocking client of the gateway's admin port (its calls go through `offPool`).
    final class Admin: Sendable {
        let fd: Int32

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            var connected = false
            for _ in 0..<100 {  // the admin port opens a moment after the gateway prints its line
                connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
                if connected { break }
                usleep(20_000)  // another process's port: only the wall clock says when it opens
            }
            guard connected else {
                close(fd)
                throw HarnessError(description: "cannot connect to the admin port \(port)")
            }
        }

        deinit { close(fd) }

        /// Sends one command and waits for its `ok`.
        func command(_ text: String) throws {
            let line = Array((text + "\n").utf8)
            guard write(fd, line, line.count) == line.count else { throw HarnessError(description: "admin write") }
            var answer: [UInt8] = []
            var byte: UInt8 = 0
            while read(fd, &byte, 1) == 1 {
                if byte == UInt8(ascii: "\n") { break }
                answer.append(byte)
            }
            guard String(decoding: answer, as: UTF8.self) == "ok" else {
                throw HarnessError(description: "admin '\(text)': \(String(decoding: answer, as: UTF8.self))")
            }
        }
    }

    /// A running `ibtrader gateway --speed 0` on free loopback ports.
    struct Gateway: Sendable {
        var process: Process
        var port: Int
        var admin: Admin

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// Starts the gateway (bundled daily stocks, replay clock frozen at the session open) and moves its clock an
    /// hour into the session, so the bot has warm-up bars.
    /// - Parameter options: more `ibtrader gateway` options (another data set, a start).
    static func startGateway(_ binary: URL, folder: URL, options: [String] = []) async throws -> Gateway {
        try await offPool { try startGatewayBlocking(binary, folder: folder, options: options) }
    }

    /// `startGateway`'s blocking work: reads the gateway's first line, connects to its admin port.
    private static func startGatewayBlocking(_ binary: URL, folder: URL, options: [String]) throws -> Gateway {
        let adminPort = try freePort()
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "gateway", "--port", "0", "--speed", "0", "--admin-port", "\(adminPort)", "--log-level", "warning",
        ] + options
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let text = out.fileHandleForReading.readText(until: "\n")  // blocking: this runs inside `offPool`
        guard let range = text.range(of: "listening on 127.0.0.1:"),
            let port = Int(text[range.upperBound...].prefix { $0.isNumber })
        else {
            process.terminate()
            throw HarnessError(description: "the gateway did not say where it listens: '\(text)'")
        }
        do {
            let admin = try Admin(port: adminPort)
            try admin.command("advance 3600")
            return Gateway(process: process, port: port, admin: admin)
        } catch {
            process.terminate()
            throw error
        }
    }

    /// The outcome of one bot run.
    struct RunOutcome {
        var status: Int32
        var advances: Int
        var log: String
    }

    /// Runs `ibtrader run --config … --duration …` against the gateway, advancing its replay clock by 5 s every
    /// 25 ms while the process lives (at most `limit`), so bars flow and the momentum strategy trades.
    /// - Parameter stopWhen: checked every 200 ms; once it holds, the run is stopped gracefully (SIGTERM), so a run
    ///   lasts as many bars as the check needs rather than a wall-clock span a loaded machine may fill with start-up.
    static func run(
        _ binary: URL, config: URL, gateway: Gateway, crashAt: String?, duration: String, limit: Duration = .seconds(20),
        environment extra: [String: String] = [:], stopWhen: (() -> Bool)? = nil
    ) async throws -> RunOutcome {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", "--config", config.path, "--duration", duration]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("IBTRADER_") }
        environment["IBTRADER_CONNECTION_PORT"] = "\(gateway.port)"
        if let crashAt { environment["IBTRADER_CRASH_AT"] = crashAt }
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let logURL = config.deletingLastPathComponent().appendingPathComponent("run-\(crashAt ?? "clean").log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        var advances = 0
        var stopping = false
        while process.isRunning, clock.now < deadline {
            let admin = gateway.admin
            try await offPool { try admin.command("advance 5") }
            advances += 1
            if !stopping, advances % 8 == 0, let stopWhen, stopWhen() {
                process.terminate()  // SIGTERM: the run's graceful stop
                stopping = true
            }
            // The bot is another process on a real socket: it takes the step in its own (wall) time.
            try await Task.sleep(for: .milliseconds(25))
        }
        if process.isRunning { process.terminate() }
        await process.exited()
        try? log.close()
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return RunOutcome(status: process.terminationStatus, advances: advances, log: text)
    }

    /// A momentum config like `examples/momentum-paper.yaml`, journaling to `journal`.
    static func writeConfig(in folder: URL, journal: String) throws -> URL {
        let text = """
            connection: {host: 127.0.0.1, port: 7497, clientId: 7}
            universe: {symbols: [AAPL, GOOG, IBM, MSFT]}
            strategy:
              name: momentum
              cash: 100000
              parameters:
                lookback: 12
                holdings: 2
                rebalance: 12
                minimumScore: none
                investedFraction: 0.5
            risk: {maxPositionPercentOfEquity: 40}
            orders: {timeout: 5m, outsideRth: false, cancelOnExit: true}
            data: {barSize: 5 secs, warmup: 3600 S, marketDataType: realtime, delayedFallback: true}
            journal: {path: \(journal)}
            logging: {level: notice, summaryInterval: 30s}
            """
        let url = folder.appendingPathComponent("crash.yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
