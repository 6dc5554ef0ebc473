import Backtest
import Foundation
import Simulation
import Testing
import TradingEngine
import TradingModel

/// Buys 2 of each instrument on its first bar and holds them.
struct BuyTwoOfEachOnce: Strategy {
    var bought: Set<Int> = []
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !bought.contains(id.index) else { return [] }
        bought.insert(id.index)
        return [.submit(.market(id, .buy, Quantity(2)))]
    }
}

/// The backtest's roll (`BacktestRunner.rollIfDue`) where its other tests do not go (issue 80's generated mutants):
/// the legs' slippage is paid unless the bot's legs' own prices are given, months known only from a later bar on, and
/// two continuous futures rolling on the same day, each carried by its own gap. Over `ContinuousFutureTests`'s
/// December and March ES bars (the roll on 2013-12-13) and a second product's made up alike.
@Suite struct BacktestRollEdgeTests {
    static let id = InstrumentID(index: 0)
    static func day(_ text: String) -> Timestamp { ContinuousFutureTests.day(text) }

    static func config(slippage: SlippageModel = .none) -> BacktestConfig {
        BacktestConfig(engine: EngineConfig(initialCash: Money(1_000_000)), simulation: SimulationConfig(slippage: slippage))
    }

    /// The rebase the bot's roll makes for `spliced`'s first roll of instrument `index`.
    static func rebase(_ spliced: ContinuousFuture, _ index: Int) throws -> HistoryRebase {
        let roll = try #require(spliced.rolls.first)
        return HistoryRebase(
            instrument: InstrumentID(index: index), gap: Price(units: roll.newPrice.units - roll.oldPrice.units),
            before: roll.time, after: roll.time - TimeSpan(nanoseconds: 1))
    }

    @Test func theLegsSlippageIsPaidUnlessTheBotsLegsPricesAreGiven() throws {
        // One tick on the buy leg, none on the sell leg: 0.25 × 2 contracts × 50 = 25.
        let slippage = SlippageModel.quotedSpread(basisPoints: 0, tick: Price("0.25")!)
        let adjusted = try ContinuousFuture.build(
            spec: ContinuousFutureTests.es, contracts: ContinuousFutureTests.contracts, rollDays: 5, adjustment: .backAdjusted)
        let data = MarketData(universe: Universe(symbols: ["ES continuous"]), series: [adjusted.bars])
        let paid = BacktestRunner.run(strategy: BuyTwoOfEachOnce(), data: data, config: Self.config(slippage: slippage))
        #expect(paid.rollCharges.map(\.quantity) == [Quantity(2)])
        #expect(paid.rollCharges.map(\.cost) == [Money(25)])

        // The bot's legs' own prices (`carry`) already crossed the spread: nothing more.
        let traded = try ContinuousFuture.build(
            spec: ContinuousFutureTests.es, contracts: ContinuousFutureTests.contracts, rollDays: 5, adjustment: .unadjusted)
        var config = Self.config(slippage: slippage)
        var rebase = try Self.rebase(traded, 0)
        rebase.carry = Price("-5.5")!
        config.historyRebases = [rebase]
        let carried = BacktestRunner.run(
            strategy: BuyTwoOfEachOnce(), data: MarketData(universe: Universe(symbols: ["ES continuous"]), series: [traded.bars]),
            config: config)
        #expect(carried.rollCharges.map(\.cost) == [.zero])
        // Without a carry the legs are the closes' gap, and their slippage is paid.
        config.historyRebases[0].carry = nil
        let closes = BacktestRunner.run(
            strategy: BuyTwoOfEachOnce(), data: MarketData(universe: Universe(symbols: ["ES continuous"]), series: [traded.bars]),
            config: config)
        #expect(closes.rollCharges.map(\.cost) == [Money(25)])
    }

    @Test func monthsKnownFromALaterBarOnRollNothingBeforeIt() throws {
        let spliced = try ContinuousFuture.build(
            spec: ContinuousFutureTests.es, contracts: ContinuousFutureTests.contracts, rollDays: 5, adjustment: .backAdjusted)
        #expect(spliced.bars.first?.timestamp == Self.day("2013-12-11"))
        var config = Self.config()
        // The splice's months from 12-12 on only: the first bar has none (no roll, no month), then December, then March.
        config.futuresMonths = [
            FuturesMonthStart(instrument: Self.id, time: Self.day("2013-12-12"), month: ContinuousFutureTests.december),
            FuturesMonthStart(instrument: Self.id, time: Self.day("2013-12-13"), month: ContinuousFutureTests.march),
        ]
        let data = MarketData(universe: Universe(symbols: ["ES continuous"]), series: [spliced.bars])
        let result = BacktestRunner.run(strategy: BuyTwoOfEachOnce(), data: data, config: config)
        #expect(result.rollCharges.map(\.time) == [Self.day("2013-12-13")])
        #expect(result.rollCharges.map(\.from) == [ContinuousFutureTests.december])
        #expect(result.rollCharges.map(\.to) == [ContinuousFutureTests.march])
    }

    @Test func twoProductsRollingTheSameDayAreEachCarriedByTheirOwnGap() throws {
        let es = try ContinuousFuture.build(
            spec: ContinuousFutureTests.es, contracts: ContinuousFutureTests.contracts, rollDays: 5, adjustment: .unadjusted)
        // NQ alike, its March 10 above December on 12-12 where ES's is 6 below.
        let bar = ContinuousFutureTests.bar
        let nqContracts: [(month: ContractMonth, bars: [Bar])] = [
            (ContinuousFutureTests.december,
             [bar("2013-12-11", 3000), bar("2013-12-12", 3010), bar("2013-12-13", 3020), bar("2013-12-16", 3030)]),
            (ContinuousFutureTests.march,
             [bar("2013-12-12", 3020), bar("2013-12-13", 3035), bar("2013-12-16", 3045), bar("2013-12-17", 3050)]),
        ]
        let nq = try ContinuousFuture.build(
            spec: try #require(FutureSpec.known["NQ"]), contracts: nqContracts, rollDays: 5, adjustment: .unadjusted)
        var config = Self.config()
        config.historyRebases = [try Self.rebase(es, 0), try Self.rebase(nq, 1)]
        #expect(config.historyRebases.map(\.gap) == [Price(-6), Price(10)])
        let data = MarketData(universe: Universe(symbols: ["ES continuous", "NQ continuous"]), series: [es.bars, nq.bars])
        let result = BacktestRunner.run(strategy: BuyTwoOfEachOnce(), data: data, config: config)
        // Each leg pair at its own March open, its December price that open less its own gap.
        #expect(result.rollCharges.map(\.symbol) == ["ES continuous", "NQ continuous"])
        #expect(result.rollCharges.map(\.legs) == [
            RollCharge.Legs(closedAt: Price(1021), openedAt: Price(1015)),
            RollCharge.Legs(closedAt: Price(3025), openedAt: Price(3035)),
        ])
    }
}
