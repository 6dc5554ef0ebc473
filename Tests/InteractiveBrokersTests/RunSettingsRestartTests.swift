import Foundation
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession
@testable import TraderCLI

@Suite("ibtrader run config: restart keys")
struct RunSettingsRestartTests {
    private let universe = "universe: {symbols: [AAPL]}\n"

    private func load(_ text: String, environment: [String: String] = [:]) throws -> RunSettings {
        try RunSettings.load(text: universe + text, source: "/c/run.yaml", baseDirectory: nil, environment: environment)
    }

    @Test("orders.resendMaxAge and orders.unknownOrders: defaults, file, environment, errors")
    func keys() throws {
        let defaults = try load("")
        #expect(defaults.resendPolicy == ResendPolicy.maxAge(seconds: 300))
        #expect(defaults.unknownOrders == "adopt")
        let file = try load("orders: {resendMaxAge: 0, unknownOrders: cancel}")
        #expect(file.resendPolicy.maxAge == TimeSpan(nanoseconds: 0))
        #expect(file.unknownOrders == "cancel")
        let environment = try load(
            "orders: {resendMaxAge: 0}", environment: ["IBTRADER_ORDERS_RESEND_MAX_AGE": "90"])
        #expect(environment.resendPolicy.maxAge == .seconds(90))
        #expect(throws: (any Error).self) { try load("orders: {resendMaxAge: -1}") }
        #expect(throws: (any Error).self) { try load("orders: {unknownOrders: ignore}") }
        do {
            _ = try load("orders: {unknownOrders: ignore}")
        } catch {
            #expect("\(error)".contains("orders.unknownOrders") && "\(error)".contains("/c/run.yaml"))
        }
    }

    @Test("journal.durability: normal by default, full from the file or the environment, anything else an error")
    func journalDurability() throws {
        #expect(try load("").journalDurability == "normal")
        #expect(try load("journal: {durability: full}").journalDurability == "full")
        #expect(
            try load("", environment: ["IBTRADER_JOURNAL_DURABILITY": "full"]).journalDurability == "full")
        do {
            _ = try load("journal: {durability: fsync}")
            Issue.record("an unknown durability was accepted")
        } catch {
            #expect("\(error)".contains("journal.durability") && "\(error)".contains("/c/run.yaml"))
        }
    }
}
