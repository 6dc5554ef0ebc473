import Backtest
import Foundation
import Research
import TradingEngine
import TradingModel

/// Shared inputs: the repository root, bundled SPY daily bars, a small synthetic market and a small MA grid.
enum ResearchFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// SPY daily 2010-01-04 … 2011-12-30 (504 bars) from the bundled data.
    static func spyDaily() throws -> MarketData {
        let path = root.appendingPathComponent("Sources/BundledData/Resources/spy/SPY_1d.csv").path
        return try MarketData.load(files: [(Symbol("SPY"), path)])
    }

    static let market = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 2, bars: 300, seed: 5))

    static let crossover = StrategySpec.movingAverageCrossover(config: MovingAverageCrossoverConfig())

    static func smallGrid() throws -> ParameterSpace {
        try ParameterSpace(ranges: [
            ParameterRange(parsing: "fast=5:15:5"), ParameterRange(parsing: "slow=20:40:10"),
        ])
    }

    static func date(_ y: Int, _ m: Int, _ d: Int) -> (Int, Int, Int) { (y, m, d) }
}
