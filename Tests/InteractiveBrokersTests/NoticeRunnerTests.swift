import Foundation
import GatewayCore
import GatewaySimulator
import SimulatedVenue
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// IB's "errors" that are not errors, sent by the simulator's `notice CODE [bars]` fault to a running bot: 2188 (a
/// market data entitlement notice) on the bar subscription itself and globally. The bars go on, nothing is
/// resubscribed, no feed is taken as dead, and the run ends as asked.
@Suite("Notices that are not errors, at the simulator (issue 44)", .timeLimit(.minutes(1)))
struct NoticeRunnerTests {
    @Test("2188 on the bar subscription and globally: the bars go on, no resubscription, the run ends as asked")
    func entitlementNoticeIsNoFailure() async throws {
        let log = SessionProbeLog()
        let noticeAt = ExtendedHoursRunnerTests.ny(9, 42)
        let summary = try await ExtendedHoursRunnerTests.probeRun(
            data: ExtendedHoursRunnerTests.data, start: ExtendedHoursRunnerTests.ny(9, 40), clientID: 47,
            probe: SessionProbe(log: log, from: ExtendedHoursRunnerTests.ny(23, 0), limit: false)
        ) { venue in
            var sent = false
            while await venue.now() < ExtendedHoursRunnerTests.ny(9, 46) {
                if !sent, await venue.now() >= noticeAt {
                    await venue.apply(.notice(code: 2188, onBars: true))
                    await venue.apply(.notice(code: 2188, onBars: false))
                    sent = true
                }
                await venue.advance(by: .seconds(5))
                try await venue.sleep(for: .seconds(5))
            }
        }
        #expect(summary.stopReason.contains("test done"), "\(summary.stopReason)")
        #expect(summary.resubscriptions == 0 && summary.deadFeeds == 0 && summary.reconnects == 0)
        // Minute bars kept coming after the notices.
        #expect(log.bars.filter { $0 >= noticeAt }.count >= 3, "\(log.bars)")
    }

    @Test("the fault's words: notice CODE, notice CODE bars; anything else is refused")
    func parsing() {
        #expect(FaultCommand.parse("notice 2188") == .notice(code: 2188, onBars: false))
        #expect(FaultCommand.parse("notice 2188 bars") == .notice(code: 2188, onBars: true))
        for line in ["notice", "notice x", "notice 2188 quotes", "notice 21.5", "notice 99", "notice 2188 bars x"] {
            #expect(FaultCommand.parse(line) == nil, "\(line)")
        }
    }
}
