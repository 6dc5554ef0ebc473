import Testing

@testable import TWSClient

@Suite struct HistoricalPacingTests {
    private func request(_ name: String, series: String = "AAPL/SMART/TRADES", bidAsk: Bool = false)
        -> HistoricalPacingRequest
    {
        HistoricalPacingRequest(signature: name, seriesKey: series, isBidAsk: bidAsk)
    }

    @Test func identicalRequestWaitsFifteenSeconds() {
        var pacing = HistoricalPacing()
        let first = request("AAPL 1 D 5 secs")
        #expect(pacing.decision(for: first, now: .zero) == .sendNow)
        pacing.recordSent(first, requestID: 1, at: .zero)
        pacing.finished(requestID: 1)
        #expect(pacing.decision(for: first, now: .seconds(14)) == .sendAt(.seconds(15) + .milliseconds(100)))
        #expect(pacing.decision(for: first, now: .seconds(16)) == .sendNow)
    }

    @Test func sixthRequestForOneSeriesWaitsTillTwoSecondsPass() {
        var pacing = HistoricalPacing()
        for index in 0..<5 {
            let time = Duration.milliseconds(100 * index)
            let next = request("q\(index)")
            #expect(pacing.decision(for: next, now: time) == .sendNow)
            pacing.recordSent(next, requestID: index, at: time)
        }
        let sixth = request("q5")
        // The first send (t = 0) must leave the closed window [t − 2.1 s, t].
        let expected = Duration.seconds(2) + .milliseconds(100) + .nanoseconds(1)
        #expect(pacing.decision(for: sixth, now: .milliseconds(500)) == .sendAt(expected))
        // Another series is not affected.
        #expect(
            pacing.decision(for: request("other", series: "MSFT/SMART/TRADES"), now: .milliseconds(500)) == .sendNow)
    }

    @Test func bidAskCountsDouble() {
        var pacing = HistoricalPacing()
        for index in 0..<2 {
            let next = request("b\(index)", series: "AAPL/SMART/BID_ASK", bidAsk: true)
            pacing.recordSent(next, requestID: index, at: .zero)
        }
        // Weight 4 used; another BID_ASK (weight 2) would make 6.
        let third = request("b2", series: "AAPL/SMART/BID_ASK", bidAsk: true)
        #expect(pacing.decision(for: third, now: .milliseconds(10)) != .sendNow)
        // A TRADES request of the same series (weight 1) still fits: 5.
        #expect(pacing.decision(for: request("t", series: "AAPL/SMART/BID_ASK"), now: .milliseconds(10)) == .sendNow)
    }

    @Test func sixtyFirstRequestInTenMinutesWaits() {
        var pacing = HistoricalPacing()
        for index in 0..<60 {
            let time = Duration.seconds(5 * index)  // spread out: only the 10-minute rule applies
            let next = request("r\(index)", series: "S\(index)")
            #expect(pacing.decision(for: next, now: time) == .sendNow)
            pacing.recordSent(next, requestID: index, at: time)
            pacing.finished(requestID: index)
        }
        let late = request("r60", series: "S60")
        let expected = Duration.seconds(600) + .milliseconds(100) + .nanoseconds(1)
        #expect(pacing.decision(for: late, now: .seconds(300)) == .sendAt(expected))
        #expect(pacing.decision(for: late, now: expected) == .sendNow)
    }

    @Test func atMostFiftyOpenRequests() {
        var pacing = HistoricalPacing(
            limits: {
                var limits = HistoricalPacingLimits()
                limits.globalLimit = 1000
                limits.seriesLimit = 1000
                return limits
            }())
        for index in 0..<50 {
            pacing.recordSent(request("o\(index)", series: "S\(index)"), requestID: index, at: .zero)
        }
        #expect(pacing.openRequestCount == 50)
        #expect(pacing.decision(for: request("o50", series: "S50"), now: .zero) == .waitForOpenSlot)
        pacing.finished(requestID: 7)
        #expect(pacing.decision(for: request("o50", series: "S50"), now: .zero) == .sendNow)
    }

    @Test func plannedScheduleNeverViolatesAnyRule() {
        // 100 requests for 3 series, each sent at the time the planner gives: check the rules on the result.
        var pacing = HistoricalPacing()
        var sends: [(HistoricalPacingRequest, Duration)] = []
        var now = Duration.zero
        for index in 0..<100 {
            let next = request("p\(index % 40)", series: "S\(index % 3)", bidAsk: index % 7 == 0)
            while case .sendAt(let time) = pacing.decision(for: next, now: now) { now = time }
            pacing.recordSent(next, requestID: index, at: now)
            pacing.finished(requestID: index)
            sends.append((next, now))
        }
        for (index, (sent, time)) in sends.enumerated() {
            let earlier = sends[..<index]
            #expect(!earlier.contains { $0.0.signature == sent.signature && time - $0.1 <= .seconds(15) })
            let series = earlier.filter { $0.0.seriesKey == sent.seriesKey && time - $0.1 <= .seconds(2) }
            #expect(series.reduce(sent.weight) { $0 + $1.0.weight } <= 5)
            let global = earlier.filter { time - $0.1 <= .seconds(600) }
            #expect(global.reduce(sent.weight) { $0 + $1.0.weight } <= 60)
        }
    }
}
