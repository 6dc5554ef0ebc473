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
