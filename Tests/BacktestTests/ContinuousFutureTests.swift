import Backtest
import Foundation
import Simulation
import Testing
import TradingEngine
import TradingModel

/// Splicing contract months into a continuous series, and a backtest that holds it across a roll: the gap is
/// taken out of the history, and the roll's two legs are paid.
@Suite struct ContinuousFutureTests {
    static let es = FutureSpec.known["ES"]!
    static let december = ContractMonth(year: 2013, month: 12)!, march = ContractMonth(year: 2014, month: 3)!

    static func day(_ text: String) -> Timestamp {
        let p = text.split(separator: "-").compactMap { Int($0) }
        return Timestamp(year: p[0], month: p[1], day: p[2])
    }

    static func bar(_ date: String, _ close: Int) -> Bar {
        let price = Price(close)
        return Bar(timestamp: day(date), open: price, high: price, low: price, close: price, volume: Quantity(1))
    }

    /// ESZ2013's last trading day is Friday 2013-12-20; 5 business days before it is Friday 2013-12-13, the first day
    /// in ESH2014. The gap is measured on 12-12, the last day both traded.
    static let contracts: [(month: ContractMonth, bars: [Bar])] = [
        (december, [bar("2013-12-11", 1000), bar("2013-12-12", 1010), bar("2013-12-13", 1020), bar("2013-12-16", 1030)]),
        (march, [bar("2013-12-12", 1004), bar("2013-12-13", 1015), bar("2013-12-16", 1025), bar("2013-12-17", 1030)]),
    ]

    @Test func theRollDayFollowsTheRule() {
        #expect(Self.es.rollDay(of: Self.december, days: 5) == Self.day("2013-12-13").dayNumber)
        #expect(Self.es.frontMonth(onDay: Self.day("2013-12-12").dayNumber, rollDays: 5) == Self.december)
        #expect(Self.es.frontMonth(onDay: Self.day("2013-12-13").dayNumber, rollDays: 5) == Self.march)
        #expect(Self.es.frontMonth(onDay: Self.day("2013-10-01").dayNumber, rollDays: 5) == Self.december)
        // Gold rolls through its liquid months only: in January the front is February, in March it is April.
        let gold = FutureSpec.known["GC"]!
        #expect(gold.frontMonth(onDay: Self.day("2014-01-06").dayNumber, rollDays: 5) == ContractMonth(year: 2014, month: 2))
        #expect(gold.frontMonth(onDay: Self.day("2014-03-03").dayNumber, rollDays: 5) == ContractMonth(year: 2014, month: 4))
    }

    @Test func backAdjustingTakesTheGapOutOfTheHistory() throws {
        let spliced = try ContinuousFuture.build(spec: Self.es, contracts: Self.contracts, rollDays: 5, adjustment: .backAdjusted)
        // Gap 1004 − 1010 = −6: December's bars move down 6; March's are as traded.
        #expect(spliced.bars.map(\.close) == [994, 1004, 1015, 1025, 1030].map { Price($0) })
        #expect(spliced.months == [Self.december, Self.december, Self.march, Self.march, Self.march])
        let roll = try #require(spliced.rolls.first)
        #expect(spliced.rolls.count == 1)
        #expect((roll.time, roll.from, roll.to, roll.priceTime) == (Self.day("2013-12-13"), Self.december, Self.march, Self.day("2013-12-12")))
        #expect((roll.oldPrice, roll.newPrice) == (Price(1010), Price(1004)))
    }

    @Test func unadjustedKeepsTheGap() throws {
        let spliced = try ContinuousFuture.build(spec: Self.es, contracts: Self.contracts, rollDays: 5, adjustment: .unadjusted)
        #expect(spliced.bars.map(\.close) == [1000, 1010, 1015, 1025, 1030].map { Price($0) })
    }

    @Test func aRollWithoutACommonBarOrAPriceBelowZeroIsAnError() {
        let apart: [(month: ContractMonth, bars: [Bar])] = [
            (Self.december, [Self.bar("2013-12-11", 1000)]), (Self.march, [Self.bar("2013-12-16", 1025)]),
        ]
        #expect(throws: ContinuousFutureError.noCommonBar(from: Self.december, to: Self.march)) {
            try ContinuousFuture.build(spec: Self.es, contracts: apart, rollDays: 5, adjustment: .backAdjusted)
        }
        let crash: [(month: ContractMonth, bars: [Bar])] = [
            (Self.december, [Self.bar("2013-12-11", 5), Self.bar("2013-12-12", 10)]),
            (Self.march, [Self.bar("2013-12-12", 2), Self.bar("2013-12-13", 3)]),
        ]
        #expect(throws: ContinuousFutureError.self) {
            try ContinuousFuture.build(spec: Self.es, contracts: crash, rollDays: 5, adjustment: .backAdjusted)
        }
    }

    /// The bundled ESZ2013 and ESH2014 (QuantConnect/Lean): the roll on 2013-12-13, the day ESH2014's volume passed
    /// ESZ2013's in the data, with the gap of the 12-12 closes (1767.50 − 1773.75).
    @Test func theBundledContractsSplice() throws {
        let folder = FuturesAndForexBacktestTests.bundled.appendingPathComponent("futures")
        let contracts = try [Self.december, Self.march].map { month in
            let file = folder.appendingPathComponent("ES\(month.code)\(month.year)_1d.csv").path
            return (month: month, bars: try MarketData.load(files: [("X", file)]).series[0])
        }
        let spliced = try ContinuousFuture.build(spec: Self.es, contracts: contracts, rollDays: 5, adjustment: .backAdjusted)
        let roll = try #require(spliced.rolls.first)
        #expect(spliced.rolls.count == 1)
        #expect(roll.time == Self.day("2013-12-13"))
        #expect((roll.oldPrice, roll.newPrice) == (Price("1773.75")!, Price("1767.5")!))
        let after = contracts[1].bars.filter { $0.timestamp >= roll.time }
        #expect(Array(spliced.bars.suffix(after.count)) == after)
        let before = contracts[0].bars.filter { $0.timestamp < roll.time }
        #expect(spliced.bars.prefix(before.count).map(\.close) == before.map { Price(units: $0.close.units - 625_000_000) })
    }

    /// `ES continuous` held across its roll: the position pays both legs (2 × 2.25 a contract) at the roll, and its P&L
    /// on the back-adjusted bars is, computed apart from the fills, the final equity.
    @Test func aHeldPositionPaysItsRoll() throws {
        let folder = FuturesAndForexBacktestTests.bundled.appendingPathComponent("futures")
        let contracts = try [Self.december, Self.march].map { month in
            (month: month, bars: try MarketData.load(
                files: [("X", folder.appendingPathComponent("ES\(month.code)\(month.year)_1d.csv").path)]).series[0])
        }
        let spliced = try ContinuousFuture.build(spec: Self.es, contracts: contracts, rollDays: 5, adjustment: .backAdjusted)
        let data = MarketData(universe: Universe(symbols: ["ES continuous"]), series: [spliced.bars])
        let strategy = MovingAverageCrossover(config: MovingAverageCrossoverConfig(
            fastPeriod: 3, slowPeriod: 10, allowShort: true, sizing: .fixedQuantity(Quantity(2))))
        let config = BacktestConfig(
            engine: EngineConfig(initialCash: Money(1_000_000)), simulation: SimulationConfig(commission: .ibkrFixedDefault))
        let result = BacktestRunner.run(strategy: strategy, data: data, config: config)
        // The position the fills leave at the roll's bar, computed from the fills.
        let rollTime = spliced.rolls[0].time
        let held = result.fills.filter { $0.timestamp < rollTime }.reduce(Int64(0)) { $0 + $1.signedQuantity.wholeUnits }
        if held == 0 {
            #expect(result.rollCharges.isEmpty)
        } else {
            #expect(result.rollCharges.count == 1)
            #expect(result.rollCharges.first?.quantity == Quantity(held))
            #expect(result.rollCharges.first?.cost == Money("4.5")!.times(Int64(held.magnitude)))  // 2 legs × 2.25 a contract
        }
        #expect(held != 0, "the sample holds a position on 2013-12-13 (else the roll is not exercised)")
        let last = Double(spliced.bars.last!.close.doubleValue)
        var expected = 1_000_000.0
        for fill in result.fills {
            expected += (last - fill.price.doubleValue) * fill.signedQuantity.doubleValue * 50 - fill.commission.doubleValue
        }
        expected -= result.rollCharges.reduce(0) { $0 + $1.cost.doubleValue }
        #expect(abs(result.finalEquity.doubleValue - expected) < 0.01 * Double(result.fills.count + 1))
        #expect(result.commissions.doubleValue == result.fills.reduce(0) { $0 + $1.commission.doubleValue }
            + result.rollCharges.reduce(0) { $0 + $1.cost.doubleValue })
    }

    /// As traded (`unadjusted`) with the rolls as the bot makes them (the strategy's history moved, the position
    /// carried at the gap): the same decisions as on back-adjusted prices (a moving-average crossover is blind to a
    /// constant), orders at the prices traded, and the same money. Without the moves the roll's gap is a loss on paper
    /// and a signal.
    @Test func asTradedWithTheBotsRollsTheBacktestIsTheBackAdjustedOnesWithRealPrices() throws {
        let folder = FuturesAndForexBacktestTests.bundled.appendingPathComponent("futures")
        let contracts = try [Self.december, Self.march].map { month in
            (month: month, bars: try MarketData.load(
                files: [("X", folder.appendingPathComponent("ES\(month.code)\(month.year)_1d.csv").path)]).series[0])
        }
        let strategy = MovingAverageCrossover(config: MovingAverageCrossoverConfig(
            fastPeriod: 3, slowPeriod: 10, allowShort: true, sizing: .fixedQuantity(Quantity(2))))
        func run(_ adjustment: ContinuousFuture.Adjustment, moved: Bool) throws -> BacktestResult {
            let spliced = try ContinuousFuture.build(spec: Self.es, contracts: contracts, rollDays: 5, adjustment: adjustment)
            var config = BacktestConfig(
                engine: EngineConfig(initialCash: Money(1_000_000)), simulation: SimulationConfig(commission: .ibkrFixedDefault))
            if moved {
                config.historyRebases = spliced.rolls.map {
                    HistoryRebase(
                        instrument: InstrumentID(index: 0), gap: Price(units: $0.newPrice.units - $0.oldPrice.units),
                        before: $0.time, after: $0.time - TimeSpan(nanoseconds: 1))
                }
            }
            let data = MarketData(universe: Universe(symbols: ["ES continuous"]), series: [spliced.bars])
            return BacktestRunner.run(strategy: strategy, data: data, config: config)
        }
        func decisions(_ result: BacktestResult) -> [String] {
            result.orders.map { "\($0.createdAt) \($0.side.rawValue) \($0.quantity) \($0.state)" }
        }
        let adjusted = try run(.backAdjusted, moved: false)
        let traded = try run(.unadjusted, moved: true)
        #expect(decisions(traded) == decisions(adjusted))
        #expect(traded.finalEquity == adjusted.finalEquity)
        // The same charges; over prices as traded the roll also says where the trade left December and entered March.
        #expect(traded.rollCharges.map { RollCharge(symbol: $0.symbol, time: $0.time, from: $0.from, to: $0.to, quantity: $0.quantity, cost: $0.cost) }
            == adjusted.rollCharges)
        #expect(traded.rollCharges.allSatisfy { $0.legs != nil } && adjusted.rollCharges.allSatisfy { $0.legs == nil })
        // Fills before the roll at December's prices, 6.25 above the back-adjusted ones; after it, the same.
        let roll = Self.day("2013-12-13")
        for (a, t) in zip(adjusted.fills, traded.fills) {
            #expect(t.price.units - a.price.units == (t.timestamp < roll ? 625_000_000 : 0), "\(a) \(t)")
        }
        let unmoved = try run(.unadjusted, moved: false)
        #expect(unmoved.finalEquity != adjusted.finalEquity)
    }

    /// By volume: March traded more than December first on 2013-12-13 (868,208 against 347,764 contracts), known at
    /// that day's close, so the position moves on the next trading day, 2013-12-16; with the days rule at 2 days that
    /// is earlier than its 2013-12-18, at 5 days (2013-12-13) the days rule comes first. A backtest rolls where the
    /// series was spliced.
    @Test func byVolumeTheRollIsTheDayAfterTheNextMonthTradedMore() throws {
        let folder = FuturesAndForexBacktestTests.bundled.appendingPathComponent("futures")
        let contracts = try [Self.december, Self.march].map { month in
            (month: month, bars: try MarketData.load(
                files: [("X", folder.appendingPathComponent("ES\(month.code)\(month.year)_1d.csv").path)]).series[0])
        }
        func rollDay(_ rollDays: Int, byVolume: Bool) throws -> Timestamp? {
            try ContinuousFuture.build(
                spec: Self.es, contracts: contracts, rollDays: rollDays, adjustment: .backAdjusted, byVolume: byVolume
            ).rolls.first?.time
        }
        #expect(try rollDay(2, byVolume: false) == Self.day("2013-12-18"))
        #expect(try rollDay(2, byVolume: true) == Self.day("2013-12-16"))
        #expect(try rollDay(5, byVolume: true) == Self.day("2013-12-13"))
        // The volumes, from the files: the first day March traded more.
        let volume = { (k: Int, day: String) in contracts[k].bars.first { $0.timestamp == Self.day(day) }!.volume }
        #expect(volume(1, "2013-12-12") < volume(0, "2013-12-12"))
        #expect(volume(1, "2013-12-13") > volume(0, "2013-12-13"))

        let spliced = try ContinuousFuture.build(
            spec: Self.es, contracts: contracts, rollDays: 2, adjustment: .backAdjusted, byVolume: true)
        let id = InstrumentID(index: 0)
        var config = BacktestConfig(engine: EngineConfig(initialCash: Money(1_000_000), futuresRollDays: 2))
        config.futuresMonths = FuturesMonthStart.of(spliced, instrument: id)
        #expect(config.futuresMonths.map(\.time) == [spliced.bars[0].timestamp, Self.day("2013-12-16")])
        let strategy = MovingAverageCrossover(config: MovingAverageCrossoverConfig(
            fastPeriod: 3, slowPeriod: 10, allowShort: true, sizing: .fixedQuantity(Quantity(2))))
        let data = MarketData(universe: Universe(symbols: ["ES continuous"]), series: [spliced.bars])
        let result = BacktestRunner.run(strategy: strategy, data: data, config: config)
        #expect(result.rollCharges.map(\.time) == [Self.day("2013-12-16")], "\(result.rollCharges)")
        // Without the splice's months the backtest would roll by its days rule, two days later.
        config.futuresMonths = []
        #expect(BacktestRunner.run(strategy: strategy, data: data, config: config).rollCharges.map(\.time) == [Self.day("2013-12-18")])
    }

    /// The drift report's backtest makes the bot's roll: the position and its working stop move by the bot's legs'
    /// difference (`HistoryRebase.carry`, −5.5 where the closes said −6.25), and the roll costs the legs'
    /// commissions only (their prices crossed the spread). Every figure worked by hand.
    @Test func carriedAtTheLegsGapThePositionAndItsStopMoveByIt() throws {
        struct BuyWithStop: Strategy {
            var done = false
            mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
                guard case .bar(let id, let bar) = event, !done else { return [] }
                done = true
                return [.submitBracket(BracketOrder(
                    entry: .market(id, .buy, Quantity(2)), stopLoss: Price(units: bar.close.units - Price(100).units),
                    takeProfit: nil))]
            }
        }
        let folder = FuturesAndForexBacktestTests.bundled.appendingPathComponent("futures")
        let contracts = try [Self.december, Self.march].map { month in
            (month: month, bars: try MarketData.load(
                files: [("X", folder.appendingPathComponent("ES\(month.code)\(month.year)_1d.csv").path)]).series[0])
        }
        let spliced = try ContinuousFuture.build(spec: Self.es, contracts: contracts, rollDays: 5, adjustment: .unadjusted)
        let roll = spliced.rolls[0]
        var config = BacktestConfig(
            engine: EngineConfig(initialCash: Money(1_000_000)), simulation: SimulationConfig(commission: .ibkrFixedDefault))
        var rebase = HistoryRebase(
            instrument: InstrumentID(index: 0), gap: Price(units: roll.newPrice.units - roll.oldPrice.units), before: roll.time,
            after: roll.time - TimeSpan(nanoseconds: 1))
        rebase.carry = Price("-5.5")!
        config.historyRebases = [rebase]
        let bars = spliced.bars.filter { $0.timestamp >= Self.day("2013-12-02") }
        let data = MarketData(universe: Universe(symbols: ["ES continuous"]), series: [bars])
        let result = BacktestRunner.run(strategy: BuyWithStop(), data: data, config: config)
        let entry = try #require(result.fills.first)
        let stop = try #require(result.orders.first { $0.type.description.hasPrefix("STP") })
        #expect(stop.type == .stop(Price(units: bars[0].close.units - Price(100).units - Price("5.5")!.units)), "\(stop)")
        #expect(result.rollCharges.map(\.cost) == [Money("9")!], "2 legs × 2 contracts × 2.25")
        #expect(result.fills.count == 1, "the stop did not fill: \(result.fills)")
        // Held 2 from the entry's fill, carried 5.5 lower, marked at March's last close.
        let last = bars.last!.close.doubleValue
        let expected = 1_000_000 + (last - (entry.price.doubleValue - 5.5)) * 2 * 50 - entry.commission.doubleValue - 9
        #expect(abs(result.finalEquity.doubleValue - expected) < 0.005, "\(result.finalEquity) against \(expected)")
    }
}
