import JournalModel
import Storage
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 5: which configuration a journal's cash and risk rows belong to (`RunKey`), and today's order-efficiency
/// counts rebuilt at a restart (`OrderEfficiencyRestore`, `OrderEfficiencyGuard.restore`). Pure.
struct RunKeyAndEfficiencyRestoreTests {
    @Test("the key is strategy, capital and universe; the execution-style wrapper and parameters do not count")
    func runKey() {
        let plain = RunKey(strategyType: MomentumRotation.self, symbols: ["AAPL", "MSFT"], capital: Money(100_000))
        let wrapped = RunKey(
            strategyType: ExecutionStyled<MomentumRotation>.self, symbols: ["AAPL", "MSFT"], capital: Money(100_000))
        #expect(plain.fingerprint == "MomentumRotation|100000.00|AAPL,MSFT")
        #expect(wrapped == plain)
        #expect(RunKey.strategyName("OrderTimeoutDefault<X>") == "X" && RunKey.strategyName("Y<Z>") == "Y<Z>")
        #expect(RunKey.strategyName("ExecutionStyled<X>") == "X")
        let capital = RunKey(strategy: "MomentumRotation", symbols: ["AAPL", "MSFT"], capital: Money(50_000))
        let universe = RunKey(strategy: "MomentumRotation", symbols: ["MSFT", "AAPL"], capital: Money(100_000))
        let strategy = RunKey(strategyType: MovingAverageCrossover.self, symbols: ["AAPL", "MSFT"], capital: Money(100_000))
        #expect(Set([plain, capital, universe, strategy].map(\.fingerprint)).count == 4)
        // A long universe is a count and a stable hash (FNV-1a 64 of "S0,S1,…").
        let many = RunKey(strategy: "M", symbols: (0..<40).map { Symbol("S\($0)") }, capital: Money(1))
        let other = RunKey(strategy: "M", symbols: (1..<41).map { Symbol("S\($0)") }, capital: Money(1))
        #expect(many.fingerprint.hasPrefix("M|1.00|40 symbols #") && many.fingerprint.count < 64)
        #expect(many.fingerprint != other.fingerprint)
        #expect(RunKey.fnv1a("") == "cbf29ce484222325" && RunKey.fnv1a("a") == "af63dc4c8601ec8c")
    }

    @Test("counts: the larger of the journal's rows and the saved counts of the same day; modifies only saved")
    func mergeCounts() {
        let activity = JournalOrderActivity(submitted: 12, cancelled: 2, executed: 3)
        let saved = JournalOrderEfficiency(
            time: t0, account: "DU1", day: 100, submitted: 10, modified: 4, cancelled: 5, executed: 1)
        let merged = OrderEfficiencyRestore.merge(activity: activity, saved: saved, day: 100)
        #expect(merged == (submitted: 12, modified: 4, cancelled: 5, executed: 3))
        let stale = OrderEfficiencyRestore.merge(activity: activity, saved: saved, day: 101)
        #expect(stale == (submitted: 12, modified: 0, cancelled: 2, executed: 3))
        #expect(OrderEfficiencyRestore.merge(activity: JournalOrderActivity(), saved: nil, day: 1) == (0, 0, 0, 0))
    }

    @Test("a restored guard judges the next entry against today's counts, and a new day starts from zero")
    func restoredGuardDenies() {
        var guardian = OrderEfficiencyGuard(limit: OrderEfficiencyLimit(maxRatio: 10, minimumOrders: 20))
        #expect(guardian.denial(at: t0) == nil, "a fresh guard allows")
        guardian.restore(day: t0.dayNumber, submitted: 25, modified: 3, cancelled: 2, executed: 3)
        #expect(guardian.orderActions == 30 && guardian.executed == 3)
        // (30 + 1) / 3 = 10.3 > 10: denied; the next day's first entry is not.
        #expect(guardian.denial(at: t0)?.contains("10.3 would exceed 10.0") == true)
        #expect(guardian.denial(at: t0 + .seconds(86_400)) == nil)
        guardian.recordExecution(of: OrderID(1), at: t0)
        #expect(guardian.executed == 4 && guardian.denial(at: t0) == nil, "(30 + 1) / 4 = 7.75")
    }
}
