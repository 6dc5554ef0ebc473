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

    /// Every ALERT line a monitor gives while ticking each minute from `start` to `end`, with its minute.
    func alerts(_ m: inout ConnectivityMonitor, from start: Timestamp, to end: Timestamp) -> [(minute: Int64, text: String)] {
        var found: [(Int64, String)] = []
        var t = start
        while t <= end {
            for case .log(_, let text) in m.tick(at: t) where text.hasPrefix("ALERT: ") {
                found.append(((t - start).nanoseconds / 60_000_000_000, text))
            }
            t = t + .minutes(1)
        }
        return found
    }

    @Test("a long interruption is never silent: the ALERT, then reminders 15 min, 1 h and 4 h in, then every 4 h")
    func remindersWhileDown() {
        var m = monitor()
        _ = m.lost(at: day)
        let seen = alerts(&m, from: day + .minutes(1), to: day + .hours(9))
        #expect(seen.map(\.minute) == [0, 14, 59, 239, 479], "\(seen.map(\.minute))")
        #expect(seen[2].text.contains("down for 1 h") && seen[2].text.contains("1100"), "\(seen[2].text)")
        _ = m.restored(dataLost: false, at: day + .hours(9))
        #expect(alerts(&m, from: day + .hours(9), to: day + .hours(10)).isEmpty, "over once restored")
    }

    @Test("the gateway gone in IB's reset window and not back after it (the weekly restart's login, a 2FA prompt): an ALERT a grace period after the window, naming the login")
    func outlastsTheResetWindow() {
        var m = monitor()
        // Saturday 23:50 New York (inside the nightly window); Sunday is IB's maintenance day, all of it inside.
        let saturdayNight = Timestamp(year: 2025, month: 1, day: 19, secondOfDay: 4 * 3600 + 50 * 60)
        _ = m.socketLost(reason: "peer closed", at: saturdayNight)
        // Sunday 00:00 New York through Monday 00:45 New York: expected, never an ALERT.
        let mondayWindowEnd = Timestamp(year: 2025, month: 1, day: 20, secondOfDay: 5 * 3600 + 45 * 60)
        #expect(alerts(&m, from: saturdayNight, to: mondayWindowEnd - .minutes(1)).isEmpty)
        #expect(m.isPaused)
        let after = alerts(&m, from: mondayWindowEnd, to: mondayWindowEnd + .minutes(10))
        #expect(after.count == 1, "\(after.map(\.text))")
        let text = after.first?.text ?? ""
        // Looked at each minute: the first look after the window is a grace period (30 s) past the last one in it.
        #expect(after.first?.minute == 0)
        #expect(text.contains("past the end of IB's reset window") && text.contains("login") && text.contains("2FA"), "\(text)")
        #expect(text.contains("unreachable"))
    }

    @Test func spansReadAsPeopleSayThem() {
        #expect(ConnectivityMonitor.human(.seconds(45)) == "45 s")
        #expect(ConnectivityMonitor.human(.minutes(12)) == "12 min")
        #expect(ConnectivityMonitor.human(.minutes(65)) == "1 h 5 min")
        #expect(ConnectivityMonitor.human(.hours(4)) == "4 h")
        #expect(ConnectivityMonitor.human(.hours(51)) == "2 d 3 h")
    }
}
