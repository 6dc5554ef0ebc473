import Backtest
import Foundation
import Simulation
import Testing
import TradingEngine
import TradingModel

/// Backtests of a real futures contract and a real currency pair from the bundled data, with IBKR's commissions,
/// checked against an independent replay of their fills: the multiplier in every figure, a future's cash moved only
/// by its P&L, a pair's commission by trade value.
@Suite struct FuturesAndForexBacktestTests {
    static let bundled = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/BundledData/Resources")

    static func run(_ file: String, symbol: Symbol, sizing: PositionSizer, fast: Int, slow: Int) throws -> BacktestResult {
        let data = try MarketData.load(files: [(symbol, bundled.appendingPathComponent(file).path)])
        let strategy = MovingAverageCrossover(config: MovingAverageCrossoverConfig(
            fastPeriod: fast, slowPeriod: slow, allowShort: true, sizing: sizing))
        let config = BacktestConfig(
            engine: EngineConfig(initialCash: Money(1_000_000)), simulation: SimulationConfig(commission: .ibkrFixedDefault))
        return BacktestRunner.run(strategy: strategy, data: data, config: config)
    }

    /// Replays the fills in plain arithmetic (average cost, Double): realized P&L, the final equity at the last close,
    /// and cash, which for a future moves only by realized P&L and commissions.
    static func replay(_ result: BacktestResult, multiplier: Double, paysNotional: Bool)
        -> (realized: Double, equity: Double, cash: Double)
    {
        var quantity = 0.0, average = 0.0, realized = 0.0, cash = result.initialCash.doubleValue
        for fill in result.fills {
            let q = fill.signedQuantity.doubleValue, p = fill.price.doubleValue
            cash -= fill.commission.doubleValue
            if paysNotional { cash -= q * p * multiplier }
            if quantity == 0 || (quantity > 0) == (q > 0) {
                average = (average * quantity + p * q) / (quantity + q)
                quantity += q
            } else {
                let closing = min(abs(quantity), abs(q))
                let pnl = (p - average) * closing * (quantity > 0 ? 1 : -1) * multiplier
                realized += pnl
                if !paysNotional { cash += pnl }
                let remaining = quantity + q
                if remaining != 0, (remaining > 0) != (quantity > 0) { average = p }
                quantity = remaining
                if quantity == 0 { average = 0 }
            }
        }
        let last = result.marks[0].doubleValue
        let equity = paysNotional ? cash + quantity * last * multiplier : cash + quantity * (last - average) * multiplier
        return (realized, equity, cash)
    }

    @Test func anESContractTradesWithItsMultiplier() throws {
        let result = try Self.run(
            "futures/ESZ2013_1d.csv", symbol: "ESZ2013", sizing: .percentOfEquity(100), fast: 5, slow: 15)
        #expect(result.universe[InstrumentID(0)].multiplier == 50)
        #expect(result.fills.count >= 4)
        for fill in result.fills {
            // 100 % of ~1,000,000 at ~1,700 × 50 a contract: 11 or 12 contracts, never thousands of "shares".
            #expect((10...13).contains(fill.quantity.wholeUnits), "\(fill.quantity) contracts")
            #expect(fill.commission == Money("2.25")!.times(fill.quantity.wholeUnits))
        }
        let replayed = Self.replay(result, multiplier: 50, paysNotional: false)
        #expect(abs(result.realizedPnL.doubleValue - replayed.realized) < 0.01 * Double(result.fills.count))
        #expect(abs(result.finalEquity.doubleValue - replayed.equity) < 0.01 * Double(result.fills.count))
        #expect(abs(result.finalCash.doubleValue - replayed.cash) < 0.01 * Double(result.fills.count))
        // Cash never paid for contracts: it stays within the P&L of the starting 1,000,000.
        let curve = Array(result.equityCurve)
        #expect(curve.allSatisfy { abs($0.cash.doubleValue - 1_000_000) < 200_000 })
        // Exposure is the contracts' value: about the equity when 100 % is invested.
        let largest = curve.map(\.grossExposure.doubleValue).max() ?? 0
        #expect(largest > 900_000 && largest < 1_150_000, "largest exposure \(largest)")
    }

    @Test func aCurrencyPairTradesInBaseUnitsWithIBKRsCommission() throws {
        let result = try Self.run(
            "fx/EURUSD_1h.csv", symbol: "EURUSD", sizing: .percentOfEquity(50), fast: 24, slow: 120)
        #expect(result.universe[InstrumentID(0)].kind == .forex(CurrencyPair(base: "EUR", quote: "USD")!))
        #expect(result.fills.count >= 10)
        for fill in result.fills {
            let value = fill.quantity.doubleValue * fill.price.doubleValue
            // Half of ~1,000,000 at ~1.05–1.20 dollars a euro: 400,000–480,000 euros (and double on a reversal).
            #expect(fill.quantity.wholeUnits >= 400_000 && fill.quantity.wholeUnits <= 1_000_000)
            let expected = max(2.0, value * 0.2 / 10_000)
            #expect(abs(fill.commission.doubleValue - expected) < 1e-6, "\(fill.commission) for \(value)")
        }
        let replayed = Self.replay(result, multiplier: 1, paysNotional: true)
        #expect(abs(result.finalEquity.doubleValue - replayed.equity) < 0.01)
        #expect(abs(result.finalCash.doubleValue - replayed.cash) < 0.01)
        #expect(abs(result.realizedPnL.doubleValue - replayed.realized) < 0.01)
    }
}

/// Momentum over a mixed universe (a rolled ES and two currency pairs) ranked by a volatility-normalised score:
/// sizing by contract value, rolls paid, and the final equity equal to a replay of every fill.
@Suite struct MixedUniverseMomentumTests {
    /// A seeded random walk of daily closes (one bar a trading day from 2021-01-04), `step` in percent.
    static func walk(seed: UInt64, start: Double, days: Int, step: Double) -> [Bar] {
        var random = SplitMix64(seed: seed)
        var price = start
        var bars: [Bar] = []
        var day = Timestamp(year: 2021, month: 1, day: 4).dayNumber
        while bars.count < days {
            if USEquityCalendar.isTradingDay(day) {
                let u = random.nextUnit() - 0.5
                price *= 1 + u * step / 50
                let close = Price(approximately: (price * 10_000).rounded() / 10_000)
                bars.append(Bar(timestamp: Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay), open: close,
                                high: close, low: close, close: close, volume: Quantity(1_000_000)))
            }
            day += 1
        }
        return bars
    }

    @Test func momentumRanksFuturesAndPairsTogether() throws {
        let es = FutureSpec.known["ES"]!
        // Four contract months, each 10 points above the one before (contango), all trading every day.
        let base = Self.walk(seed: 7, start: 3700, days: 240, step: 2)
        let months = [(2021, 3), (2021, 6), (2021, 9), (2021, 12), (2022, 3)].map { ContractMonth(year: $0.0, month: $0.1)! }
        let contracts = months.enumerated().map { k, month in
            (month: month, bars: base.map { bar in
                var shifted = bar
                let up = Int64(k) * 10 * FixedPoint.scale
                shifted.open.units += up; shifted.high.units += up; shifted.low.units += up; shifted.close.units += up
                return shifted
            })
        }
        let continuous = try ContinuousFuture.build(spec: es, contracts: contracts, rollDays: 5, adjustment: .backAdjusted)
        #expect(continuous.rolls.map(\.from.month) == [3, 6, 9, 12])  // the data ends 2021-12-14, after the December roll
        let data = MarketData(
            universe: Universe(symbols: ["ES continuous", "EUR.USD", "GBP.USD"]),
            series: [continuous.bars, Self.walk(seed: 11, start: 1.22, days: 240, step: 1),
                     Self.walk(seed: 23, start: 1.37, days: 240, step: 1)])
        let result = Self.momentum(data, lookback: 20, rebalance: 5)
        try Self.checkAgainstReplay(result, data: data, continuous: continuous, cash: 2_000_000)
    }

    /// Issue 47's acceptance on real data: momentum over ES rolled (the bundled contract months, rolled on 2013-12-13)
    /// and EUR.USD and GBP.USD (the bundled daily midpoints of the same quarter), checked as above.
    @Test func momentumRanksTheBundledFuturesAndPairs() throws {
        let (data, continuous) = try Self.bundledFuturesAndPairs()
        #expect(continuous.rolls.map(\.time) == [Timestamp(year: 2013, month: 12, day: 13)])
        let result = Self.momentum(data, lookback: 5, rebalance: 5)
        try Self.checkAgainstReplay(result, data: data, continuous: continuous, cash: 2_000_000)
    }

    /// `bundled:futures-fx`: ES rolled from its five contract months (5 business days before each last trading day,
    /// back-adjusted) beside EUR.USD and GBP.USD.
    static func bundledFuturesAndPairs() throws -> (data: MarketData, continuous: ContinuousFuture) {
        let folder = FuturesAndForexBacktestTests.bundled.appendingPathComponent("futures-fx")
        let es = FutureSpec.known["ES"]!
        let months = ["ESZ2013", "ESH2014", "ESM2014", "ESU2014", "ESZ2014"]
        let files = try MarketData.load(files: months.map { (Symbol($0), folder.appendingPathComponent("\($0)_1d.csv").path) })
        let contractMonths = [(2013, 12), (2014, 3), (2014, 6), (2014, 9), (2014, 12)].map { ContractMonth(year: $0.0, month: $0.1)! }
        let contracts = zip(contractMonths, files.series).map { (month: $0, bars: $1) }
        let continuous = try ContinuousFuture.build(spec: es, contracts: contracts, rollDays: 5, adjustment: .backAdjusted)
        let pairs = try MarketData.load(files: ["EURUSD", "GBPUSD"].map { (Symbol($0), folder.appendingPathComponent("\($0)_1d.csv").path) })
        let data = MarketData(
            universe: Universe(symbols: ["ES continuous", "EUR.USD", "GBP.USD"]),
            series: [continuous.bars] + pairs.series)
        return (data, continuous)
    }

    /// Momentum ranking by the volatility-adjusted score, holding 2 weighted by inverse volatility, 2,000,000 of
    /// capital in `accountCurrency`, IBKR's commissions.
    static func momentum(
        _ data: MarketData, lookback: Int, rebalance: Int, accountCurrency: String = "USD"
    ) -> BacktestResult {
        let strategy = MomentumRotation(config: MomentumRotationConfig(
            lookback: lookback, ranking: .volatilityAdjusted, minimumScore: nil, holdings: 2,
            rebalance: .everyBars(rebalance), weighting: .inverseVolatility, investedFraction: 0.9, rankBuffer: 0,
            minimumWeightChange: 0, protectiveOrders: false))
        var engine = EngineConfig(initialCash: Money(2_000_000))
        engine.accountCurrency = accountCurrency
        let config = BacktestConfig(engine: engine, simulation: SimulationConfig(commission: .ibkrFixedDefault))
        return BacktestRunner.run(strategy: strategy, data: data, config: config)
    }

    /// Every instrument traded, contracts in ones and currencies in thousands, each roll paid 2 × 2.25 a contract held
    /// at a roll of the splice, the final equity equal to a replay of every fill at the last closes less commissions
    /// and rolls, and the book never larger than its equity.
    static func checkAgainstReplay(
        _ result: BacktestResult, data: MarketData, continuous: ContinuousFuture, cash: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let traded = Set(result.fills.map(\.instrument.index))
        #expect(traded == [0, 1, 2], "every instrument traded: \(traded)", sourceLocation: sourceLocation)
        // Contracts in ones and tens; currencies in tens of thousands and more.
        for fill in result.fills where fill.instrument.index == 0 { #expect(fill.quantity.wholeUnits < 20) }
        for fill in result.fills where fill.instrument.index > 0 { #expect(fill.quantity.wholeUnits >= 1_000) }
        // Rolls: each paid 2 × 2.25 a contract held, at the new contract's first bar.
        #expect(!result.rollCharges.isEmpty, sourceLocation: sourceLocation)
        for charge in result.rollCharges {
            #expect(charge.cost == Money("4.5")!.times(Int64(charge.quantity.magnitude.wholeUnits)))
            #expect(continuous.rolls.contains { $0.time == charge.time })
        }
        // The books equal a replay of every fill at the last closes, less commissions and rolls.
        var expected = cash
        for fill in result.fills {
            let last = data.series[fill.instrument.index].last!.close.doubleValue
            let multiplier = Double(data.universe[fill.instrument].multiplier)
            expected += (last - fill.price.doubleValue) * fill.signedQuantity.doubleValue * multiplier
            expected -= fill.commission.doubleValue
        }
        expected -= result.rollCharges.reduce(0) { $0 + $1.cost.doubleValue }
        #expect(abs(result.finalEquity.doubleValue - expected) < 0.01 * Double(result.fills.count + 1),
                "\(result.finalEquity) vs \(expected)", sourceLocation: sourceLocation)
        // Sized by contract value: the book never holds more than its equity (a missing multiplier would be 50×).
        let peak = result.equityCurve.map { $0.grossExposure.doubleValue / $0.equity.doubleValue }.max() ?? 0
        #expect(peak < 1.0, "peak exposure \(peak) × equity", sourceLocation: sourceLocation)
    }
}

/// Issue 47's currency conversion: the bundled futures-and-forex momentum run in an account in euros. ES, EUR.USD and
/// GBP.USD are all priced in dollars; EUR.USD's closes convert them.
@Suite struct MultiCurrencyBacktestTests {
    static func run(accountCurrency: String) throws -> (BacktestResult, MarketData, ContinuousFuture) {
        let (data, continuous) = try MixedUniverseMomentumTests.bundledFuturesAndPairs()
        let result = MixedUniverseMomentumTests.momentum(data, lookback: 5, rebalance: 5, accountCurrency: accountCurrency)
        return (result, data, continuous)
    }

    /// The final equity in euros is a replay of every fill in dollars (at the last closes, less commissions and the
    /// rolls' 2 × 2.25 a contract) converted at the last EUR.USD close; the commissions in euros lie between the
    /// dollars paid at the quarter's highest and lowest rate; the book is sized in euros (about 0.9 of equity invested
    /// at the peak, where sizing euros as dollars would invest 0.9 / 1.3).
    @Test func momentumInAnAccountInEurosMatchesAReplayInDollars() throws {
        let (result, data, continuous) = try Self.run(accountCurrency: "EUR")
        #expect(Set(result.fills.map(\.instrument.index)) == [0, 1, 2])
        var dollars = 0.0, commissionDollars = 0.0
        for fill in result.fills {
            let last = data.series[fill.instrument.index].last!.close.doubleValue
            let multiplier = Double(data.universe[fill.instrument].multiplier)
            dollars += (last - fill.price.doubleValue) * fill.signedQuantity.doubleValue * multiplier
            commissionDollars += fill.commission.doubleValue
        }
        #expect(!result.rollCharges.isEmpty)
        let rollDollars = result.rollCharges.reduce(0.0) { $0 + 4.5 * $1.quantity.magnitude.doubleValue }
        #expect(result.rollCharges.allSatisfy { continuous.rolls.map(\.time).contains($0.time) })
        let eurusd = data.series[1].map(\.close.doubleValue)
        let expected = 2_000_000 + (dollars - commissionDollars - rollDollars) / eurusd.last!
        #expect(abs(result.finalEquity.doubleValue - expected) < 0.01, "\(result.finalEquity) vs \(expected)")
        let paid = result.commissions.doubleValue
        let dollarsPaid = commissionDollars + rollDollars
        #expect(paid >= dollarsPaid / eurusd.max()! - 0.01 && paid <= dollarsPaid / eurusd.min()! + 0.01, "\(paid) EUR")
        #expect(result.accountCurrency == "EUR")
        #expect(result.balances.map(\.currency) == ["USD"])
        #expect(abs(result.balances[0].rate - 1 / eurusd.last!) < 1e-12)
        let peak = result.equityCurve.map { $0.grossExposure.doubleValue / $0.equity.doubleValue }.max() ?? 0
        #expect(peak > 0.85 && peak < 1.0, "peak exposure \(peak) × equity")
        // Each closed trip's P&L is its dollars at the rate of its last fill: within the quarter's rates (the trips of
        // one entry and one exit, whose dollars are their two prices apart).
        var checked = 0
        for trip in result.trades where !trip.isOpen && trip.pnl.units != 0 {
            let fills = result.fills.filter {
                $0.instrument == trip.instrument && $0.timestamp >= trip.entryTime && $0.timestamp <= trip.exitTime!
            }
            guard fills.count == 2 else { continue }
            checked += 1
            let tripDollars = (trip.exitPrice!.doubleValue - trip.entryPrice.doubleValue) * trip.quantity.doubleValue
                * Double(data.universe[trip.instrument].multiplier) * (trip.direction == .long ? 1 : -1)
            let rate = trip.pnl.doubleValue / tripDollars
            #expect(rate > 1 / eurusd.max()! - 1e-9 && rate < 1 / eurusd.min()! + 1e-9, "\(trip.symbol): \(rate)")
        }
        #expect(checked > 0)
    }

    /// Percent-of-equity sizing in euros: each ES entry buys 50 % of the equity in euros converted to dollars at the
    /// EUR.USD close it knew (the one before ES's signal bar or at it: the pair's bar of the same time may come after),
    /// over ES's contract value.
    @Test func percentOfEquitySizesInTheInstrumentsCurrency() throws {
        let folder = FuturesAndForexBacktestTests.bundled.appendingPathComponent("futures-fx")
        let data = try MarketData.load(files: [
            (Symbol("ES 2014-03"), folder.appendingPathComponent("ESH2014_1d.csv").path),
            (Symbol("EUR.USD"), folder.appendingPathComponent("EURUSD_1d.csv").path),
        ])
        let strategy = MovingAverageCrossover(config: MovingAverageCrossoverConfig(
            fastPeriod: 3, slowPeriod: 8, allowShort: true, sizing: .percentOfEquity(50)))
        var engine = EngineConfig(initialCash: Money(1_000_000))
        engine.accountCurrency = "EUR"
        let result = BacktestRunner.run(
            strategy: strategy, data: data,
            config: BacktestConfig(engine: engine, simulation: SimulationConfig(commission: .ibkrFixedDefault)))
        let es = data.series[0], eurusd = data.series[1]
        let curve = Array(result.equityCurve)
        var entries = 0
        var held = 0.0
        for fill in result.fills where fill.instrument.index == 0 {
            defer { held += fill.signedQuantity.doubleValue }
            guard held == 0 else { continue }
            entries += 1
            // The signal bar is ES's bar before the fill; equity then is the curve's point before it.
            let signal = es.last { $0.timestamp < fill.timestamp }!
            let before = curve.last { $0.time < signal.timestamp }!.equity.doubleValue
            let after = curve.last { $0.time <= signal.timestamp }!.equity.doubleValue
            let rates = [eurusd.last { $0.timestamp < signal.timestamp }, eurusd.last { $0.timestamp <= signal.timestamp }]
                .compactMap { $0?.close.doubleValue }
            let sizes = rates.flatMap { rate in
                [before, after].map { (($0 * 0.5 * rate) / (signal.close.doubleValue * 50)).rounded(.down) }
            }
            #expect(sizes.contains(fill.quantity.doubleValue), "\(fill.quantity) contracts; by hand \(sizes)")
            // In euros sized as dollars it would be about 1.3 times fewer.
            #expect(fill.quantity.doubleValue > (before * 0.5) / (signal.close.doubleValue * 50) + 1)
        }
        #expect(entries >= 2)
    }

    /// The same universe in an account in dollars converts nothing: the run is the single-currency one.
    @Test func theSameRunInDollarsConvertsNothing() throws {
        let (result, data, _) = try Self.run(accountCurrency: "USD")
        #expect(result.balances.isEmpty)
        #expect(result.conversion.isSingleCurrency)
        let plain = MixedUniverseMomentumTests.momentum(data, lookback: 5, rebalance: 5)
        #expect(plain.orderListHash == result.orderListHash)
        #expect(plain.finalEquity == result.finalEquity)
    }
}
