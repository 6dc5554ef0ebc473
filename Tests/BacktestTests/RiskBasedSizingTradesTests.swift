import Testing
import TradingEngine
import TradingModel

@testable import Backtest

/// Issue 42 (found while checking drift with ATR sizing): sma-cross with risk-based sizing and no ATR stops kept no
/// ATR, so every entry was zero shares and the run never traded, without a word. Every per-symbol strategy with
/// risk-based sizing trades, and sizes its entries by the ATR.
struct RiskBasedSizingTradesTests {
    static let sizing = PositionSizer.riskBased(riskPercent: 1, atrMultiple: 2)

    @Test(arguments: [
        StrategySpec.movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 3, slowPeriod: 8, sizing: sizing)),
        .rsiMeanReversion(config: RSIMeanReversionConfig(sizing: sizing)),
        .bollingerMeanReversion(config: BollingerMeanReversionConfig(sizing: sizing)),
    ])
    func riskBasedSizingTradesWithoutATRStops(spec: StrategySpec) {
        let data = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 2, bars: 400, seed: 11))
        let result = BacktestRunner.run(spec: spec, data: data)
        #expect(!result.fills.isEmpty, "\(spec)")
        // Sized by the ATR, not a fixed count: entries differ in size.
        let entries = Set(result.fills.filter { $0.side == .buy }.map(\.quantity))
        #expect(entries.count > 1, "\(entries)")
    }
}
