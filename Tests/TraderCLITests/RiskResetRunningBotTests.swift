import Foundation
import Storage
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession
@testable import TraderCLI
import TraderKit

/// `ibtrader risk reset` refuses while a bot holds the journal (its lock file's `flock`), unless --force; `risk
/// status` says whether one runs.
struct RiskResetRunningBotTests {
    @Test func resetRefusesWhileABotHoldsTheJournalUnlessForced() throws {
        try RiskResetTests.withJournal { path, journal in
            try journal.recordRiskState(RiskResetTests.row(drawdown: true, key: "K"))
            let all = RiskResetRequest(halts: Set(RiskHalt.allCases))
            // The bot: a journal with manual checkpoints takes the lock (a second open file description in this
            // process conflicts with the probe's, as another process's would).
            var bot: OrderJournal? = try OrderJournal(path: path, durability: .processCrashSafe, checkpoints: .manual)
            #expect(bot?.holdsLock == true)
            let holder = try RiskStateTool.holder(path)
            guard case .held = holder else {
                Issue.record("the bot's lock was not seen: \(holder)")
                return
            }
            #expect(RiskStateTool.runningText(holder, journal: path).hasPrefix("a bot is running on \(path) (pid "))
            let selection = RiskStateTool.Selection(journal: path)
            do {
                _ = try RiskStateTool.reset(selection, request: all, confirm: nil)
                Issue.record("reset while a bot runs")
            } catch {
                #expect("\(error)".contains("a bot is running on") && "\(error)".contains("stop it first"))
            }
            #expect(try journal.latestRiskState(account: "DU1", runKey: "K")?.drawdownHalted == true, "unchanged")
            // --force resets, with a warning in what it prints.
            var forced = selection
            forced.force = true
            let output = try RiskStateTool.reset(forced, request: all, confirm: nil)
            #expect(output.contains { $0.hasPrefix("warning: a bot is running on") })
            #expect(try journal.latestRiskState(account: "DU1", runKey: "K")?.drawdownHalted == false)
            #expect(try RiskResetCommand.parse(["--journal", path, "--force"]).force)
            // The bot stops: the lock is free, and a reset goes through without --force.
            try bot?.close()
            bot = nil
            #expect(try RiskStateTool.holder(path) == .none)
            try journal.recordRiskState(RiskResetTests.row(drawdown: true, key: "K"))
            let plain = try RiskStateTool.reset(selection, request: all, confirm: nil)
            #expect(!plain.contains { $0.contains("a bot is running") })
            #expect(RiskStateTool.runningText(.none, journal: path) == "no bot is running on \(path)")
        }
    }
}
