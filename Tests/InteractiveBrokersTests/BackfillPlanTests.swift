import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

private let base = Timestamp(seconds: 1_736_953_200)  // a 5-second boundary

private func bar(_ offset: Int64) -> Bar {
    Bar(timestamp: base + .seconds(offset), open: Price(10), high: Price(10), low: Price(10), close: Price(10),
        volume: Quantity(1))
}

@Suite struct BackfillPlanTests {
    static func policy(_ barSize: String = "5 secs", maximum: TimeSpan = .hours(6), rewarm: TimeSpan = .minutes(30))
        -> BackfillPolicy
    {
        BackfillPolicy(barSize: barSize, maximum: maximum, rewarm: rewarm)
    }

    @Test("a short gap: one request for the gap plus one bar, ending at the server's time; no plan without a missing bar")
    func planning() throws {
        let plan = try #require(BackfillPlan.make(from: base, to: base + .seconds(62), policy: Self.policy()))
        #expect(plan.requests == [BackfillPlan.Request(end: base + .seconds(62), duration: "67 S")])
        #expect(plan.requests[0].endDateTime == "20250115-15:01:02")
        #expect(!plan.isTruncated && plan.start == base && plan.gap == .seconds(62))
        #expect(plan.barLength == .seconds(5))
        #expect(BackfillPlan.make(from: base, to: base + .seconds(9), policy: Self.policy()) == nil)
        #expect(BackfillPlan.make(from: .zero, to: base, policy: Self.policy()) == nil)
        #expect(BackfillPlan.make(from: base, to: base + .hours(1), policy: Self.policy("fortnightly")) == nil)
    }

    @Test("a gap longer than IB takes in one request is cut into chunks (one hour of 5-second bars), oldest first")
    func chunks() throws {
        let now = base + .minutes(150)
        let plan = try #require(BackfillPlan.make(from: base, to: now, policy: Self.policy()))
        #expect(plan.requests.map(\.duration) == ["1805 S", "3600 S", "3600 S"])
        #expect(plan.requests.map(\.end) == [now - .hours(2), now - .hours(1), now])
        #expect(!plan.isTruncated && plan.start == base)
        // Together they reach one bar before the gap, so the first missing bar is in an answer.
        #expect(plan.requests[0].end - .seconds(1805) == base - .seconds(5))
        // Minute bars: a day per request.
        let minutes = try #require(BackfillPlan.make(from: base, to: base + .days(3), policy: Self.policy("1 min", maximum: .days(7))))
        #expect(minutes.requests.map(\.duration) == ["60 S", "86400 S", "86400 S", "86400 S"])
    }

    @Test("closed hours are not a gap: nothing before the open after a night, and a gap across one counts its trading time")
    func nights() throws {
        // 2025-01-15 and 16: regular sessions 14:30-21:00 UTC (base is the 15th at 15:00).
        let day = base.dayNumber
        var sessions = SessionTimes()
        for d in [day, day + 1] {
            let midnight = Timestamp(nanoseconds: d * Timestamp.nanosecondsPerDay)
            sessions.merge(SessionTimes([.init(open: midnight + .minutes(870), close: midnight + .hours(21))]))
        }
        let close = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay) + .hours(21)
        let nextOpen = close + .minutes(1050)
        let policy = BackfillPolicy(barSize: "5 secs", maximum: .hours(1), rewarm: .minutes(10), sessions: sessions)
        // The last bar before the close, and a reconnect after IB's nightly restart before the next open.
        #expect(BackfillPlan.make(from: close - .seconds(5), to: nextOpen - .minutes(5), policy: policy) == nil)
        // The same without hours: a 17-hour gap, cut to the re-warm.
        let blind = try #require(BackfillPlan.make(
            from: close - .seconds(5), to: nextOpen - .minutes(5), policy: Self.policy(maximum: .hours(1), rewarm: .minutes(10))))
        #expect(blind.isTruncated)
        // Cut off ten minutes before the close, back ten minutes after the open: twenty minutes of trading time, under
        // the hour, fetched in full, and no request for the night's hours.
        let plan = try #require(BackfillPlan.make(from: close - .minutes(10), to: nextOpen + .minutes(10), policy: policy))
        #expect(!plan.isTruncated && plan.start == close - .minutes(10))
        #expect(plan.requests.map(\.end) == [nextOpen - .minutes(50) - .hours(16), nextOpen + .minutes(10)], "\(plan.requests)")
        #expect(plan.requests.count == 2)
    }

    @Test("beyond the maximum only the re-warm span is fetched and the plan says so; a re-warm longer than the gap fills it")
    func truncation() throws {
        let now = base + .hours(10)
        let plan = try #require(BackfillPlan.make(from: base, to: now, policy: Self.policy(rewarm: .minutes(30))))
        #expect(plan.isTruncated && plan.start == now - .minutes(30))
        #expect(plan.requests == [BackfillPlan.Request(end: now, duration: "1805 S")])
        let long = try #require(
            BackfillPlan.make(from: base, to: base + .hours(7), policy: Self.policy(rewarm: .hours(8))))
        #expect(!long.isTruncated && long.start == base && long.requests.count == 8)
        // A re-warm shorter than two bars still fetches one complete bar.
        let tiny = try #require(BackfillPlan.make(from: base, to: now, policy: Self.policy(rewarm: .zero)))
        #expect(tiny.isTruncated && tiny.start == now - .seconds(10))
    }

    @Test("selection: after each instrument's last bar, complete at server time, once, by time then instrument")
    func selection() throws {
        let plan = try #require(BackfillPlan.make(from: base, to: base + .seconds(22), policy: Self.policy()))
        let a = InstrumentID(0)
        let b = InstrumentID(1)
        let answers: [(InstrumentID, Bar)] = [
            (b, bar(5)), (b, bar(0)), (b, bar(10)), (b, bar(20)),  // 0 seen; 20 still forming at 22
            (a, bar(5)), (a, bar(5)), (a, bar(10)), (a, bar(15)), (a, bar(-5)),  // a duplicate; -5 seen
        ]
        let chosen = plan.select(answers, lastSeen: [base, base + .seconds(5)])
        let keys = chosen.map { "\($0.0.index)@\(($0.1.timestamp - base).nanoseconds / 1_000_000_000)" }
        #expect(keys == ["0@5", "0@10", "1@10", "0@15"])
        #expect(plan.select([(InstrumentID(7), bar(5))], lastSeen: [base]).isEmpty, "unknown instrument")
    }

    @Test("bar size texts")
    func barSizes() {
        #expect(BackfillPlan.barLength("5 secs") == .seconds(5))
        #expect(BackfillPlan.barLength("1 min") == .minutes(1))
        #expect(BackfillPlan.barLength("30 mins") == .minutes(30))
        #expect(BackfillPlan.barLength("1 hour") == .hours(1))
        #expect(BackfillPlan.barLength("1 day") == .days(1))
        #expect(BackfillPlan.barLength("secs") == nil && BackfillPlan.barLength("0 secs") == nil)
    }
}

@Suite struct MarketDataRefusalTests {
    func rejected(_ code: Int) -> TWSRequestError {
        .rejected(TWSNotice(requestID: 3, code: code, message: "Requested market data is not subscribed."))
    }

    @Test("permission codes: which fall back to delayed data, which do not")
    func classification() {
        #expect(MarketDataRefusal(code: 354)?.fallsBackToDelayed == true)
        #expect(MarketDataRefusal(code: 10089)?.fallsBackToDelayed == true)
        #expect(MarketDataRefusal(code: 10168) == .noDataAtAll(code: 10168))
        #expect(MarketDataRefusal(code: 10168)?.fallsBackToDelayed == false)
        #expect(MarketDataRefusal(code: 10197) == .competingSession)
        #expect(MarketDataRefusal(code: 10167) == .showingDelayed)
        #expect(MarketDataRefusal(code: 200) == nil)
        #expect(MarketDataRefusal.of(rejected(354)) == .notSubscribed(code: 354, delayedAvailable: true))
        #expect(MarketDataRefusal.of(TWSRequestError.notConnected) == nil)
    }

    @Test("refused bars stop the run with the code, the way out, and why the delayed fallback does not apply")
    func stopReason() {
        func refused(_ code: Int) -> SessionFailure { .rejected(code: code, "\(code) Requested market data is not subscribed.") }
        let text = MarketDataRefusal.stopReason(refused(354), delayedFallback: true)
        #expect(text.contains("(354)") && text.contains("no live market data permission"))
        #expect(text.contains("delayedFallback does not apply"))
        #expect(text.hasSuffix("[354 Requested market data is not subscribed.]"), "TWS's own words close it: \(text)")
        #expect(!MarketDataRefusal.stopReason(refused(354), delayedFallback: false).contains("delayedFallback"))
        #expect(MarketDataRefusal.stopReason(refused(10197), delayedFallback: true).contains("another session"))
        #expect(MarketDataRefusal.stopReason(.unanswered("timed out"), delayedFallback: true) == "timed out")
        #expect(MarketDataRefusal.stopReason(refused(200), delayedFallback: true) == "200 Requested market data is not subscribed.")
    }
}
