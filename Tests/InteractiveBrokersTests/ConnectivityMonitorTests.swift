import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// A Wednesday 15:00 UTC (10:00 New York): outside IB's reset window.
private let day = Timestamp(year: 2025, month: 1, day: 15, secondOfDay: 15 * 3600)
/// 00:00 New York on the same night: inside it.
private let night = Timestamp(year: 2025, month: 1, day: 16, secondOfDay: 5 * 3600)

private func levels(_ actions: [ConnectivityAction]) -> [String] {
    actions.compactMap { if case .log(let level, _) = $0 { "\(level)" } else { nil } }
}

private func others(_ actions: [ConnectivityAction]) -> [ConnectivityAction] {
    actions.filter { if case .log = $0 { false } else { true } }
}

@Suite struct ConnectivityMonitorTests {
    func monitor() -> ConnectivityMonitor { ConnectivityMonitor(gracePeriod: .seconds(30), schedule: .northAmerica) }

    @Test("an 1100 restored within the grace period is a blip: notice, no pause, a resynchronization")
    func blip() {
        var m = monitor()
        #expect(levels(m.lost(at: day)) == ["notice"])
        #expect(m.tick(at: day + .seconds(29)).isEmpty)
        #expect(!m.isPaused)
        let restored = m.restored(dataLost: false, at: day + .seconds(29))
        #expect(levels(restored) == ["notice"])
        #expect(others(restored) == [.resynchronize])
        #expect(m.phase == .connected)
    }

    @Test("an 1100 longer than the grace period alerts once and pauses entries until restored")
    func longOutage() {
        var m = monitor()
        _ = m.lost(at: day)
        let escalation = m.tick(at: day + .seconds(30))
        #expect(others(escalation) == [.pauseEntries])
        #expect(levels(escalation) == ["warning"])
        #expect(m.isPaused)
        #expect(m.tick(at: day + .seconds(60)).isEmpty, "escalates once")
        let restored = m.restored(dataLost: true, at: day + .seconds(90))
        #expect(others(restored) == [.resumeEntries, .resynchronize, .resubscribe])
        #expect(levels(restored) == ["warning"])
        #expect(!m.isPaused)
    }

    @Test("an 1100 storm is one interruption, timed from the first")
    func storm() {
        var m = monitor()
        _ = m.lost(at: day)
        #expect(levels(m.lost(at: day + .seconds(20))) == ["debug"])
        #expect(others(m.tick(at: day + .seconds(30))) == [.pauseEntries])
    }

    @Test("inside the reset window: info, and the pause comes without an alert")
    func resetWindow() {
        var m = monitor()
        #expect(levels(m.lost(at: night)) == ["info"])
        let escalation = m.tick(at: night + .minutes(5))
        #expect(others(escalation) == [.pauseEntries])
        #expect(levels(escalation) == ["notice"])
        #expect(!escalation.contains { if case .log(_, let text) = $0 { text.contains("ALERT") } else { false } })
        #expect(levels(m.restored(dataLost: false, at: night + .minutes(20))) == ["notice"])
    }

    @Test("a socket loss is an error outside the window and expected inside it; reconnecting resynchronizes")
    func socket() {
        var m = monitor()
        #expect(levels(m.socketLost(reason: "closed by peer", at: day)) == ["error"])
        var n = monitor()
        #expect(levels(n.socketLost(reason: "closed by peer", at: night)) == ["notice"])
        #expect(others(n.tick(at: night + .seconds(45))) == [.pauseEntries])
        let back = n.restored(dataLost: true, at: night + .seconds(50), socket: true)
        #expect(others(back) == [.resumeEntries, .resynchronize, .resubscribe])
    }

    @Test("without a schedule nothing is expected")
    func noSchedule() {
        var m = ConnectivityMonitor(gracePeriod: .zero, schedule: nil)
        #expect(levels(m.lost(at: night)) == ["notice"])
        #expect(levels(m.tick(at: night)) == ["warning"])
    }
}
