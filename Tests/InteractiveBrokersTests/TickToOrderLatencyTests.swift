import Testing
import TWSClient

@testable import InteractiveBrokers

@Suite struct TickToOrderLatencyTests {
    @Test func emptySaysSo() {
        let latency = TickToOrderLatency()
        #expect(latency.count == 0)
        #expect(latency.percentileMicroseconds(0.5) == nil)
        #expect(latency.text == "no bar measured")
    }

    /// 1…100 µs, one bar each: the nearest-rank percentiles, to the bucket's 0.1 µs upper edge.
    @Test func percentilesAreNearestRankAndNeverOptimistic() {
        var latency = TickToOrderLatency()
        for us in (1...100).reversed() { latency.record(nanoseconds: UInt64(us) * 1_000 + 40) }
        #expect(latency.count == 100)
        #expect(latency.percentileMicroseconds(0.5) == 50.1)
        #expect(latency.percentileMicroseconds(0.99) == 99.1)
        #expect(latency.percentileMicroseconds(1) == 100.04)  // capped at the maximum itself
        #expect(latency.maximumNanoseconds == 100_040)
        #expect(latency.text == "p50 50.1 / p99 99.1 / max 100.0 µs of 100 bars")
    }

    /// 1…100 µs as above: 51 bars at 50 µs or over (the bucket holding 50.0 counts whole), the p90, and the text.
    @Test func theShareAtOrOverAGoal() {
        var latency = TickToOrderLatency()
        #expect(latency.fractionAtOrAbove(microseconds: 50) == nil)
        #expect(latency.detailedText(goal: 50) == "no bar measured")
        for us in 1...100 { latency.record(nanoseconds: UInt64(us) * 1_000 + 40) }
        #expect(latency.fractionAtOrAbove(microseconds: 50) == 0.51)
        #expect(latency.fractionAtOrAbove(microseconds: 50.05) == 0.51, "50.04 shares 50.0's bucket: counted over")
        #expect(latency.fractionAtOrAbove(microseconds: 50.1) == 0.50)
        #expect(latency.fractionAtOrAbove(microseconds: 0) == 1)
        #expect(latency.fractionAtOrAbove(microseconds: 200_000) == 0)
        #expect(latency.detailedText(goal: 50) == "p50 50.1 / p90 90.1 / p99 99.1 / max 100.0 µs of 100 bars, 51.00 % at 50.0 or over")
    }

    @Test func slowBarsLandInCoarseBucketsAndBeyond() {
        var latency = TickToOrderLatency()
        latency.record(nanoseconds: 999_999)  // the last fine bucket
        latency.record(nanoseconds: 1_234_567)  // 1.23 ms: a 10 µs bucket
        latency.record(nanoseconds: 5_000_000_000)  // 5 s: the last bucket
        #expect(latency.percentileMicroseconds(0.33) == 1_000)
        #expect(latency.percentileMicroseconds(0.5) == 1_240)
        #expect(latency.percentileMicroseconds(1) == 5_000_000)  // beyond 100 ms: the maximum itself
        var one = TickToOrderLatency()
        one.record(nanoseconds: 12_345)
        #expect(one.text == "p50 12.3 / p99 12.3 / max 12.3 µs of 1 bar")  // capped at the maximum
    }

    /// A read stamps only once the previous stamp was taken: a chunk that queued behind another gets 0 (unknown),
    /// never the later read's time.
    @Test func aReadStampIsTakenOnceAndNeverOverwritten() {
        let clock = TWSWireClock()
        #expect(clock.takeReceived() == (0, 0))
        clock.noteReceived(at: 100, arrived: 90)
        clock.noteReceived(at: 200, arrived: 190)
        #expect(clock.takeReceived() == (100, 90))
        #expect(clock.takeReceived() == (0, 0))
        clock.noteReceived(at: 300)
        #expect(clock.takeReceived() == (300, 0))
        clock.noteReceived(at: 350, arrived: 340, emptyReadStarted: 345)
        clock.noteReceived(at: 360, arrived: 355, emptyReadStarted: 352)  // the first is untaken: ignored
        #expect(clock.takeReadStamps() == TWSWireClock.ReadStamps(read: 350, arrived: 340, emptyReadStarted: 345))
        #expect(clock.takeReadStamps() == TWSWireClock.ReadStamps())
        clock.noteSendStarted(at: 400)
        clock.noteSendEnded(at: 450)
        #expect(clock.lastSendStarted == 400 && clock.lastSendEnded == 450)
        let now = TWSWireClock.now()
        #expect(now > 0 && TWSWireClock.now() >= now)
    }
}
