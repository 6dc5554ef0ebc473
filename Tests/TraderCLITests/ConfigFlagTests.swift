import ArgumentParser
import Foundation
import Testing
import TWSTestSupport
import TraderConfig
import TraderKit

@testable import TraderCLI

/// Flags are named after the keys they set, the old spellings say their new names, and flag values go through the
/// same checks as a file's.
@Suite(.ownThread) struct ConfigFlagTests {
    /// The message a command's parser refuses `arguments` with; `nil` (and an issue) when they parse.
    static func refusal<Command: ParsableArguments>(
        _ command: Command.Type, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) -> String? {
        do {
            _ = try command.parse(arguments)
            Issue.record("\(arguments) parsed", sourceLocation: sourceLocation)
            return nil
        } catch {
            return command.message(for: error)
        }
    }

    @Test func everyFlagIsNamedAfterItsKey() throws {
        let command = try BacktestCommand.parse([
            "--strategy", "sma-cross", "--cash", "5000", "--fast-period", "3", "--slow-period", "9", "--allow-short",
            "--sizing", "fixed:10", "--atr-stops", "2", "--data", "bundled:stocks", "--bar-size", "1 day", "--symbols",
            "GOOG", "--start", "2010-01-01", "--end", "2011-01-01", "--benchmark", "none", "--fill", "close",
            "--commission", "ibkr-fixed", "--slippage-bps", "2", "--settlement-days", "2", "--bad-rows", "skip",
            "--max-position-value", "1000", "--max-position-percent-of-equity", "50", "--max-gross-exposure-ratio", "1",
            "--max-active-positions", "3", "--max-daily-loss-percent", "2", "--max-drawdown-percent", "20",
            "--max-sector-percent-of-equity", "30", "--allow-leverage",
        ])
        let overrides = command.strategy.overrides + command.data.overrides + command.risk.overrides
        #expect(overrides.count == 26)
        let keys = ConfigHelp.keys
        for override in overrides {
            let key = override.path.split(separator: ".").last.map(String.init) ?? override.path
            if override.path != "strategy.name" {
                #expect(override.flag == ConfigKeyInfo.flagName(for: key), "\(override.path)")
            }
            let info = keys.first { $0.path == override.path || $0.path.hasSuffix(".\(key)") && override.path.hasPrefix("strategy.parameters.") }
            #expect(info?.flag == override.flag, "\(override.path): the schema says \(info?.flag ?? "no flag")")
        }
        let loaded = try command.config.load(flags: overrides)
        #expect(loaded.settings.backtest.settlementDays == 2 && loaded.settings.risk.allowLeverage)
        #expect(loaded.origin(of: "strategy.parameters.fastPeriod") == .flag("--fast-period"))
    }

    /// Issue 22's options: the allocator and its settings, execution realism, momentum's churn filters.
    @Test func theFlagshipOptionsSetTheirKeys() throws {
        let command = try BacktestCommand.parse([
            "--allocator", "performance", "--allocation-window", "30", "--allocation-reallocation", "weekly",
            "--allocation-top-count", "2", "--allocation-max-weight", "0.5", "--allocation-step", "0.25",
            "--allocation-minimum-trade-value", "250", "--session", "regular", "--slippage",
            "bps:2", "--participation", "0.1", "--latency-ms", "250",
        ])
        let overrides = command.strategy.overrides + command.data.overrides
        let keys = ConfigHelp.keys
        for override in overrides {
            #expect(keys.first { $0.path == override.path }?.flag == override.flag, "\(override.path)")
        }
        let settings = try command.config.load(flags: overrides).settings
        guard case .performanceAllocator(let allocation)? = settings.strategy.spec else {
            Issue.record("not the allocator")
            return
        }
        #expect(allocation.window == 30 && allocation.topCount == 2 && allocation.maxWeight == 0.5)
        #expect(allocation.step == 0.25 && allocation.minimumTradeValue == 250)
        #expect(settings.backtest.session == "regular" && settings.backtest.participation == 0.1)
        #expect(settings.backtest.latencyMs == 250)
        let momentum = try BacktestCommand.parse(["--rank-buffer", "3", "--minimum-weight-change", "0.02"])
        let paths = momentum.strategy.overrides.map(\.path)
        #expect(paths == ["strategy.parameters.rankBuffer", "strategy.parameters.minimumWeightChange"])
    }

    @Test(arguments: [
        (["--fast", "3"], "--fast was renamed --fast-period"), (["--slow", "9"], "--slow was renamed --slow-period"),
        (["--short"], "--short was renamed --allow-short"), (["--top", "3"], "--top was renamed --holdings"),
        (["--min-momentum", "1"], "--min-momentum was renamed --minimum-score"),
        (["--stop-loss", "5"], "--stop-loss was renamed --stop-loss-percent"),
        (["--quantity", "5"], "--quantity was renamed --sizing 'fixed: N'"),
        (["--percent", "5"], "--percent was renamed --sizing 'percentOfEquity: P'"),
        (["--sector-limit", "5"], "--sector-limit was renamed --max-sector-percent-of-equity"),
        (["--max-positions", "5"], "--max-positions was renamed --max-active-positions"),
        (["--bar", "1 day"], "--bar was renamed --bar-size"), (["--atr-stop", "2"], "--atr-stop was renamed --atr-stops"),
    ])
    func renamedFlagsSayTheirNewName(arguments: [String], message: String) {
        guard let refusal = Self.refusal(BacktestCommand.self, arguments) else { return }
        #expect(refusal.hasPrefix(message), "\(refusal)")
    }

    /// A flag another command takes names its key (it once answered "unknown option '--cash'; did you mean '--cash'?").
    @Test func aFlagOfAnotherCommandNamesItsKey() {
        for (arguments, message) in [
            (["--cash", "5"], "this command does not take --cash; set strategy.cash in a config file or with --set strategy.cash=…"),
            (["--currency", "EUR"], "this command does not take --currency; set strategy.currency in a config file or with --set strategy.currency=…"),
            (["--casg", "5"], "unknown option '--casg'"),
            // A strategy parameter is set without the strategy's name (it once said strategy.parameters.sma-cross.sizing,
            // which --set then refused).
            (["--sizing", "fixed: 1"], "this command does not take --sizing; set strategy.parameters.sizing in a config file or with --set strategy.parameters.sizing=…"),
        ] {
            guard let refusal = Self.refusal(RunCommand.self, arguments) else { continue }
            #expect(refusal.hasPrefix(message), "\(refusal)")
        }
    }

    @Test func sweepFlagsWereRenamedToo() {
        for (arguments, message) in [
            (["--param", "fast=1:2:1"], "--param was renamed --parameter"), (["--sweep", "s.yaml"], "--sweep was renamed --config FILE"),
        ] {
            guard let refusal = Self.refusal(OptimizeRun.self, arguments) else { continue }
            #expect(refusal.hasPrefix(message), "\(refusal)")
        }
    }

    /// Issue 80: `--periods-per-year` sets `backtest.periodsPerYear` for backtest, optimize and walkforward, checked
    /// as the key is (`auto` for the data's spacing).
    @Test func periodsPerYearSetsItsKey() throws {
        for command in [
            try BacktestCommand.parse(["--periods-per-year", "52"]).data, try OptimizeRun.parse(["--periods-per-year", "52"]).data,
        ] {
            let overrides = command.overrides
            #expect(overrides.map(\.path) == ["backtest.periodsPerYear"])
            #expect(overrides.first?.flag == ConfigHelp.keys.first { $0.path == "backtest.periodsPerYear" }?.flag)
            #expect(try ConfigFlagTests.load(overrides).backtest.periodsPerYear == 52)
        }
        #expect(try ConfigFlagTests.load(try BacktestCommand.parse(["--periods-per-year", "auto"]).data.overrides).backtest.periodsPerYear == nil)
        #expect(throws: (any Error).self) { try ConfigFlagTests.load(try BacktestCommand.parse(["--periods-per-year", "0"]).data.overrides) }
    }

    static func load(_ overrides: [ConfigOverride]) throws -> TraderConfiguration {
        try ConfigLoader.load(ConfigSources(files: [], flags: overrides)).settings
    }

    @Test func negativeNumbersNeedNoEqualsSign() throws {
        let command = try BacktestCommand.parse(["--strategy", "momentum", "--minimum-score", "-5"])
        #expect(command.strategy.minimumScore == "-5")
    }

    @Test func aBacktestFailsOnABadFlagBeforeLoadingData() async throws {
        let command = try BacktestCommand.parse(["--strategy", "sma-cross", "--lookback", "5", "--data", "/nonexistent"])
        await #expect(throws: ConfigError.self) { try await command.run() }
        let cash = try BacktestCommand.parse(["--cash", "1e300", "--data", "/nonexistent"])
        do { try await cash.run() } catch {
            #expect("\(error)" == "--cash: strategy.cash: must be a number above 0 and at most 10000000000, got '1e300'")
        }
    }

    @Test func runDurationsAreBounded() throws {
        #expect(try LiveConfirmation.duration("60s") == .seconds(60))
        #expect(try LiveConfirmation.duration("1.5h") == .seconds(5400))
        for bad in ["1e300s", "soon", "0s", "400d", "-5m"] {
            #expect(throws: (any Error).self) { try LiveConfirmation.duration(bad) }
        }
        #expect(try LiveConfirmation.speed("max") > 1000)
        #expect(throws: (any Error).self) { try LiveConfirmation.speed("-1") }
        #expect(throws: (any Error).self) { try LiveConfirmation.speed("1e300") }
    }

    @Test func connectionFlagsAreRangeChecked() {
        for (arguments, text) in [
            (["--port", "70000"], "--port: connection.port: must be an integer from 1 to 65535, got '70000'"),
            (["--timeout", "1e300"], "--timeout: timeout: must be a number above 0 and at most 3600, got '1e300'"),
            (["--client-id", "-1"], "--client-id: connection.clientId: must be an integer from 0 to 2147483647, got '-1'"),
        ] {
            guard let refusal = Self.refusal(ConnectCommand.self, arguments) else { continue }
            #expect(refusal == text, "\(refusal)")
        }
    }

    @Test func theBundledRunConfigIsTheExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("examples/momentum-paper.yaml"), encoding: .utf8)
        #expect(file == BundledRunConfig.text)
    }

    @Test func gatewayAndDownloadFlagsAreRangeChecked() {
        for (arguments, text) in [
            (["--port", "70000"], "--port must be from 0 (any free port) to 65535, got 70000"),
            (["--admin-port", "0"], "--admin-port must be from 1 to 65535, got 0"),
            (["--start", "9999-12-31"], "--start: start: must be a date YYYY-MM-DD from 1970-01-01 to 2200-12-31, got '9999-12-31'"),
            (["--cash", "1e300"], "--cash must be above 0 and at most 10000000000, got 1e+300"),
            (["--speed=-1"], "--speed must be from 0 to 1000000, got -1.0"),
            (["--account", "DU1,,DU2"], "--account takes account codes of letters and digits, comma-separated (e.g. DU1234567 or DU111,DU222), got 'DU1,,DU2'"),
            (["--account", "DU1,DU1"], "--account names an account twice: 'DU1,DU1'"),
        ] {
            do {
                _ = try GatewayCommand.parse(arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(GatewayCommand.message(for: error) == text, "\(GatewayCommand.message(for: error))")
            }
        }
        for (arguments, text) in [
            (["AAPL", "--store", "s.sqlite", "--end", "0001-01-01"], "--end: end: must be a date YYYY-MM-DD from 1970-01-01 to 2200-12-31, got '0001-01-01'"),
            (["AAPL", "--store", "s.sqlite", "--bar", "7 secs"], "--bar '7 secs' is not a TWS bar size"),
            (["AAPL", "--store", "s.sqlite", "--duration", "300000 Y"], "--duration '300000 Y' is not 'N S|D|W|M|Y'"),
        ] {
            do {
                _ = try DataDownloadCommand.parse(arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(DataDownloadCommand.message(for: error).hasPrefix(text), "\(DataDownloadCommand.message(for: error))")
            }
        }
        #expect(throws: (any Error).self) { try AnalyzeCommand.parse(["equity.csv", "--periods-per-year", "0"]) }
    }
}
