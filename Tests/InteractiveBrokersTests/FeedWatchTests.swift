import LiveSession
import Testing
import TradingEngine
import TradingModel

/// The dead-feed watch alone: silence counted in trading hours only, reported once and then after longer waits, ended
/// by a bar, begun again by a subscription.
@Suite("FeedWatch: silence in trading hours")
struct FeedWatchTests {
    /// Monday 2024-01-08 … Friday 2024-01-12, 14:30–21:00 UTC; the weekend without a session.
    static let monday = Timestamp(year: 2024, month: 1, day: 8).dayNumber
    static var week: SessionTimes {
        SessionTimes((Int64(0)..<5).map { offset in
            let day = Timestamp(nanoseconds: (monday + offset) * Timestamp.nanosecondsPerDay)
            return SessionTimes.Session(open: day + .minutes(14 * 60 + 30), close: day + .hours(21))
        })
    }
    static func at(day: Int64, _ hours: Int64, _ minutes: Int64, _ seconds: Int64 = 0) -> Timestamp {
        Timestamp(nanoseconds: (monday + day) * Timestamp.nanosecondsPerDay) + .seconds(hours * 3600 + minutes * 60 + seconds)
    }
    let a = InstrumentID(index: 0)
    let b = InstrumentID(index: 1)

    @Test("a symbol silent for the limit in the session is found once; the other, still sending, is not; a bar ends it")
    func silenceInSession() {
        var watch = FeedWatch(limit: .seconds(120), instruments: 2)
        let start = Self.at(day: 0, 15, 0)
        watch.begin(at: start, market: start)
        var now = start
        var found: [InstrumentID] = []
        for _ in 0..<30 {  // 150 s; b sends a bar every 5 s, a none
            now = now + .seconds(5)
            _ = watch.bar(b, ending: now, at: now)
            found += watch.check(at: now, sessions: Self.week)
        }
        #expect(found == [a])
        #expect(watch.silences[0]?.reports == 1)
        #expect(watch.silences[0]?.lastBar == start)
        let ended = watch.bar(a, ending: now, at: now)
        #expect(ended?.reports == 1)
        #expect(watch.silences.isEmpty)
        #expect(watch.bar(a, ending: now + .seconds(5), at: now + .seconds(5)) == nil, "a second bar ends nothing")
    }

    @Test("found at the limit, not a second before")
    func exactlyAtTheLimit() {
        var watch = FeedWatch(limit: .seconds(120), instruments: 1)
        let start = Self.at(day: 1, 16, 0)
        watch.begin(at: start, market: start)
        #expect(watch.check(at: start + .seconds(119), sessions: Self.week).isEmpty)
        #expect(watch.check(at: start + .seconds(120), sessions: Self.week) == [a])
    }

    @Test("silence after the close does not count; it counts again from the next open")
    func overnight() {
        var watch = FeedWatch(limit: .seconds(120), instruments: 1)
        let lastBar = Self.at(day: 0, 20, 59, 55)
        let close = Self.at(day: 0, 21, 0)
        _ = watch.bar(a, ending: close, at: lastBar + .seconds(5))  // arrived at the close (live: market = wall time)
        let arrival = close
        // Through the night, and 119 s into Tuesday's session: nothing.
        var t = arrival
        while t < Self.at(day: 1, 14, 31, 59) {
            #expect(watch.check(at: t, sessions: Self.week).isEmpty, "\(t)")
            t = t + .minutes(7)
        }
        #expect(watch.check(at: Self.at(day: 1, 14, 31, 59), sessions: Self.week).isEmpty)
        #expect(watch.check(at: Self.at(day: 1, 14, 32, 0), sessions: Self.week) == [a])
    }

    @Test("a weekend and a holiday (known days without a session) never count")
    func closedDays() {
        // Friday's close to Monday: the following Monday is past the known days and repeats the last known
        // Monday's hours.
        var watch = FeedWatch(limit: .seconds(120), instruments: 1)
        let fridayClose = Self.at(day: 4, 21, 0)
        _ = watch.bar(a, ending: fridayClose, at: fridayClose)
        #expect(watch.check(at: Self.at(day: 7, 14, 31), sessions: Self.week).isEmpty)
        #expect(watch.check(at: Self.at(day: 7, 14, 32), sessions: Self.week) == [a], "next Monday repeats Monday's hours")

        // Wednesday a holiday: Tuesday's close to Thursday's open counts nothing.
        var hours = Self.week
        var days = (Int64(0)..<5).compactMap { hours[Self.monday + $0] }
        days.remove(at: 2)
        hours = SessionTimes(days)
        var holiday = FeedWatch(limit: .seconds(120), instruments: 1)
        let tuesdayClose = Self.at(day: 1, 21, 0)
        _ = holiday.bar(a, ending: tuesdayClose, at: tuesdayClose)
        #expect(holiday.check(at: Self.at(day: 3, 14, 31), sessions: hours).isEmpty)
        #expect(holiday.check(at: Self.at(day: 3, 14, 32), sessions: hours) == [a])
    }

    @Test("while still silent it is found again after twice the wait, then four times, and never more than 32 times")
    func escalation() {
        var watch = FeedWatch(limit: .seconds(60), instruments: 1)
        let start = Self.at(day: 2, 15, 0)
        watch.begin(at: start, market: start)
        var reports: [Int64] = []
        var t = start
        while t < start + .hours(5) {
            t = t + .seconds(1)
            if !watch.check(at: t, sessions: Self.week).isEmpty { reports.append((t - start).nanoseconds / 1_000_000_000) }
        }
        // 60, then +120, +240, +480, +960, +1920, +1920 …
        #expect(Array(reports.prefix(7)) == [60, 180, 420, 900, 1860, 3780, 5700])
        #expect(watch.silences[0]?.reports == reports.count)
    }

    @Test("a subscription begins the count again; with no hours known every instant counts")
    func beginAndUnknownHours() {
        var watch = FeedWatch(limit: .seconds(120), instruments: 1)
        let start = Self.at(day: 5, 3, 0)  // Saturday night: no session, but no hours are known here
        watch.begin(at: start, market: start)
        #expect(watch.check(at: start + .seconds(100), sessions: SessionTimes()).isEmpty)
        watch.begin(at: start + .seconds(100), market: start + .seconds(100))
        #expect(watch.check(at: start + .seconds(200), sessions: SessionTimes()).isEmpty, "counted from the new begin")
        #expect(watch.check(at: start + .seconds(220), sessions: SessionTimes()) == [a])
        #expect(watch.silence(of: a, at: start + .seconds(230), sessions: SessionTimes()) == .seconds(10))
    }

    @Test("a bar's own time is the market's: an estimate from a clock years away (the wall clock against a replaying gateway) is replaced")
    func barTimeWins() {
        var watch = FeedWatch(limit: .seconds(120), instruments: 1)
        let wall = Timestamp(year: 2026, month: 11, day: 26, secondOfDay: 8 * 3600)  // 08:00 UTC: no session that day
        watch.begin(at: wall, market: wall)
        let replay = Self.at(day: 0, 15, 0)  // the gateway's bars are from 2024, in the session
        _ = watch.bar(a, ending: replay, at: wall)
        #expect(watch.check(at: wall + .seconds(119), sessions: Self.week).isEmpty)
        #expect(watch.check(at: wall + .seconds(120), sessions: Self.week) == [a])
    }

    @Test("off at zero")
    func off() {
        var watch = FeedWatch(limit: .zero, instruments: 1)
        let start = Self.at(day: 0, 15, 0)
        watch.begin(at: start, market: start)
        #expect(!watch.isOn)
        #expect(watch.check(at: start + .hours(3), sessions: Self.week).isEmpty)
    }
}
