import Foundation
import JournalModel
import Storage
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession
@testable import TraderCLI
import TraderKit

/// `ibtrader risk status|reset`: the pure reset, the journal queries, the command's refusals, and a restart against
/// the simulator showing a persisted halt stays without a reset and is gone after one.
struct RiskResetTests {
    static let t0 = Timestamp(year: 2024, month: 3, day: 1, secondOfDay: 50_000)

    static func row(
        day: Int64 = t0.dayNumber, daily: Bool = false, drawdown: Bool = false, rapid: Bool = false,
        key: String = "K", account: String = "DU1", time: Timestamp = t0, run: Int64? = 4
    ) -> JournalRiskState {
        JournalRiskState(
            time: time, account: account, runKey: key, run: run, day: day, dayStartEquity: Money(100_500),
            peakEquity: Money(110_000), dailyLossBreached: daily, drawdownHalted: drawdown, rapidLossHalted: rapid)
    }

    // MARK: - Pure

    @Test func clearingTheDrawdownHaltReBasesTheHighWaterMarkOnly() throws {
        let now = Self.t0 + .seconds(60)
        let plan = try #require(
            RiskReset.plan(RiskResetRequest(halts: [.drawdown]), for: Self.row(daily: true, drawdown: true), at: now))
        #expect(!plan.after.drawdownHalted && plan.after.peakEquity == .zero)
        #expect(plan.after.dailyLossBreached && plan.after.day == Self.t0.dayNumber, "daily loss not asked for")
        #expect(plan.after.dayStartEquity == Money(100_500) && plan.after.run == nil && plan.after.time == now)
        #expect(plan.changes == ["drawdown halt cleared", "high-water mark 110000.00 re-based to the equity at the next start"])
        let text = RiskReset.eventText(plan, by: "ops@host")
        #expect(text.hasPrefix("risk reset by ops@host (ibtrader risk reset): account DU1, configuration K (state of run 4): drawdown halt cleared"))
    }

    @Test func clearingEveryHaltReBasesTheDayStartAndThePeak() throws {
        let plan = try #require(
            RiskReset.plan(
                RiskResetRequest(halts: Set(RiskHalt.allCases)), for: Self.row(daily: true, drawdown: true, rapid: true),
                at: Self.t0))
        #expect(!plan.after.dailyLossBreached && !plan.after.drawdownHalted && !plan.after.rapidLossHalted)
        #expect(RiskReset.dayIsRebased(plan.after) && RiskReset.peakIsRebased(plan.after))
        #expect(plan.changes.count == 4)
    }

    @Test func theHighWaterMarkAloneLeavesHaltsAndNothingSetIsNothingToReset() throws {
        let plan = try #require(
            RiskReset.plan(RiskResetRequest(halts: [], highWaterMark: true), for: Self.row(rapid: true), at: Self.t0))
        #expect(plan.after.rapidLossHalted && plan.after.peakEquity == .zero && plan.changes.count == 1)
        #expect(RiskReset.plan(RiskResetRequest(halts: Set(RiskHalt.allCases)), for: Self.row(), at: Self.t0) == nil)
        #expect(RiskReset.plan(RiskResetRequest(halts: [.dailyLoss]), for: Self.row(drawdown: true), at: Self.t0) == nil)
        #expect(RiskReset.plan(RiskResetRequest(halts: [], highWaterMark: true), for: plan.after, at: Self.t0) == nil)
    }

    @Test func aResetRowRestoresAtTheRestoredEquityAndDoesNotTripAgain() throws {
        var risk = RiskConfig()
        risk.maxDailyLossPercent = 2
        risk.maxDrawdownPercent = 10
        let halted = Self.row(daily: true, drawdown: true)
        let equity = Money(95_000)  // 13.6 % below the peak, 5.5 % below the day start
        let today = Self.t0 + .seconds(600)
        var kept = RiskMonitor(config: risk)
        kept.restore(RiskStateRestore.baseline(halted), equity: equity, at: today)
        #expect(kept.status.dailyLossBreached && kept.status.drawdownHalted)
        // Without the halt flags but with the old baselines, the limits trip again at once.
        var flagsOnly = halted
        (flagsOnly.dailyLossBreached, flagsOnly.drawdownHalted) = (false, false)
        var again = RiskMonitor(config: risk)
        again.restore(RiskStateRestore.baseline(flagsOnly), equity: equity, at: today)
        #expect(again.status.dailyLossBreached && again.status.drawdownHalted)
        let reset = try #require(RiskReset.plan(RiskResetRequest(halts: Set(RiskHalt.allCases)), for: halted, at: today))
        var monitor = RiskMonitor(config: risk)
        monitor.restore(RiskStateRestore.baseline(reset.after), equity: equity, at: today)
        #expect(!monitor.status.dailyLossBreached && !monitor.status.drawdownHalted)
        #expect(monitor.dayStartEquity == equity && monitor.peakEquity == equity)
    }

    @Test func aRunWithoutARecordedStopIsFound() {
        #expect(RiskReset.runningRun(lifecycle: []) == nil)
        #expect(RiskReset.runningRun(lifecycle: ["run 3 started: orderRefs IBT:R3:", "stopped: duration"]) == nil)
        #expect(RiskReset.runningRun(lifecycle: ["stopped: x", "run 4 started: orderRefs IBT:R4:"]) == 4)
        #expect(RiskReset.runningRun(lifecycle: ["run 4 started: orderRefs IBT:R4:", "risk reset by a"]) == 4)
        #expect(RiskReset.runningRun(lifecycle: ["run 4x started"]) == nil)
    }

    // MARK: - Journal and command

    static func withJournal(_ body: (String, OrderJournal) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("risk-reset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("j.sqlite").path
        try body(path, try OrderJournal(path: path, durability: .processCrashSafe))
    }

    @Test func tripsAreTheFirstRowOfTheCurrentStretch() throws {
        try Self.withJournal { _, journal in
            let t = { (k: Int64) in Self.t0 + .seconds(k) }
            try journal.recordRiskState(Self.row(drawdown: true, time: t(1), run: 1))
            try journal.recordRiskState(Self.row(time: t(2), run: 2))  // cleared
            try journal.recordRiskState(Self.row(drawdown: true, time: t(3), run: 2))
            try journal.recordRiskState(Self.row(daily: true, drawdown: true, time: t(4), run: 3))
            try journal.recordRiskState(Self.row(key: "L", time: t(5)))
            let trips = try journal.riskTrips(account: "DU1", runKey: "K")
            #expect(trips.drawdown == JournalRiskTrip(time: t(3), run: 2))
            #expect(trips.dailyLoss == JournalRiskTrip(time: t(4), run: 3) && trips.rapidLoss == nil)
            #expect(try journal.latestRiskStates().map(\.runKey) == ["K", "L"])
            #expect(try journal.riskTrips(account: "DU1", runKey: "L") == JournalRiskTrips())
        }
    }

    @Test func resetRefusesNothingSeveralAndUnconfirmedThenJournalsWhoAndWhat() throws {
        try Self.withJournal { path, journal in
            try journal.recordRiskState(Self.row(key: "K"))
            try journal.recordEvent(.lifecycle, "run 4 started: orderRefs IBT:R4:", at: Self.t0)
            let selection = RiskStateTool.Selection(journal: path)
            let all = RiskResetRequest(halts: Set(RiskHalt.allCases))
            #expect(throws: CLIError.self) { try RiskStateTool.reset(selection, request: all, confirm: nil) }
            do { _ = try RiskStateTool.reset(selection, request: all, confirm: nil) } catch {
                #expect("\(error)".hasPrefix("nothing to reset (asked: daily-loss, drawdown, rapid-loss)"))
            }
            try journal.recordRiskState(Self.row(drawdown: true, key: "K"))
            try journal.recordRiskState(Self.row(daily: true, key: "L"))
            #expect(throws: CLIError.self) { try RiskStateTool.reset(selection, request: all, confirm: nil) }
            var narrowed = selection
            narrowed.runKey = "K"
            var prompt = ""
            #expect(throws: CLIError.self) {
                try RiskStateTool.reset(narrowed, request: all, confirm: { prompt = $0; return false })
            }
            #expect(prompt.contains("drawdown halt cleared") && prompt.contains("warning: run 4 has no recorded stop"))
            #expect(try journal.latestRiskState(account: "DU1", runKey: "K")?.drawdownHalted == true, "unchanged")
            let output = try RiskStateTool.reset(narrowed, request: all, confirm: { _ in true })
            #expect(output.last?.hasPrefix("reset;") == true)
            let after = try #require(try journal.latestRiskState(account: "DU1", runKey: "K"))
            #expect(!after.drawdownHalted && after.peakEquity == .zero && after.run == nil)
            let event = try #require(try journal.events(kind: .lifecycle).last)
            #expect(event.message.contains("risk reset by ") && event.message.contains("configuration K"))
            #expect(try journal.latestRiskState(account: "DU1", runKey: "L")?.dailyLossBreached == true, "L untouched")
            try RiskStatusCommand.parse(["--journal", path]).run()
            try RiskStatusCommand.parse(["--journal", path, "--json", "--run-key", "K"]).run()
            #expect(throws: (any Error).self) { try RiskResetCommand.parse(["--journal", path, "--halt", "everything"]) }
            #expect(try RiskResetCommand.parse(["--journal", path]).request == all)
            #expect(try RiskResetCommand.parse(["--journal", path, "--high-water-mark"]).request.halts.isEmpty)
        }
    }

    @Test func statusShowsRebasedValuesAndTrips() {
        var state = Self.row(drawdown: true)
        let trips = JournalRiskTrips(drawdown: JournalRiskTrip(time: Self.t0, run: 4))
        var text = RiskStatusText.text(state, trips)
        #expect(text.contains("high-water mark:  110000.00"))
        #expect(text.contains("drawdown:         HALTED since 2024-03-01T13:53:20Z (run 4)"))
        #expect(text.contains("entries:          halted"))
        state.peakEquity = .zero
        state.day = RiskReset.rebasedDay
        text = RiskStatusText.text(state, trips)
        #expect(text.contains("high-water mark:  re-based") && text.contains("UTC day:          re-based"))
        let json = JSONLine.render(RiskStatusText.object(state, trips))
        #expect(json.contains("\"high_water_mark\":null") && json.contains("\"drawdown_run\":4"))
    }
}
