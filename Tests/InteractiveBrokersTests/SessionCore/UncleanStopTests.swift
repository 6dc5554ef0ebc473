import Foundation
import JournalModel
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 23: a start after a crash says so, as an ALERT (so it reaches the alert channels): the journal's last run
/// has a start and no stop.
struct UncleanStopTests {
    static func event(_ n: Int64, _ message: String) -> JournalEvent {
        JournalEvent(sequence: n, time: Timestamp(seconds: 1_700_000_000 + n), kind: .lifecycle, message: message)
    }

    @Test func theLastRunWithoutAStopIsUnclean() {
        #expect(SessionJournal.uncleanStop([]) == nil)
        #expect(SessionJournal.uncleanStop([Self.event(1, "run 1 started: orderRefs IBT:R1:"), Self.event(2, "stopped: SIGTERM")]) == nil)
        #expect(SessionJournal.uncleanStop([Self.event(1, "run 1 started: orderRefs IBT:R1:"), Self.event(2, "fast stop: second SIGINT")]) == nil)
        #expect(
            SessionJournal.uncleanStop([
                Self.event(1, "run 1 started: orderRefs IBT:R1:"), Self.event(2, "stopped: duration"),
                Self.event(3, "run 2 started: orderRefs IBT:R2:"), Self.event(4, "risk reset by alice"),
            ]) == "run 2 (started 2023-11-14T22:13:23Z)")
    }

    @Test func theStartAfterACrashRaisesAnAlert() throws {
        var settings = SessionCoreHarness<BuyWhenFlat>.settings()
        settings.journaled = true
        var harness = SessionCoreHarness(BuyWhenFlat(), settings: settings)
        harness.send(.start)
        harness.send(.connected(SessionCoreHarness<BuyWhenFlat>.connection()))
        harness.answerAll { if case .journalRestart = $0 { true } else { false } }
        let (tag, _) = try #require(harness.outstanding.first { if case .journalRestart = $0.1 { true } else { false } })
        var data = JournalRestartData()
        data.uncleanStop = "run 2 (started 2023-11-14T22:13:23Z)"
        let actions = harness.send(.answer(tag, .journalRestart(data)))
        #expect(actions.contains(.log(.critical, "ALERT: run 2 (started 2023-11-14T22:13:23Z) did not stop cleanly (a crash, kill -9 or power loss); this start reconciles its orders and fills with the broker's")))
        let alerts = OperatorAlert.alerts(of: .tick, actions: actions, phaseBefore: .starting, phaseAfter: .starting, at: .zero)
        #expect(alerts.map(\.kind) == ["crash"])
    }
}
