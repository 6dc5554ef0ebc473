import Foundation
import Storage
import Testing

@Suite("ibtrader run and signals")
struct RunCommandSignalTests {
    // Slow by nature (a few seconds): a real process starts the simulator, connects, warms up and subscribes
    // before the signal; the limits only bound a loaded machine.
    @Test(
        "SIGTERM to `ibtrader run --simulated` stops it gracefully: exit 0, a 'stopped' line, the journal's stop event",
        .enabled(if: ibtraderProgramRuns, "no .build/debug/ibtrader: build first"))
    func sigtermStopsGracefully() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigterm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journalPath = directory.appendingPathComponent("journal.sqlite").path

        let process = Process()
        process.executableURL = URL(fileURLWithPath: ibtraderProgramPath)
        process.arguments = ["run", "--simulated", "--speed", "max"]
        var environment = ProcessInfo.processInfo.environment
        environment["IBTRADER_JOURNAL_PATH"] = journalPath
        environment["IBTRADER_LOGGING_LEVEL"] = "info"
        // No dashboard on the default port: a manual-order test beside this one would ask this bot (during its stop,
        // kill switch engaged) as the bot of the default config.
        environment["IBTRADER_DASHBOARD_PORT"] = "none"
        process.environment = environment
        let errors = Pipe()
        let output = ProgramOutput()
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
        // Journaled at the wall clock, the simulator's data time beside it (issue 45).
        let stop = try #require(try journal.events(kind: .lifecycle).last)
        #expect(stop.message.hasPrefix("stopped: graceful shutdown [data time 2011-"), "\(stop.message)")
        #expect(abs(Double(stop.time.nanoseconds) / 1e9 - Date().timeIntervalSince1970) < 600, "\(stop.time)")
    }
}
