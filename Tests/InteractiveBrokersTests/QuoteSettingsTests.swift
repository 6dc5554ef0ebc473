import Foundation
import Testing
import TradingEngine

@testable import TraderCLI

@Suite("ibtrader run config: data.quotes")
struct QuoteSettingsTests {
    private func load(_ text: String, environment: [String: String] = [:]) throws -> RunSettings {
        try RunSettings.load(
            text: "universe: {symbols: [AAPL]}\n" + text, source: "/c/run.yaml", baseDirectory: nil,
            environment: environment)
    }

    @Test("auto by default; auto, on, off from the file (bare YAML on/off too) and the environment")
    func values() throws {
        #expect(try load("").quotes == .auto)
        #expect(try load("data: {quotes: auto}").quotes == .auto)
        #expect(try load("data: {quotes: \"on\"}").quotes == .on)
        #expect(try load("data: {quotes: on}").quotes == .on)
        #expect(try load("data: {quotes: off}").quotes == .off)
        #expect(try load("data: {quotes: false}").quotes == .off)
        #expect(try load("", environment: ["IBTRADER_DATA_QUOTES": "off"]).quotes == .off)
    }

    @Test("anything else names the key and the file")
    func invalid() {
        do {
            _ = try load("data: {quotes: sometimes}")
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains("data.quotes") && "\(error)".contains("/c/run.yaml") && "\(error)".contains("sometimes"))
        }
    }
}
