import Logging
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

@Suite("Heartbeat and retry policies (pure)")
struct HeartbeatPolicyTests {
    @Test("the probe waits out the interval of silence, then goes now; zero turns it off")
    func waits() {
        let heartbeat = Heartbeat(interval: .seconds(30), timeout: .seconds(10))
        #expect(heartbeat.isEnabled)
        #expect(heartbeat.wait(afterSilence: .zero) == .seconds(30))
        #expect(heartbeat.wait(afterSilence: .seconds(12)) == .seconds(18))
        #expect(heartbeat.wait(afterSilence: .seconds(30)) == nil)
        #expect(heartbeat.wait(afterSilence: .seconds(95)) == nil)
        #expect(!Heartbeat(interval: .zero, timeout: .seconds(10)).isEnabled)
        #expect(Heartbeat() == Heartbeat(interval: .seconds(30), timeout: .seconds(10)))
        #expect(heartbeat.pollStep == .seconds(1))
        #expect(Heartbeat(interval: .milliseconds(200), timeout: .seconds(1)).pollStep == .milliseconds(50))
    }

    @Test("an unanswered probe is an ALERT outside IB's reset window, an expected notice inside it")
    func unanswered() {
        let heartbeat = Heartbeat(interval: .seconds(30), timeout: .milliseconds(2500))
        let (level, text) = heartbeat.unanswered(silence: .seconds(31), expected: false)
        #expect(level == .warning)
        #expect(text.hasPrefix("ALERT: "))
        #expect(text.contains("within 2.5 s after 31 s of silence"))
        let (quietLevel, quietText) = heartbeat.unanswered(silence: .seconds(31), expected: true)
        #expect(quietLevel == .notice)
        #expect(!quietText.contains("ALERT"))
        #expect(quietText.contains("reset window (expected)"))
        #expect(heartbeat.reason(silence: .seconds(31)).contains("reqCurrentTime"))
    }

    @Test("backoff doubles from the first delay up to the cap")
    func backoff() {
        let retry = RetryBackoff(first: .seconds(1), maximum: .seconds(300), alertAfter: 3)
        #expect((1...10).map { retry.delay(afterFailures: $0) } == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300].map { .seconds($0) })
        #expect(retry.delay(afterFailures: 10_000) == .seconds(300))
        #expect(retry.delay(afterFailures: 0) == .seconds(1))
        #expect(RetryBackoff(first: .seconds(5), maximum: .seconds(1), alertAfter: 0) == RetryBackoff(first: .seconds(5), maximum: .seconds(5), alertAfter: 1))
    }

    @Test("the ALERT is raised once per streak, at the configured failure; quieter before and after")
    func alertOnce() {
        let retry = RetryBackoff(first: .seconds(1), maximum: .seconds(60), alertAfter: 3)
        #expect((1...6).map { retry.isAlert(failures: $0) } == [false, false, true, false, false, false])
        let levels = (1...4).map { retry.failure("the quote feed", reason: "10168", failures: $0).0 }
        #expect(levels == [.info, .info, .warning, .notice])
        let alert = retry.failure("the quote feed", reason: "10168", failures: 3).1
        #expect(alert == "ALERT: the quote feed failed 3 times in a row (last: 10168); retrying in 4.0 seconds")
    }

    @Test("a quote carries its arrival time, unless that is over an hour from the data time (a replay)")
    func quoteTime() {
        let bar = Timestamp(nanoseconds: 1_700_000_000_000_000_000)
        let arrival = bar + .milliseconds(7_250)
        #expect(QuoteTime.stamp(arrival: arrival, dataTime: bar) == arrival)
        #expect(QuoteTime.stamp(arrival: bar - .seconds(2), dataTime: bar) == bar - .seconds(2))
        #expect(QuoteTime.stamp(arrival: bar + .hours(1), dataTime: bar) == bar + .hours(1))
        #expect(QuoteTime.stamp(arrival: bar + .hours(1) + .seconds(1), dataTime: bar) == bar)
        #expect(QuoteTime.stamp(arrival: bar - .hours(2), dataTime: bar) == bar)
        #expect(QuoteTime.stamp(arrival: arrival, dataTime: bar, maximumSkew: .seconds(5)) == bar)
    }
}
