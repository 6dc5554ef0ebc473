import Foundation
import MyStrategies
import Storage
import Testing
import TraderCLI
import TraderConfig
import TradingEngine
import TradingModel

/// The user's strategies through the command line, in this process: every command knows it by name, its parameters
/// are checked like the built-in ones', and it backtests, optimizes and trades against the built-in simulator.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct MyTraderTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("breakout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func run(_ arguments: [String]) async throws {
        try await IBTraderCommand.run(arguments, strategies: [Breakout.self])
    }

    @Test func itsParametersAreInTheSchema() throws {
        var sources = ConfigSources()
        sources.catalog = StrategyCatalog.builtIn.adding([Breakout.entry])
        sources.embedded = ("strategy: {name: breakout, parameters: {entryLookback: 30, sizing: {fixed: 5}}}", "b.yaml")
        let loaded = try ConfigLoader.load(sources)
        let parameters = try #require(loaded.settings.strategy.choice.value as? Breakout.Parameters)
        #expect(parameters.entryLookback == 30 && parameters.exitLookback == 10 && parameters.sizing == .fixedQuantity(Quantity(5)))
        sources.embedded = ("strategy: {name: breakout, parameters: {entryLookbak: 30}}", "b.yaml")
        #expect(throws: ConfigError.self) { try ConfigLoader.load(sources) }
        do { _ = try ConfigLoader.load(sources) } catch {
            #expect("\(error)".contains("breakout has no parameter 'entryLookbak'; did you mean 'entryLookback'?"), "\(error)")
        }
        sources.embedded = ("strategy: {name: breakout, parameters: {entryLookback: 5, exitLookback: 8}}", "b.yaml")
        #expect(throws: ConfigError.self) { try ConfigLoader.load(sources) }
    }

    @Test func backtests() async throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        try await Self.run([
            "backtest", "--strategy", "breakout", "--data", "bundled:stocks", "--set", "strategy.parameters.entryLookback=30",
            "--benchmark", "none", "--quiet", "--out", out.path,
        ])
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json")))
        let json = try #require(summary as? [String: Any])
        #expect((json["trades"] as? Int ?? 0) > 10)
        let parameters = try #require(json["parameters"] as? [String: Any])
        #expect(parameters["strategy"] as? String == "breakout")
        await #expect(throws: (any Error).self) {
            try await Self.run(["backtest", "--strategy", "breakout", "--set", "strategy.parameters.entryLookback=1"])
        }
    }

    @Test func optimizes() async throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        try await Self.run([
            "optimize", "--strategy", "breakout", "--data", "bundled:stocks", "--symbols", "AAPL,MSFT",
            "--parameter", "entryLookback=10:30:10", "--parameter", "exitLookback=5,10", "--no-progress", "--jobs", "2",
            "--out", out.path,
        ])
        let csv = try String(contentsOf: out.appendingPathComponent("results.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\n")
        #expect(rows.count == 1 + 6)
        #expect(rows.first?.hasPrefix("config,entryLookback,exitLookback,") == true)
        let best = try String(contentsOf: out.appendingPathComponent("best.json"), encoding: .utf8)
        #expect(best.contains("\"strategy\": \"breakout\""))
    }

    @Test func tradesAgainstTheSimulator() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("breakout.yaml")
        try """
            universe: {symbols: [AAPL, GOOG, IBM, MSFT]}
            strategy: {name: breakout, parameters: {entryLookback: 3, exitLookback: 2, sizing: {fixed: 10}}}
            data: {warmup: 5m}
            journal: {path: breakout.journal.sqlite}
            logging: {level: warning}
            """.write(to: config, atomically: true, encoding: .utf8)
        try await Self.run(["run", "--simulated", "--config", config.path, "--duration", "8s", "--speed", "100"])
        // The journal holds the orders the run sent: the strategy traded through the live runner.
        let journal = folder.appendingPathComponent("breakout.journal.sqlite").path
        let opened = try OrderJournal(path: journal, createIfMissing: false)
        let orders = try opened.orders()
        #expect(!orders.isEmpty, "the breakout strategy sent no order in 8 s of simulated trading")
        let bot = try #require(try opened.botIdentity())
        #expect(orders.allSatisfy { $0.intent.orderRef.rawValue.hasPrefix("IBT:\(bot).R1:") })
    }

    @Test func gapAndGoTradesMinuteBarsWithBrackets() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = root.appendingPathComponent("Sources/BundledData/Resources/spy-1min/SPY_1min.csv").path
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        try await IBTraderCommand.run(
            [
                "backtest", "--strategy", "gap-and-go", "--data", data, "--set", "strategy.parameters.flattenAt=20h50m",
                "--benchmark", "none", "--quiet", "--out", out.path,
            ], strategies: [Breakout.self, GapAndGo.self])
        let orders = try String(contentsOf: out.appendingPathComponent("orders.csv"), encoding: .utf8)
        #expect(orders.contains(",STP,") && orders.contains(",LMT,"), "brackets: a stop and a target per entry")
        await #expect(throws: (any Error).self) {
            try await IBTraderCommand.run(
                ["backtest", "--strategy", "gap-and-go", "--set", "strategy.parameters.flattenAt=25h"],
                strategies: [GapAndGo.self])
        }
    }
}
