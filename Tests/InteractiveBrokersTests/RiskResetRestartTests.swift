import Foundation
import Storage
import Testing
import TraderKit
import TradingEngine
import TradingModel
import JournalModel
import LiveSession

@testable import InteractiveBrokers

/// End to end: the halt a run persisted stays across a restart until `ibtrader risk reset` clears it.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct RiskResetRestartTests {
    @Test("without a reset the drawdown and daily-loss halts survive a restart; after one they are gone and the baselines start at the restored equity")
    func haltStaysUntilReset() async throws {
        try await RestartRiskStateTests.withJournal { journal in
            let account = RestartRiskStateTests.account
            let key = RestartRiskStateTests.key(capital: Money(100_000))
            let day = RestartRiskStateTests.today()
            let seeded = Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay)
            // A run lost 10.5 % from its peak today and halted: equity (the cash, flat) 98 400, peak 110 000.
            try journal.recordCashCheckpoint(
                JournalCashCheckpoint(time: seeded, account: account, run: 7, cash: Money(98_400), fillCheckpoint: 0),
                runKey: key)
            try journal.recordRiskState(
                JournalRiskState(
                    time: seeded, account: account, runKey: key, run: 7, day: day, dayStartEquity: Money(100_500),
                    peakEquity: Money(110_000), dailyLossBreached: true, drawdownHalted: true))

            try await RestartRiskStateTests.run(journal: journal, capital: Money(100_000))
            let kept = try #require(try journal.latestRiskState(account: account, runKey: key))
            #expect(kept.run != 7 && kept.run != nil, "journaled by the restarted run")
            #expect(kept.drawdownHalted && kept.dailyLossBreached && kept.peakEquity == Money(110_000))

            _ = try RiskStateTool.reset(
                RiskStateTool.Selection(journal: journal.path), request: RiskResetRequest(halts: Set(RiskHalt.allCases)),
                confirm: nil)
            try await RestartRiskStateTests.run(journal: journal, capital: Money(100_000))
            let cleared = try #require(try journal.latestRiskState(account: account, runKey: key))
            #expect(cleared.run != nil && cleared.run != kept.run, "journaled by the run after the reset")
            #expect(!cleared.drawdownHalted && !cleared.dailyLossBreached)
            #expect(cleared.day == day && cleared.dayStartEquity == Money(98_400) && cleared.peakEquity == Money(98_400))
            let events = try journal.events(kind: .reconciliation).map(\.message)
            #expect(
                events.contains {
                    $0.hasPrefix("risk baseline restored from `ibtrader risk reset` (day start re-based by the reset")
                }, "\(events)")
        }
    }
}
