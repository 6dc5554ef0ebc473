import Backtest
import Simulation
import Testing
import TradingEngine
import TradingModel

/// One regression backtest per built-in strategy: a typed summary plus a stable hash of the order list
/// (Lean's ExpectedStatistics + OrderListHash, typed). If a change alters behaviour on purpose, update both.
@Suite struct StrategyRegressionTests {
    static let market = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 8, bars: 750, seed: 2026))
    static let config = BacktestConfig(simulation: SimulationConfig(
        slippage: .fixedBasisPoints(1), commission: .ibkrFixedDefault))

    static func run(_ spec: StrategySpec) -> BacktestResult {
        BacktestRunner.run(spec: spec, data: market, config: config)
    }

    static func expect(_ name: String, _ summary: BacktestSummary, hash: String) throws {
        let spec = try #require(cases.first { $0.0 == name }?.1)
        let result = run(spec)
        #expect(result.summary == summary, "\(name): \(result.summary)")
        #expect(result.orderListHash == hash, "\(name)")
    }

    @Test func smaCrossover() throws {
        try Self.expect("sma", BacktestSummary(
            bars: 6000, orders: 210, fills: 210, closedTrades: 103, openTrades: 4, winningTrades: 43,
            finalEquity: "139803.86", commissions: "210.00", maxDrawdownBasisPoints: 694, deniedOrders: 0,
            filledOrders: 210, canceledOrders: 0), hash: "e5875800c502d62a")
    }

    @Test func emaLongShortWithATRBrackets() throws {
        try Self.expect("ema-short-atr", BacktestSummary(
            bars: 6000, orders: 992, fills: 562, closedTrades: 279, openTrades: 4, winningTrades: 83,
            finalEquity: "99904.42", commissions: "562.00", maxDrawdownBasisPoints: 842, deniedOrders: 0,
            filledOrders: 562, canceledOrders: 422), hash: "07e9cd07617993f1")  // stops on the 0.01 tick; a step's fills before its bars (issue 42)
    }

    @Test func rsiMeanReversion() throws {
        try Self.expect("rsi", BacktestSummary(
            bars: 6000, orders: 150, fills: 149, closedTrades: 74, openTrades: 1, winningTrades: 45,
            finalEquity: "84231.23", commissions: "149.00", maxDrawdownBasisPoints: 2719, deniedOrders: 0,
            filledOrders: 149, canceledOrders: 0), hash: "cafb00440757e717")
    }

    @Test func bollingerMeanReversion() throws {
        try Self.expect("bollinger", BacktestSummary(
            bars: 6000, orders: 314, fills: 238, closedTrades: 118, openTrades: 2, winningTrades: 74,
            finalEquity: "104730.07", commissions: "238.00", maxDrawdownBasisPoints: 518, deniedOrders: 0,
            filledOrders: 238, canceledOrders: 74), hash: "6f6250ced14326a3")  // limits on the 0.01 tick
    }

    @Test func momentumRotation() throws {
        try Self.expect("momentum", BacktestSummary(
            bars: 6000, orders: 345, fills: 345, closedTrades: 62, openTrades: 3, winningTrades: 31,
            finalEquity: "174126.72", commissions: "386.81", maxDrawdownBasisPoints: 927, deniedOrders: 0,
            filledOrders: 345, canceledOrders: 0), hash: "926d197fa25d7d8e")
    }

    /// The same rotation with its stop-loss and take-profit held at the broker (`protectiveOrders`, the default):
    /// stops trigger inside the bar, the protection is resized with the holding and cancelled before an exit.
    @Test func momentumRotationWithProtectiveOrders() throws {
        try Self.expect("momentum-protective", BacktestSummary(
            bars: 6000, orders: 464, fills: 351, closedTrades: 63, openTrades: 3, winningTrades: 30,
            finalEquity: "170466.43", commissions: "393.60", maxDrawdownBasisPoints: 927, deniedOrders: 0,
            filledOrders: 351, canceledOrders: 107), hash: "75d272190c576d5d")  // stops stamped at the entry's time (issue 42)
    }

    static let cases: [(String, StrategySpec)] = [
        ("sma", .movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 10, slowPeriod: 30))),
        ("ema-short-atr", .movingAverageCrossover(config: MovingAverageCrossoverConfig(
            kind: .exponential, fastPeriod: 8, slowPeriod: 21, allowShort: true,
            sizing: .riskBased(riskPercent: 0.5, atrMultiple: 2), atrStops: ATRStopConfig(takeProfitMultiple: 4)))),
        ("rsi", .rsiMeanReversion(config: RSIMeanReversionConfig(allowShort: true))),
        ("bollinger", .bollingerMeanReversion(config: BollingerMeanReversionConfig(atrStops: ATRStopConfig()))),
        ("momentum", .momentumRotation(config: MomentumRotationConfig(
            lookback: 60, ranking: .volatilityAdjusted, holdings: 3, rebalance: .weekly, weighting: .inverseVolatility,
            stopLossPercent: 8, takeProfitPercent: 25, protectiveOrders: false).withoutChurnFilters)),
        ("momentum-protective", .momentumRotation(config: MomentumRotationConfig(
            lookback: 60, ranking: .volatilityAdjusted, holdings: 3, rebalance: .weekly, weighting: .inverseVolatility,
            stopLossPercent: 8, takeProfitPercent: 25).withoutChurnFilters)),
    ]
}
