import Backtest
import Foundation
import Testing
import TradingEngine
import TradingModel

/// Both peer reference strategies on the first 2,340 bars of peer scenario M (10 symbols, shared cash).
@Suite struct PeerScenarioMTests {
    static let data: MarketData? = try? MarketData.load(
        files: (0..<10).map { (Symbol("SYM00\($0)"), Fixtures.path("peers/M2340/SYM00\($0).csv")) })

    static var config: BacktestConfig {
        var config = BacktestConfig()
        config.engine.initialCash = Money(1_000_000)
        return config
    }

    /// Fills as sortable text lines `time,symbol,qty,price` (the engine fills symbols in id order within a bar,
    /// the reference lists sells before buys; the set is what must match).
    static func lines(_ result: BacktestResult) -> [String] {
        result.fills.map { f in
            let qty = (f.side == .buy ? "" : "-") + f.quantity.description
            return "\(f.timestamp),\(result.universe[f.instrument].symbol),\(qty),\(Price(units: f.price.units))"
        }.sorted()
    }

    static func expected(_ name: String) throws -> [String] {
        let text = try String(contentsOfFile: Fixtures.path("peers/M2340/\(name)"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",")
            return "\(f[0]),\(f[1]),\(f[2]),\(Price(String(f[3]))!)"
        }.sorted()
    }

    @Test func smaCrossoverOnEverySymbolWithSharedCash() throws {
        let data = try #require(Self.data)
        let result = BacktestRunner.run(
            spec: .movingAverageCrossover(config: MovingAverageCrossoverConfig()), data: data, config: Self.config)
        #expect(Self.lines(result) == (try Self.expected("fills_a.csv")))
        #expect(result.finalEquity.centsDescription == "998921.75")
    }

    @Test func momentumRotationMatchesReferenceStrategyB() throws {
        let data = try #require(Self.data)
        // Reference b: ROC over 390 bars, top 3 (ties by symbol order), decide on the last bar of each session
        // (every 390th timestamp; the first with a full lookback is bar 779), 99 % of equity, no minimum score.
        let config = MomentumRotationConfig(
            lookback: 390, minimumScore: nil, holdings: 3, rebalance: .everyBars(390), investedFraction: 0.99
        ).withoutChurnFilters
        let result = BacktestRunner.run(spec: .momentumRotation(config: config), data: data, config: Self.config)
        #expect(Self.lines(result) == (try Self.expected("fills_b.csv")))
        #expect(result.finalEquity.centsDescription == "961498.75")
        #expect(result.equityCurve.map(\.cash).min().map { $0 > .zero } == true)
    }
}
