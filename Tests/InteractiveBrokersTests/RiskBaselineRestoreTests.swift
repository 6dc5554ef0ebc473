import Storage
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 5: the daily-loss start, the drawdown high-water mark and tripped halts carry over a restart on the same
/// UTC day (`RiskMonitor.restore`, `EngineCore.restore(risk:at:)`), and reset the day on a new one. Pure.
struct RiskBaselineRestoreTests {
    /// Buys 10 AAPL on every bar: every order is an entry, so a halt shows as a denial.
    struct Buyer: Strategy {
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
            guard case .bar = event else { return [] }
            return [.submit(OrderRequest(instrument: aapl, side: .buy, quantity: Quantity(10)))]
        }
    }

    static let day = t0.dayNumber
    static func risk() -> RiskConfig {
        var risk = RiskConfig()
        risk.maxDailyLossPercent = 2
        risk.maxDrawdownPercent = 10
        return risk
    }

    /// An engine after a restart's warm-up: it saw the configured capital (flat) at `t0`, so its monitor believes
    /// the day started at 100 000; then the journal's cash (here 98 500) is restored.
    static func restarted(cash: Money = Money(98_500)) -> EngineCore<Buyer> {
        var engine = EngineCore(
            universe: testUniverse, strategy: Buyer(), config: EngineConfig(initialCash: Money(100_000), risk: risk()))
        _ = engine.handle(.killSwitch(engaged: true))
        _ = engine.handle(.bar(aapl, bar(at: t0, 100)))
        _ = engine.handle(.killSwitch(engaged: false))
        engine.restore(cash: cash, commissions: .zero, at: t0 + .seconds(10))
        return engine
    }

    static func bar(at time: Timestamp, _ close: Int) -> Bar {
        Bar(
            timestamp: time, open: Price(close), high: Price(close), low: Price(close), close: Price(close),
            volume: Quantity(1))
    }

    static func denials(_ engine: inout EngineCore<Buyer>, at time: Timestamp) -> [RiskRuleKind] {
        let before = engine.denials.count
        _ = engine.handle(.bar(aapl, bar(at: time, 100)))
        return engine.denials.dropFirst(before).map(\.denial.rule)
    }

    @Test("same day: the journaled day start (not the warm-up's capital) is the daily-loss baseline")
    func sameDayKeepsTheDayStart() {
        // The day started at 100 300 before the restart; 98 500 now is 1.79 % down: allowed …
        var engine = Self.restarted()
        let saved = RiskBaseline(day: Self.day, dayStartEquity: Money(100_300), peakEquity: Money(104_000))
        engine.restore(risk: saved, at: t0 + .seconds(10))
        #expect(engine.riskMonitor.dayStartEquity == Money(100_300))
        #expect(engine.riskMonitor.peakEquity == Money(104_000))
        #expect(Self.denials(&engine, at: t0 + .seconds(15)).isEmpty)
        // … and the next 0.3 % trips the limit against 100 300 (against a fresh start at 98 500 it would not).
        var fresh = Self.restarted(cash: Money(98_200))
        fresh.restore(risk: nil, at: t0 + .seconds(10))
        #expect(Self.denials(&fresh, at: t0 + .seconds(15)).isEmpty)
        var carried = Self.restarted(cash: Money(98_200))
        carried.restore(risk: saved, at: t0 + .seconds(10))
        #expect(carried.riskMonitor.status.dailyLossBreached)
        #expect(Self.denials(&carried, at: t0 + .seconds(15)) == [.maxDailyLoss])
    }

    @Test("a halt tripped before the restart is still tripped after it, even if equity recovered")
    func trippedHaltsCarryOver() {
        var engine = Self.restarted(cash: Money(100_000))
        engine.restore(
            risk: RiskBaseline(
                day: Self.day, dayStartEquity: Money(100_000), peakEquity: Money(100_000), dailyLossBreached: true),
            at: t0 + .seconds(10))
        #expect(Self.denials(&engine, at: t0 + .seconds(15)) == [.maxDailyLoss])
        var halted = Self.restarted(cash: Money(100_000))
        halted.restore(
            risk: RiskBaseline(
                day: Self.day - 3, dayStartEquity: Money(100_000), peakEquity: Money(105_000), drawdownHalted: true),
            at: t0 + .seconds(10))
        #expect(halted.riskMonitor.status.drawdownHalted)
        #expect(Self.denials(&halted, at: t0 + .seconds(15)) == [.maxDrawdown])
    }

    @Test("a new UTC day: the day starts at the restored equity and the daily-loss halt is clear; the peak stays")
    func newDayResetsTheDailyBaselineOnly() {
        var engine = Self.restarted()
        engine.restore(
            risk: RiskBaseline(
                day: Self.day - 1, dayStartEquity: Money(105_000), peakEquity: Money(108_000),
                dailyLossBreached: true),
            at: t0 + .seconds(10))
        #expect(engine.riskMonitor.dayStartEquity == Money(98_500))
        #expect(!engine.riskMonitor.status.dailyLossBreached)
        #expect(engine.riskMonitor.peakEquity == Money(108_000))
        #expect(!engine.riskMonitor.status.drawdownHalted, "98 500 is 8.8 % below 108 000: within 10 %")
        #expect(Self.denials(&engine, at: t0 + .seconds(15)).isEmpty)
        // The drawdown is judged against the carried peak: 97 000 is 10.2 % below 108 000.
        var deeper = Self.restarted(cash: Money(97_000))
        deeper.restore(
            risk: RiskBaseline(day: Self.day - 1, dayStartEquity: Money(105_000), peakEquity: Money(108_000)),
            at: t0 + .seconds(10))
        #expect(deeper.riskMonitor.status.drawdownHalted)
    }

    @Test("a fresh start replaces the warm-up's capital baseline by the restored equity and keeps the kill switch")
    func freshStartUsesTheRestoredEquity() {
        // The warm-up saw 100 000; the restored equity of 97 000 is 3 % below it, which must not trip daily loss.
        var monitor = RiskMonitor(config: Self.risk())
        monitor.observe(equity: Money(100_000), at: t0)
        monitor.observe(equity: Money(97_000), at: t0 + .seconds(1))
        #expect(monitor.status.dailyLossBreached, "the problem: the warm-up's capital as the day start")
        monitor.setKillSwitch(true)
        monitor.restore(nil, equity: Money(97_000), at: t0 + .seconds(2))
        #expect(!monitor.status.dailyLossBreached && !monitor.status.drawdownHalted)
        #expect(monitor.status.killSwitchEngaged)
        #expect(monitor.baseline == RiskBaseline(day: Self.day, dayStartEquity: Money(97_000), peakEquity: Money(97_000)))
    }

    @Test("journal rows round-trip; a halt change or a new day is journaled at once, the rest at the summary")
    func rowsAndRecordingRule() {
        let baseline = RiskBaseline(
            day: 20_000, dayStartEquity: Money(100_000), peakEquity: Money(101_000), drawdownHalted: true)
        let key = RunKey(strategy: "Buyer", symbols: ["AAPL"], capital: Money(100_000))
        let row = RiskStateRestore.row(baseline, account: "DU1", key: key, run: 4, at: t0)
        #expect(row.runKey == "Buyer|100000.00|AAPL" && row.run == 4)
        #expect(RiskStateRestore.baseline(row) == baseline)
        var higher = baseline
        higher.peakEquity = Money(102_000)
        #expect(!RiskStateRestore.mustRecord(higher, last: baseline, periodic: false))
        #expect(RiskStateRestore.mustRecord(higher, last: baseline, periodic: true))
        #expect(!RiskStateRestore.mustRecord(baseline, last: baseline, periodic: true))
        var tripped = higher
        tripped.dailyLossBreached = true
        #expect(RiskStateRestore.mustRecord(tripped, last: baseline, periodic: false))
        var nextDay = baseline
        nextDay.day += 1
        #expect(RiskStateRestore.mustRecord(nextDay, last: baseline, periodic: false))
        #expect(RiskStateRestore.mustRecord(baseline, last: nil, periodic: false))
        #expect(!RiskStateRestore.mustRecord(nil, last: baseline, periodic: true))
        #expect(RiskStateRestore.halts(tripped) == "daily loss (until the UTC day ends), drawdown")
        #expect(RiskStateRestore.halts(RiskBaseline(day: 1, dayStartEquity: .zero, peakEquity: .zero)) == nil)
    }
}
