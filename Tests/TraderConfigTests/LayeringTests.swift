import Foundation
import Testing
import TraderConfig

/// Defaults < files < .env < environment < flags, and `config show` tells which one set each value.
@Suite struct LayeringTests {
    @Test func environmentSpellings() throws {
        let loaded = try load("", environment: [
            "IBTRADER_CONNECTION_CLIENT_ID": "12", "IBTRADER_ORDERS_CANCELONEXIT": "false",
            "IBTRADER_UNIVERSE_SYMBOLS": "AAPL, MSFT,", "IBTRADER_STRATEGY_PARAMETERS_LOOKBACK": "30",
            "IBTRADER_KILL_SWITCH": "1",
        ])
        #expect(loaded.settings.connection.clientId == 12)
        #expect(loaded.settings.orders.cancelOnExit == false)
        #expect(loaded.settings.universe.symbols == ["AAPL", "MSFT"])
        #expect(loaded.origin(of: "strategy.parameters.lookback") == .environment(name: "IBTRADER_STRATEGY_PARAMETERS_LOOKBACK", dotEnv: nil))
    }

    @Test func precedence() throws {
        let fixture = try ConfigFixture(
            "connection: {port: 4002, host: filehost, clientId: 3}", dotEnv: "# secrets\nexport IBTRADER_CONNECTION_HOST=envfile\nIBTRADER_CONNECTION_CLIENT_ID='4'\n")
        let loaded = try fixture.load(
            environment: ["IBTRADER_CONNECTION_CLIENT_ID": "5"],
            flags: [.init(path: "connection.port", value: "4001", flag: "--port")])
        #expect(loaded.settings.connection.port == 4001)
        #expect(loaded.origin(of: "connection.port") == .flag("--port"))
        #expect(loaded.settings.connection.host == "envfile")
        #expect(loaded.origin(of: "connection.host").kind == "env")
        #expect(loaded.origin(of: "connection.host").description.contains(".env:2"))
        #expect(loaded.settings.connection.clientId == 5)
        #expect(loaded.origin(of: "logging.level") == .defaultValue)
    }

    @Test func laterFilesOverrideEarlierOnes() throws {
        let base = try ConfigFixture("strategy: {name: sma-cross, parameters: {fastPeriod: 5, slowPeriod: 50}}")
        let sweep = try ConfigFixture("sweep: {parameters: {fastPeriod: '5:20:5'}}\nstrategy: {parameters: {slowPeriod: 60}}")
        let loaded = try ConfigLoader.load(ConfigSources(files: [base.path, sweep.path]))
        #expect(loaded.settings.sweep.parameters.map(\.name) == ["fastPeriod"])
        #expect(loaded.shownValues.first { $0.path == "strategy.parameters.slowPeriod" }?.text == "60")
        #expect(loaded.shownValues.first { $0.path == "strategy.parameters.fastPeriod" }?.text == "5")
    }

    @Test func showListsEveryValueWithItsSource() throws {
        let fixture = try ConfigFixture("strategy:\n  name: rsi\n  parameters:\n    period: 10\n")
        let shown = try fixture.load().shownValues
        let period = try #require(shown.first { $0.path == "strategy.parameters.period" })
        #expect(period.text == "10" && period.origin == .file(path: fixture.path, line: 4, column: 13))
        #expect(shown.contains { $0.path == "connection.port" && $0.text == "7497" && $0.origin == .defaultValue })
        #expect(shown.contains { $0.path == "risk.maxDrawdownPercent" && $0.text == "none" })
        #expect(shown.contains { $0.path == "strategy.parameters.sizing" && $0.text == "{fixed: 100}" })
    }

    /// Issue 83: `config check` prints what the file sets (with the defaults that follow from it) and counts the
    /// rest; `--all` prints every key, as `config show`.
    @Test func checkPrintsWhatTheFileSetsAndCountsTheRest() throws {
        let fixture = try ConfigFixture("strategy:\n  name: momentum\n  parameters:\n    holdings: 3\n")
        let loaded = try fixture.load()
        let text = ConfigRendering.check(loaded, files: ["bot.yaml"], all: false)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "# bot.yaml: valid. What it sets, and the defaults that follow from it:")
        #expect(lines.contains { $0.hasPrefix("    holdings: 3") && $0.contains("# file \(fixture.path):4:15") })
        #expect(lines.contains { $0.hasPrefix("  maxActivePositions: 3") && $0.contains("default (momentum:") })
        #expect(!lines.contains { $0.contains("connection") || $0.hasSuffix("# default") }, "\(text)")
        let defaults = loaded.shownValues.filter { $0.origin == .defaultValue }.count
        #expect(lines.last == "# \(defaults) other keys are at their defaults (--all prints every key with its source)")
        #expect(lines.count < 20, "\(lines.count) lines")
        let all = ConfigRendering.check(loaded, files: ["bot.yaml"], all: true)
        #expect(all == "# bot.yaml: valid. The effective configuration:\n" + ConfigRendering.show(loaded))
        let empty = try ConfigFixture("{}").load()
        #expect(ConfigRendering.check(empty, files: ["e.yaml"], all: false).hasPrefix(
            "# e.yaml: valid. It sets no key; the defaults that follow from others:\n"))
    }

    @Test func whatShowPrintsIsAValidConfigWithTheSameValues() throws {
        let fixture = try ConfigFixture("""
            strategy: {name: rsi, parameters: {period: 10, sizing: {riskBased: {riskPercent: 1, atrMultiple: 2}}, atrStops: 3}}
            universe: {symbols: [AAPL, 'BRK B']}
            risk: {rapidLossPercent: 5, rapidLossWindow: 90s, volatilitySymbol: VIX, volatilityThreshold: 30}
            sweep: {parameters: {period: '5:20:5'}, where: ['period<=30'], constraints: ['trades>=10']}
            connection: {account: DU1, resetDays: [saturday, sunday]}
            data: {warmup: 2d, barSize: 1 hour}
            journal: {path: 'my journal.sqlite'}
            logging: {file: bot.log, maxSize: 50 MB, keep: 9}
            """)
        let first = try fixture.load()
        #expect(first.settings.logging.maxSize == 50_000_000 && first.settings.logging.keep == 9)
        var sources = ConfigSources()
        sources.embedded = (ConfigRendering.show(first), fixture.path)
        let second = try ConfigLoader.load(sources)
        #expect(first.shownValues.map(\.text) == second.shownValues.map(\.text))
        #expect(first.shownValues.map(\.path) == second.shownValues.map(\.path))
    }
}
