import Foundation
import Logging
import Testing
import TraderConfig
import TraderKit

/// `ibtrader sandbox` on the bundled example (momentum with its default 15 % protective stop, sent at the broker on
/// the entry's fill): the live stack (client, driver, session core, journal) against the in-process simulator, in
/// virtual time, for 45 minutes of its time (three entries, each with its stop), places exactly the orders that a backtest of the bars it traded on places, protective stops
/// included, at the same times (issue 42: the stops had been a bar later in the backtest for every symbol after the
/// first).
struct SandboxDriftTests {
    @Test(.timeLimit(.minutes(5)))
    func theDemoPlacesTheBacktestsOrdersOverFortyFiveMinutes() async throws {
        let loaded = try BundledRunConfigTests.load(strategy: nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-drift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = SandboxJob.Options()
        options.duration = .seconds(45 * 60)
        options.journal = folder.appendingPathComponent("journal.sqlite").path
        var logger = Logger(label: "test.sandbox")
        logger.logLevel = .error
        let report = try await SandboxJob.run(loaded, options: options, logger: logger)
        let drift = try report.drift.get()
        #expect(drift.bars - drift.warmupBars >= 150, "45 minutes of minute bars on four symbols")
        #expect(drift.live.count >= 6)
        #expect(drift.live.contains { $0.type.hasPrefix("STP") }, "the protective stops are compared too")
        #expect(drift.differences.isEmpty, "\(drift.lines.joined(separator: "\n"))")
        #expect(drift.live == drift.backtest)
        // The run ends a minute after an entry: its stop, sent on the fill after the last bar, is listed apart.
        #expect(drift.afterLastBar.allSatisfy { $0.type.hasPrefix("STP") }, "\(drift.afterLastBar)")
    }
}
