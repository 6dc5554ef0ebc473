import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Issue 80: the exit says what is left at the broker, and a position left without its stop is an ALERT that names
/// why; the `stopped` alert carries the same words.
struct ExitProtectionCoreTests {
    typealias Harness = HaltKeepsProtectionTests.Harness

    /// Stops the harness (SIGTERM) and answers everything until the run finishes; returns every action.
    static func stop(_ harness: inout Harness) -> [SessionAction] {
        var actions = harness.send(.stop("graceful shutdown"), after: .seconds(1))
        actions += harness.answerAll()
        actions += harness.send(.tick, after: .seconds(1))
        actions += harness.answerAll()
        return actions
    }

    static func logs(_ actions: [SessionAction]) -> [String] {
        actions.compactMap { if case .log(_, let text) = $0 { text } else { nil } }
    }

    @Test("a position whose stop was cancelled at TWS: the exit line says UNPROTECTED and why, and an ALERT goes out")
    func aBarePositionIsAnAlert() throws {
        var (harness, stopID) = try HaltKeepsProtectionTests.protectedPosition()
        // Someone cancels the stop in TWS; no bar comes to protect the position again before the stop.
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: stopID, status: "Cancelled", filled: 0, remaining: 10))), after: .seconds(1))
        let actions = Self.stop(&harness)
        let summary = try #require(actions.lazy.compactMap { if case .finish(let s) = $0 { s } else { nil } }.first)
        let left = try #require(summary.leftAtBroker)
        #expect(left.count == 1 && left.first?.isProtected == false, "\(left)")
        let lines = Self.logs(actions)
        let exit = try #require(lines.first { $0.hasPrefix("exit: left at the broker") }, "\(lines)")
        #expect(exit.contains("AAPL 10") && exit.contains("UNPROTECTED") && exit.contains("was cancelled"), "\(exit)")
        let alerts = OperatorAlert.alerts(
            of: .tick, actions: actions, phaseBefore: .stopping, phaseAfter: .finished, at: Harness.start)
        let alert = try #require(alerts.first { $0.kind == "protection" }, "\(alerts)")
        #expect(alert.severity == .critical && alert.text.contains("10 AAPL"), "\(alert.text)")
        let stopped = try #require(alerts.first { $0.kind == "stopped" })
        #expect(stopped.text.contains("left at the broker: AAPL 10") && stopped.text.contains("UNPROTECTED"), "\(stopped.text)")
    }

    @Test("the stop keeps a held position's stop working and does not cancel it")
    func theStopKeepsTheProtection() throws {
        var (harness, stopID) = try HaltKeepsProtectionTests.protectedPosition()
        let actions = Self.stop(&harness)
        #expect(HaltKeepsProtectionTests.cancels(actions).isEmpty, "\(HaltKeepsProtectionTests.cancels(actions)) \(stopID)")
        let lines = Self.logs(actions)
        #expect(lines.contains { $0.hasPrefix("leaving 1 protective order(s) working") && $0.contains("SELL STP") }, "\(lines)")
        #expect(actions.contains { if case .finish = $0 { true } else { false } })
    }
}
