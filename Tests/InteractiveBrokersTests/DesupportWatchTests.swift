import Testing
import TWSProtocol
import TradingModel

@testable import LiveSession

/// IB's text for build 10.45.1, desupported on 2026-12-15.
private let ibText = "The version of the application you are running, 1045.1, needs to be upgraded, as it will be "
    + "desupported on 20261215. The minimum supported version at that time will be 1050.1."
/// 2026-11-29 15:00 UTC: 10:00 in New York, 16 days before the date.
private let today = Timestamp(year: 2026, month: 11, day: 29, secondOfDay: 15 * 3600)

private func lines(_ actions: [ConnectivityAction]) -> [(level: String, text: String)] {
    actions.compactMap { if case .log(let level, let text) = $0 { ("\(level)", text) } else { nil } }
}

private func alerts(_ actions: [ConnectivityAction]) -> [String] {
    lines(actions).filter { $0.text.hasPrefix("ALERT:") }.map(\.text)
}

/// Issue 79: IB's desupport warning (2172) is an ALERT naming its date, repeated once a day on the session's clock
/// until the date has passed.
@Suite struct DesupportWatchTests {
    @Test("the first 2172 is an ALERT with the date, the build and the minimum; TWS's repeat at a reconnect is not")
    func firstWarningAlerts() throws {
        var watch = DesupportWatch()
        watch.connected(generation: 1)
        let first = watch.heard(TWSDesupportWarning(text: ibText), generation: 1, at: today)
        let alert = try #require(alerts(first).first)
        #expect(lines(first).map(\.level) == ["warning"])
        #expect(alert.contains("10.45.1") && alert.contains("2026-12-15") && alert.contains("in 16 days"), "\(alert)")
        #expect(alert.contains("10.50.1") && alert.contains("Upgrading IB Gateway"), "\(alert)")
        #expect(!alert.contains("TWSDesupportWarning"), "no Swift type names in what an operator reads")
        #expect(watch.nextAlert == today + .days(1))
        // TWS sends it again at every connect: the same warning is not a second ALERT.
        watch.connected(generation: 2)
        let again = watch.heard(TWSDesupportWarning(text: ibText), generation: 2, at: today + .hours(1))
        #expect(lines(again).map(\.level) == ["debug"])
        #expect(watch.nextAlert == today + .days(1))
        #expect(watch.status(at: today) == "10.45.1, desupported by IB on 2026-12-15 (in 16 days; IB's minimum then: 10.50.1)")
    }

    @Test("repeated once a day until the date has passed (New York), then no more ALERTs")
    func dailyUntilTheDate() {
        var watch = DesupportWatch()
        watch.connected(generation: 1)
        // 2026-12-13 10:00 New York: the date is the day after tomorrow.
        let start = Timestamp(year: 2026, month: 12, day: 13, secondOfDay: 15 * 3600)
        #expect(alerts(watch.heard(TWSDesupportWarning(text: ibText), generation: 1, at: start)).count == 1)
        #expect(watch.tick(at: start + .hours(23) + .minutes(59)).isEmpty, "not before a day has passed")
        let tomorrow = alerts(watch.tick(at: start + .days(1)))
        #expect(tomorrow.count == 1 && tomorrow[0].contains("tomorrow"), "\(tomorrow)")
        let onTheDay = alerts(watch.tick(at: start + .days(2)))
        #expect(onTheDay.count == 1 && onTheDay[0].contains("today"), "\(onTheDay)")
        #expect(watch.daysLeft(at: start + .days(2)) == 0)
        // 2026-12-16 10:00 New York: the date has passed; one plain warning says so, then nothing.
        let after = watch.tick(at: start + .days(3))
        #expect(alerts(after).isEmpty)
        #expect(lines(after).map(\.level) == ["warning"] && lines(after)[0].text.contains("has passed"), "\(lines(after))")
        #expect(watch.nextAlert == nil)
        #expect(watch.tick(at: start + .days(4)).isEmpty)
        #expect(watch.alerts == 3)
    }

    @Test("the date is New York's: 23:30 New York on the date (04:30 UTC the next day) is still the date")
    func newYorkDate() {
        var watch = DesupportWatch()
        _ = watch.heard(TWSDesupportWarning(text: ibText), generation: 0, at: today)
        let lateOnTheDate = Timestamp(year: 2026, month: 12, day: 16, secondOfDay: 4 * 3600 + 1800)
        #expect(watch.daysLeft(at: lateOnTheDate) == 0)
        #expect(!watch.hasPassed(at: lateOnTheDate))
        #expect(watch.hasPassed(at: lateOnTheDate + .hours(1)))
    }

    @Test("a 2172 whose date has passed is a warning line, never an ALERT")
    func passedDate() {
        var watch = DesupportWatch()
        let old = "The version of the application you are running, 1018.1, needs to be upgraded, as it will be "
            + "desupported on 20230718. The minimum supported version at that time will be 1019.2."
        let heard = watch.heard(TWSDesupportWarning(text: old), generation: 1, at: today)
        #expect(alerts(heard).isEmpty)
        #expect(lines(heard).map(\.level) == ["warning"] && lines(heard)[0].text.contains("2023-07-18"))
        #expect(watch.nextAlert == nil)
    }

    @Test("a text without a readable date: the ALERT says so, and repeats daily")
    func noDate() throws {
        var watch = DesupportWatch()
        let heard = alerts(watch.heard(TWSDesupportWarning(text: "Please upgrade TWS."), generation: 1, at: today))
        let alert = try #require(heard.first)
        #expect(alert.contains("no date that could be read") && alert.contains("Please upgrade TWS."), "\(alert)")
        #expect(alerts(watch.tick(at: today + .days(1))).count == 1)
        #expect(alerts(watch.tick(at: today + .days(30))).count == 1)
        #expect(watch.daysLeft(at: today) == nil)
    }

    @Test("after a reconnect TWS no longer sends 2172 (the gateway was upgraded): the daily ALERT ends")
    func upgradedGateway() {
        var watch = DesupportWatch()
        watch.connected(generation: 1)
        _ = watch.heard(TWSDesupportWarning(text: ibText), generation: 1, at: today)
        watch.connected(generation: 2)  // no 2172 on this connection
        let next = watch.tick(at: today + .days(1))
        #expect(alerts(next).isEmpty)
        #expect(lines(next).map(\.level) == ["notice"] && lines(next)[0].text.contains("probably upgraded"))
        #expect(watch.warning == nil && watch.status(at: today) == nil)
        #expect(watch.tick(at: today + .days(2)).isEmpty)
    }

    @Test("another date (IB moved it, or another build) is a new ALERT at once")
    func newDate() {
        var watch = DesupportWatch()
        _ = watch.heard(TWSDesupportWarning(text: ibText), generation: 1, at: today)
        let moved = ibText.replacingOccurrences(of: "20261215", with: "20261208")
        let heard = alerts(watch.heard(TWSDesupportWarning(text: moved), generation: 1, at: today + .hours(2)))
        #expect(heard.count == 1 && heard[0].contains("2026-12-08"), "\(heard)")
        #expect(watch.nextAlert == today + .hours(2) + .days(1))
    }
}
