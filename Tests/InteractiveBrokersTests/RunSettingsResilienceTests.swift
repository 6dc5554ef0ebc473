import Foundation
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession
@testable import TraderCLI

@Suite("ibtrader run config: outage keys")
struct RunSettingsResilienceTests {
    private let universe = "universe: {symbols: [AAPL]}\n"

    private func load(_ text: String, environment: [String: String] = [:]) throws -> RunSettings {
        try RunSettings.load(text: universe + text, source: "/c/run.yaml", baseDirectory: nil, environment: environment)
    }

    private func message(_ text: String, environment: [String: String] = [:]) -> String {
        do {
            _ = try load(text, environment: environment)
            return "no error"
        } catch { return "\(error)" }
    }

    @Test("defaults: 30 s grace, IB North America's reset window, back-fill up to six hours, delayed fallback on")
    func defaults() throws {
        let resilience = try load("").resilience
        #expect(resilience.gracePeriod == .seconds(30))
        #expect(resilience.resetSchedule == .northAmerica)
        #expect(resilience.backfill && resilience.maxBackfill == .hours(6) && resilience.delayedFallback)
    }

    @Test("the keys, from the file and the environment")
    func keys() throws {
        let settings = try load(
            """
            connection: {gracePeriod: 10, resetWindow: "05:15-05:30", resetTimeZone: Europe/Zurich, resetDays: [saturday]}
            data: {backfill: false, maxBackfill: 600, delayedFallback: false}
            """)
        let resilience = settings.resilience
        #expect(resilience.gracePeriod == .seconds(10))
        #expect(resilience.resetSchedule == (try ResetSchedule(window: "05:15-05:30", timeZone: "Europe/Zurich", days: ["saturday"])))
        #expect(!resilience.backfill && resilience.maxBackfill == .minutes(10) && !resilience.delayedFallback)
        let fromEnvironment = try load(
            "", environment: ["IBTRADER_CONNECTION_RESET_DAYS": "sat, sun", "IBTRADER_CONNECTION_RESETWINDOW": "none"])
        #expect(fromEnvironment.resilience.resetSchedule?.days == [.saturday, .sunday])
        #expect(fromEnvironment.resilience.resetSchedule?.dailyStart == nil)
        let off = try load("connection: {resetWindow: none, resetDays: []}")
        #expect(off.resilience.resetSchedule == nil)
    }

    @Test("invalid values name the key and where they came from")
    func errors() {
        #expect(message("connection: {resetTimeZone: Mars/Olympus}").contains("/c/run.yaml: 'connection.resetWindow/resetTimeZone/resetDays': unknown time zone 'Mars/Olympus'"))
        #expect(message("", environment: ["IBTRADER_CONNECTION_RESETWINDOW": "25:00-01:00"]).contains("IBTRADER_CONNECTION_RESETWINDOW (environment)"))
        #expect(message("connection: {gracePeriod: -1}").contains("'connection.gracePeriod' must be ≥ 0"))
        #expect(message("data: {maxBackfill: 0}").contains("'data.maxBackfill' must be positive"))
        #expect(message("connection: {resetDays: [funday]}").contains("unknown day 'funday'"))
    }
}
