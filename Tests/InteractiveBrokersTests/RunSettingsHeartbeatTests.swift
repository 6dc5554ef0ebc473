import Testing

@testable import InteractiveBrokers
@testable import LiveSession
@testable import TraderCLI

@Suite("ibtrader run config: heartbeat keys")
struct RunSettingsHeartbeatTests {
    private func load(_ text: String, environment: [String: String] = [:]) throws -> RunSettings {
        try RunSettings.load(
            text: "universe: {symbols: [AAPL]}\n" + text, source: "/c/run.yaml", baseDirectory: nil,
            environment: environment)
    }

    private func message(_ text: String, environment: [String: String] = [:]) -> String {
        do {
            _ = try load(text, environment: environment)
            return "no error"
        } catch { return "\(error)" }
    }

    @Test("default: a probe after 30 s of silence, answered within 10 s")
    func defaults() throws {
        #expect(try load("").resilience.heartbeat == Heartbeat(interval: .seconds(30), timeout: .seconds(10)))
    }

    @Test("from the file, the environment, and 0 turns it off")
    func keys() throws {
        let heartbeat = try load("connection: {heartbeat: 12.5, heartbeatTimeout: 4}").resilience.heartbeat
        #expect(heartbeat == Heartbeat(interval: .milliseconds(12_500), timeout: .seconds(4)))
        let fromEnvironment = try load("connection: {heartbeat: 12}", environment: ["IBTRADER_CONNECTION_HEARTBEAT": "45"])
        #expect(fromEnvironment.resilience.heartbeat.interval == .seconds(45))
        let off = try load("connection: {heartbeat: 0}").resilience.heartbeat
        #expect(!off.isEnabled)
    }

    @Test("bad values name the key and the file or variable")
    func errors() {
        #expect(message("connection: {heartbeat: -1}").contains("/c/run.yaml: 'connection.heartbeat' must be ≥ 0 seconds (0: off)"))
        #expect(message("connection: {heartbeatTimeout: 0}").contains("'connection.heartbeatTimeout' must be positive"))
        #expect(message("", environment: ["IBTRADER_CONNECTION_HEARTBEAT": "-3"]).contains("IBTRADER_CONNECTION_HEARTBEAT"))
        #expect(message("connection: {heartbeet: 3}").contains("heartbeet"))
    }
}
