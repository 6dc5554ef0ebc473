import Testing
import TWSClient
import TWSProtocol
import TradingModel

@testable import InteractiveBrokers

private let base = Timestamp(seconds: 1_736_953_200)  // a 5-second boundary

private func bar(_ offset: Int64) -> Bar {
    Bar(timestamp: base + .seconds(offset), open: Price(10), high: Price(10), low: Price(10), close: Price(10),
        volume: Quantity(1))
}

@Suite struct BackfillPlanTests {
    @Test("the request spans the gap plus one bar; no plan when no complete bar can be missing")
    func planning() throws {
        let plan = try #require(
            BackfillPlan.make(lastClosed: base, serverNow: base + .seconds(62), barSize: "5 secs", maximum: .hours(1)))
        #expect(plan.duration == "67 S")
        #expect(!plan.isTruncated)
        #expect(plan.barLength == .seconds(5))
        #expect(BackfillPlan.make(lastClosed: base, serverNow: base + .seconds(9), barSize: "5 secs", maximum: .hours(1)) == nil)
        #expect(BackfillPlan.make(lastClosed: .zero, serverNow: base, barSize: "5 secs", maximum: .hours(1)) == nil)
        #expect(BackfillPlan.make(lastClosed: base, serverNow: base + .hours(1), barSize: "fortnightly", maximum: .hours(1)) == nil)
        let long = try #require(
            BackfillPlan.make(lastClosed: base, serverNow: base + .hours(3), barSize: "1 min", maximum: .hours(1)))
        #expect(long.duration == "3600 S" && long.isTruncated)
    }

    @Test("selection: after each instrument's last bar, complete at server time, once, by time then instrument")
    func selection() throws {
        let plan = try #require(
            BackfillPlan.make(lastClosed: base, serverNow: base + .seconds(22), barSize: "5 secs", maximum: .hours(1)))
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
        let text = MarketDataRefusal.stopReason(rejected(354), delayedFallback: true)
        #expect(text.contains("(354)") && text.contains("no live market data permission"))
        #expect(text.contains("delayedFallback does not apply"))
        #expect(!MarketDataRefusal.stopReason(rejected(354), delayedFallback: false).contains("delayedFallback"))
        #expect(MarketDataRefusal.stopReason(rejected(10197), delayedFallback: true).contains("another session"))
        #expect(MarketDataRefusal.stopReason(TWSRequestError.notConnected, delayedFallback: true) == "\(TWSRequestError.notConnected)")
    }
}
