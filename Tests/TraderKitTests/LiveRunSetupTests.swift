import Foundation
import InteractiveBrokers
import Testing
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel
import LiveSession

/// The run config mapped onto the runner (`LiveRunSetup`, the one place that knows `LiveRunnerConfiguration`).
@Suite struct LiveRunSetupTests {
    private func load(_ text: String, environment: [String: String] = [:]) throws -> LoadedConfiguration {
        var sources = ConfigSources()
        sources.embedded = ("universe: {symbols: [AAPL]}\njournal: none\n" + text, "/c/run.yaml")
        sources.environment = environment
        return try ConfigLoader.load(sources)
    }

    private func configuration(_ text: String, environment: [String: String] = [:]) throws -> LiveRunnerConfiguration {
        var options = LiveRunOptions()
        options.allowsNoJournal = true
        return try LiveRunSetup.configuration(for: try load(text, environment: environment), options: options)
    }

    @Test func theVolatilityGaugeIsSubscribedWithTheUniverse() throws {
        let configuration = try configuration("risk: {volatilitySymbol: VIX, volatilityThreshold: 30}")
        #expect(configuration.session.symbols == [Symbol("AAPL"), Symbol("VIX")])
        #expect(configuration.session.adoptExternalPositions == false, "orders.adoptExternalPositions' default")
        #expect(try self.configuration("backtest: {settlementDays: 1}").session.engine.settlementDays == 1, "T+N live as in a backtest")
    }

    @Test func defaults() throws {
        let configuration = try configuration("")
        let resilience = configuration.session.resilience
        #expect(resilience.gracePeriod == .seconds(30))
        #expect(resilience.resetSchedule == .northAmerica)
        #expect(resilience.backfill && resilience.maxBackfill == .hours(6) && resilience.delayedFallback)
        #expect(resilience.heartbeat == Heartbeat(interval: .seconds(30), timeout: .seconds(10)))
        #expect(configuration.stuckLoopTimeout == .seconds(30))
        #expect(configuration.session.quotes == .auto)
        #expect(configuration.session.resendPolicy == ResendPolicy(maxAge: .seconds(300)))
        #expect(configuration.session.unknownOrders == .adopt)
        #expect(configuration.session.orderEfficiency == nil)
        #expect(configuration.session.warmupBarSize == "5 secs" && configuration.session.warmupDuration == "3600 S")
        #expect(configuration.connection.port == 7497 && configuration.connection.clientID == 7)
        #expect(configuration.session.symbols == [Symbol("AAPL")])
        #expect(configuration.session.summaryInterval == .seconds(30))
        #expect(configuration.session.marketDataType == nil)
    }

    @Test func outageKeys() throws {
        let configuration = try configuration("""
            connection: {gracePeriod: 10, resetWindow: "05:15-05:30", resetTimeZone: Europe/Zurich, resetDays: [saturday],
                         heartbeat: 12.5s, heartbeatTimeout: 4}
            data: {backfill: false, maxBackfill: 10m, delayedFallback: false, marketDataType: delayed}
            health: {stuckLoopTimeout: 0}
            """)
        let resilience = configuration.session.resilience
        #expect(resilience.gracePeriod == .seconds(10))
        #expect(resilience.resetSchedule == (try ResetSchedule(window: "05:15-05:30", timeZone: "Europe/Zurich", days: ["saturday"])))
        #expect(!resilience.backfill && resilience.maxBackfill == .minutes(10) && !resilience.delayedFallback)
        #expect(resilience.heartbeat == Heartbeat(interval: .milliseconds(12_500), timeout: .seconds(4)))
        #expect(configuration.stuckLoopTimeout == .zero)
        #expect(configuration.session.marketDataType == .delayed)
        let fromEnvironment = try self.configuration(
            "", environment: ["IBTRADER_CONNECTION_RESET_DAYS": "sat, sun", "IBTRADER_CONNECTION_RESETWINDOW": "none"])
        #expect(fromEnvironment.session.resilience.resetSchedule?.days == [.saturday, .sunday])
        #expect(fromEnvironment.session.resilience.resetSchedule?.dailyStart == nil)
        #expect(try self.configuration("connection: {resetWindow: none, resetDays: []}").session.resilience.resetSchedule == nil)
        #expect(!(try self.configuration("connection: {heartbeat: 0}").session.resilience.heartbeat.isEnabled))
    }

    @Test func outageErrorsNameTheKey() {
        for (text, key, message) in [
            ("connection: {resetTimeZone: Mars/Olympus}", "connection.resetTimeZone", "unknown time zone 'Mars/Olympus'"),
            ("connection: {resetDays: [funday]}", "connection.resetDays", "unknown day 'funday'"),
            ("connection: {gracePeriod: -1}", "connection.gracePeriod", "a duration from 0ms to 1d"),
        ] {
            #expect(throws: ConfigError.self) { try self.configuration(text) }
            do { _ = try configuration(text) } catch let error as ConfigError {
                #expect(error.key == key && error.message.contains(message), "\(error)")
            } catch { Issue.record("\(error)") }
        }
        do {
            _ = try configuration("", environment: ["IBTRADER_CONNECTION_RESETWINDOW": "25:00-01:00"])
            Issue.record("a bad window was accepted")
        } catch {
            #expect("\(error)".hasPrefix("IBTRADER_CONNECTION_RESETWINDOW (environment): connection.resetWindow:"), "\(error)")
        }
    }

    @Test func flattenOnExitReachesTheSession() throws {
        #expect(try configuration("orders: {flattenOnExit: true}").session.flattensOnExit)
        #expect(try !configuration("").session.flattensOnExit, "off by default: positions stay with their protection")
    }

    @Test func orderKeys() throws {
        let configuration = try configuration(
            "orders: {resendMaxAge: 0, unknownOrders: cancel, timeout: 2m, outsideRth: true, cancelOnExit: false}\n"
                + "data: {quotes: off}")
        #expect(configuration.session.resendPolicy.maxAge == TimeSpan(nanoseconds: 0))
        #expect(configuration.session.unknownOrders == .cancel)
        #expect(configuration.execution == .timeout(.seconds(120)))
        #expect(configuration.session.outsideRegularTradingHours && !configuration.session.cancelOnExit)
        #expect(configuration.session.quotes == .off)
        let environment = try self.configuration(
            "orders: {resendMaxAge: 0}", environment: ["IBTRADER_ORDERS_RESEND_MAX_AGE": "90"])
        #expect(environment.session.resendPolicy.maxAge == .seconds(90))
        #expect(try self.configuration("data: {quotes: on}").session.quotes == .on)
        #expect(throws: ConfigError.self) { try self.configuration("orders: {unknownOrders: ignore}") }
        #expect(throws: ConfigError.self) { try self.configuration("data: {quotes: sometimes}") }
    }

    @Test func orderEfficiencyIsTheBrokersLimitNotARiskRule() throws {
        let configuration = try configuration(
            "risk: {maxOrderEfficiencyRatio: 20, orderEfficiencyMinimumOrders: 10, maxActivePositions: 3}")
        #expect(configuration.session.orderEfficiency == OrderEfficiencyLimit(maxRatio: 20, minimumOrders: 10))
        #expect(configuration.session.engine.risk.maxActivePositions == 3)
        let fromEnvironment = try self.configuration(
            "", environment: ["IBTRADER_RISK_MAX_ORDER_EFFICIENCY_RATIO": "15"])
        #expect(fromEnvironment.session.orderEfficiency == OrderEfficiencyLimit(maxRatio: 15))
        #expect(throws: ConfigError.self) { try self.configuration("risk: {maxOrderEfficiencyRatio: 0}") }
        #expect(throws: ConfigError.self) { try self.configuration("risk: {orderEfficiencyMinimumOrders: 5}") }
    }

    @Test func momentumGetsTheSameRiskProfileLiveAsInABacktest() throws {
        let configuration = try configuration("strategy: {name: momentum, parameters: {holdings: 4}}")
        #expect(configuration.session.engine.risk.maxActivePositions == 4)
        #expect(configuration.session.engine.risk.maxGrossExposureRatio == 0.9975, "1 less the 0.25 % cash buffer")
        #expect(configuration.session.engine.risk.maxSectorPercentOfEquity == nil)  // live instruments carry no sectors
        let leveraged = try self.configuration("risk: {allowLeverage: true}")
        #expect(leveraged.session.engine.risk.maxGrossExposureRatio == nil)
    }

    @Test func theJournalIsOnUnlessSwitchedOffTwice() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var sources = ConfigSources()
        sources.embedded = ("universe: {symbols: [AAPL]}\njournal: {durability: full}", folder.appendingPathComponent("run.yaml").path)
        let kept = try ConfigLoader.load(sources)
        let journal = try #require(try LiveRunSetup.configuration(for: kept, options: LiveRunOptions()).journal)
        #expect(journal.path == folder.appendingPathComponent("journal.sqlite").path)
        var options = LiveRunOptions()
        options.allowsNoJournal = true
        #expect(throws: ConfigError.self) { try LiveRunSetup.configuration(for: kept, options: options) }

        let none = try load("")  // journal: none
        #expect(throws: ConfigError.self) { try LiveRunSetup.configuration(for: none, options: LiveRunOptions()) }
        #expect(try LiveRunSetup.configuration(for: none, options: options).journal == nil)
        options.confirmedLiveAccount = "U1234567"
        #expect(throws: ConfigError.self) { try LiveRunSetup.configuration(for: none, options: options) }
        options.confirmedLiveAccount = nil
        options.asksForLiveConfirmation = true
        #expect(throws: ConfigError.self) { try LiveRunSetup.configuration(for: none, options: options) }
    }

    @Test func runNeedsSymbols() throws {
        var sources = ConfigSources()
        sources.embedded = ("journal: none", "/c/run.yaml")
        var options = LiveRunOptions()
        options.allowsNoJournal = true
        let loaded = try ConfigLoader.load(sources)
        #expect(throws: ConfigError.self) { try LiveRunSetup.configuration(for: loaded, options: options) }
    }
}
