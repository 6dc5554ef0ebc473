import Backtest
import Simulation
import Testing
import TradingEngine
import TradingModel

/// Issue 80: buying power is checked when an order fills, not only when it is sized. In an unlevered run a fill cash
/// cannot pay is cut to the whole shares cash pays (or refused), the order ends with the reason, and no step of the
/// run shows cash below 0 or gross exposure above 1 × equity, whatever the strategy, size, gaps, holidays, partial
/// fills and commission schedule.
@Suite("buying power at the fill")
struct BuyingPowerAtFillTests {
    /// An unlevered run as the CLI composes one: gross exposure sized up to 1 − buffer, cash pays every fill.
    static func unlevered(buffer: Double = 0.25, simulation: SimulationConfig = SimulationConfig()) -> BacktestConfig {
        var config = BacktestConfig(simulation: simulation)
        config.engine.risk = RiskProfile(configured: RiskConfig(), spec: nil, cashBufferPercent: buffer).config
        config.simulation.buyingPower = .cash
        return config
    }

    /// Cash below zero or gross exposure above equity at any step (more than a cent of rounding): the first, described.
    static func firstBreach(_ result: BacktestResult) -> String? {
        for point in result.equityCurve {
            if point.cash.units < -FixedPoint.scale / 100 || point.grossExposure.units > point.equity.units + FixedPoint.scale / 100 {
                return "at \(point.time): cash \(point.cash), gross \(point.grossExposure), equity \(point.equity)"
            }
        }
        return nil
    }

    static let day = Timestamp.nanosecondsPerDay

    static func bar(_ day: Int64, _ open: String, _ close: String) -> Bar {
        Bar(
            timestamp: Timestamp(nanoseconds: day * Self.day), open: Price(open)!, high: max(Price(open)!, Price(close)!),
            low: min(Price(open)!, Price(close)!), close: Price(close)!, volume: Quantity(1_000_000))
    }

    /// Buys `quantity` at market on bar `at` (the next bar's open fills it).
    struct BuyOnce: Strategy {
        var quantity: Quantity
        var at: Int
        var seen = 0
        var bracketStop: Price?
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
            guard case .bar = event else { return [] }
            seen += 1
            guard seen == at else { return [] }
            let request = OrderRequest(instrument: InstrumentID(0), side: .buy, quantity: quantity, type: .market)
            if let bracketStop { return [.submitBracket(BracketOrder(entry: request, stopLoss: bracketStop, takeProfit: nil))] }
            return [.submit(request)]
        }
    }

    @Test("a buy that gaps above what cash pays is cut to the shares cash pays, with the reason")
    func gapIsCut() throws {
        // 10,000 cash; 99 shares sized at 100 (0.25 % buffer room); the next open is 102: 99 × 102 = 10,098.
        let bars = [Self.bar(1, "100", "100"), Self.bar(2, "102", "102"), Self.bar(3, "102", "102")]
        var config = Self.unlevered(simulation: SimulationConfig(commission: .ibkrFixedDefault))
        config.engine.initialCash = Money(10_000)
        let result = BacktestRunner.run(strategy: BuyOnce(quantity: Quantity(99), at: 1), bars: bars, config: config)
        let order = try #require(result.orders.first)
        // 97 × 102 = 9,894 + $1.00 = 9,895 ≤ 10,000; 98 × 102 = 9,996 + $1.00 = 9,997 ≤ 10,000, 99 is 10,099.
        #expect(order.filledQuantity == Quantity(98))
        #expect(order.state == .canceled)
        #expect(order.reason?.hasPrefix("insufficient buying power: cut to 98 of 99 shares at 102") == true, "\(order.reason ?? "")")
        #expect(result.fundsCuts.count == 1 && result.fundsCuts[0].filled == Quantity(98))
        #expect(Self.firstBreach(result) == nil)
        #expect(result.equityCurve.last!.cash == Money(3))
    }

    @Test("a buy cash cannot pay a share of is refused; its bracket children go with it")
    func nothingPaidIsRefused() throws {
        let bars = [Self.bar(1, "100", "100"), Self.bar(2, "120", "120"), Self.bar(3, "120", "120")]
        var config = Self.unlevered()
        config.engine.initialCash = Money(100)
        config.engine.risk.maxGrossExposureRatio = nil  // sized by hand: the fill alone decides
        let result = BacktestRunner.run(
            strategy: BuyOnce(quantity: Quantity(1), at: 1, bracketStop: Price("90")), bars: bars, config: config)
        #expect(result.fills.isEmpty)
        #expect(result.fundsCuts.count == 1 && result.fundsCuts[0].filled.isZero)
        let parent = try #require(result.orders.first)
        #expect(parent.state == .canceled && parent.reason?.contains("refused at 120") == true, "\(parent.reason ?? "")")
        #expect(result.orders.dropFirst().allSatisfy { $0.state == .canceled }, "\(result.orders.map(\.state))")
    }

    @Test("a bracket entry cut at the fill keeps its stop, resized to what was bought")
    func bracketChildrenFollowTheCut() throws {
        let bars = [Self.bar(1, "100", "100"), Self.bar(2, "101", "101"), Self.bar(3, "101", "101"), Self.bar(4, "80", "80")]
        var config = Self.unlevered(buffer: 0)
        config.engine.initialCash = Money(10_000)
        config.engine.risk.maxGrossExposureRatio = nil
        let result = BacktestRunner.run(
            strategy: BuyOnce(quantity: Quantity(100), at: 1, bracketStop: Price("90")), bars: bars, config: config)
        // 99 × 101 = 9,999: 99 shares; the stop sells those 99 at the 80 open, nothing more.
        let parent = try #require(result.orders.first)
        #expect(parent.filledQuantity == Quantity(99))
        let stop = try #require(result.orders.first { $0.parentID == parent.id && $0.type == .stop(Price("90")!) })
        #expect(stop.quantity == Quantity(99) && stop.state == .filled, "\(stop)")
        #expect(result.engineFinalPosition == .zero)
    }

    @Test("a rotation's sales pay for its buys in the same step, whichever symbol comes first")
    func salesBeforeBuys() throws {
        // AAA (instrument 0) is bought with the proceeds of BBB (instrument 1), both at the same open.
        struct Rotate: Strategy {
            var seen = 0
            mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
                guard case .barsClosed = event else { return [] }
                seen += 1
                switch seen {
                case 1: return [.submit(OrderRequest(instrument: InstrumentID(1), side: .buy, quantity: Quantity(100), type: .market))]
                case 3:
                    return [
                        .submit(OrderRequest(instrument: InstrumentID(1), side: .sell, quantity: Quantity(100), type: .market)),
                        .submit(OrderRequest(instrument: InstrumentID(0), side: .buy, quantity: Quantity(99), type: .market)),
                    ]
                default: return []
                }
            }
        }
        let a = [Self.bar(1, "100", "100"), Self.bar(2, "100", "100"), Self.bar(3, "100", "100"), Self.bar(4, "100", "100"), Self.bar(5, "100", "100")]
        let b = [Self.bar(1, "100", "100"), Self.bar(2, "100", "100"), Self.bar(3, "100", "100"), Self.bar(4, "100", "100"), Self.bar(5, "100", "100")]
        var config = Self.unlevered(buffer: 0)
        config.engine.initialCash = Money(10_000)
        config.engine.risk.maxGrossExposureRatio = nil
        let data = MarketData(universe: Universe(symbols: [Symbol("AAA"), Symbol("BBB")]), series: [a, b])
        let result = BacktestRunner.run(strategy: Rotate(), data: data, config: config)
        #expect(result.fundsCuts.isEmpty, "\(result.fundsCuts.map(\.reason))")
        let buyA = try #require(result.orders.first { $0.instrument == InstrumentID(0) })
        #expect(buyA.filledQuantity == Quantity(99))
        // The sale's fill comes first in the step.
        let step = result.fills.filter { $0.timestamp == Timestamp(nanoseconds: 4 * Self.day) }
        #expect(step.map(\.side) == [.sell, .buy])
    }

    @Test("closing a position is never cut, whatever the cash")
    func closingIsNeverCut() {
        var funds = FundsAtFill(rule: .cash, cash: -500, equity: 9_500, grossExposure: 10_000, held: 100)
        #expect(funds.closingPart(.sell, quantity: 100) == 100)
        funds.held = -100
        #expect(funds.closingPart(.buy, quantity: 150) == 100)
        #expect(funds.closingPart(.sell, quantity: 10) == 0)
    }

    @Test("with leverage, Reg T's 50 % initial margin bounds a fill")
    func marginRule() {
        let funds = FundsAtFill(rule: .margin(initial: 0.5), cash: 10_000, equity: 10_000, grossExposure: 0, held: 0)
        let at200 = funds.after(.buy, quantity: 200, price: 100, commission: 0, multiplier: 1, paysNotional: true)
        let at201 = funds.after(.buy, quantity: 201, price: 100, commission: 0, multiplier: 1, paysNotional: true)
        #expect(at200.isFunded && !at201.isFunded)
        #expect(at200.cash == -10_000)
    }

    /// A random unlevered run: strategy, sizing, jumps, holidays, volume caps (partial fills), latency, fill timing and
    /// commission schedule all drawn from the seed.
    @Test("no unlevered run shows cash below 0 or gross exposure above equity", arguments: 0..<24)
    func neverLevered(seed: UInt64) {
        var rng = SplitMix64(seed: seed &* 7919 &+ 3)
        let commissions: [CommissionModel] = [.none, .ibkrFixedDefault, .ibkrTieredDefault, .percentage(0.1)]
        var simulation = SimulationConfig(
            marketFill: Bool.random(using: &rng) ? .nextOpen : .thisClose,
            slippage: [.none, .fixedBasisPoints(5), .volumeShare(priceImpact: 0.1)][Int.random(in: 0..<3, using: &rng)],
            commission: commissions[Int.random(in: 0..<commissions.count, using: &rng)],
            maxVolumeParticipation: [nil, 0.5, 0.05][Int.random(in: 0..<3, using: &rng)])
        var config = Self.unlevered(buffer: [0, 0.25, 1][Int.random(in: 0..<3, using: &rng)], simulation: simulation)
        let percent = Double.random(in: 40...100, using: &rng)
        let sizing: PositionSizer = Bool.random(using: &rng)
            ? .percentOfEquity(percent) : .fixedQuantity(Quantity(Int64.random(in: 200...2_000, using: &rng)))
        let result: BacktestResult
        switch seed % 4 {
        case 0, 1:
            // Daily bars with overnight jumps, several symbols: a rotation and a crossover.
            let market = SyntheticMarket.generate(SyntheticMarketConfig(
                symbols: 5, bars: 300, drift: 0.05, volatility: 0.4, jumpProbability: 0.05, jumpVolatility: 0.08,
                seed: seed))
            if seed % 4 == 0 {
                let holdings = Int.random(in: 1...4, using: &rng)
                result = BacktestRunner.run(
                    strategy: MomentumRotation(config: MomentumRotationConfig(
                        lookback: 10, holdings: holdings, rebalance: .everyBars(Int.random(in: 1...5, using: &rng)),
                        investedFraction: Double.random(in: 0.9...1, using: &rng))),
                    data: market, config: config)
            } else {
                result = BacktestRunner.run(
                    spec: .movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 3, slowPeriod: 9, sizing: sizing)),
                    data: market, config: config)
            }
        default:
            // Minute bars around a listed holiday the data trades on, with pre-market minutes that hold orders.
            simulation.sessions = TradingSessions()
            config.simulation.sessions = simulation.sessions
            config.simulation.latency = .seconds(Int64.random(in: 0...90, using: &rng))
            config.engine.initialCash = Money(Int64.random(in: 5_000...50_000, using: &rng))
            let bars = PendingOrdersPropertyTests.bars(seed: seed, extended: true, holiday: true)
            let strategy: StrategySpec = seed % 4 == 2
                ? .movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 3, slowPeriod: 12, sizing: sizing))
                : .rsiMeanReversion(config: RSIMeanReversionConfig(period: 5, sizing: sizing))
            result = BacktestRunner.run(spec: strategy, data: MarketData(symbol: "SYM", bars: bars), config: config)
        }
        #expect(!result.fills.isEmpty)
        #expect(Self.firstBreach(result) == nil, "\(Self.firstBreach(result) ?? "")")
    }
}

extension BacktestResult {
    /// The net position of instrument 0 after every fill.
    var engineFinalPosition: Quantity {
        fills.reduce(Quantity.zero) { $0 + ($1.instrument == InstrumentID(0) ? $1.signedQuantity : .zero) }
    }
}
