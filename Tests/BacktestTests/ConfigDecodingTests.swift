import Backtest
import Foundation
import Simulation
import Testing
import TradingEngine
import TradingModel

/// Config files may omit any setting; what is given must be well-formed.
@Suite struct ConfigDecodingTests {
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    @Test func emptyObjectsGiveDefaults() throws {
        #expect(try decode(MovingAverageCrossoverConfig.self, "{}") == MovingAverageCrossoverConfig())
        #expect(try decode(RSIMeanReversionConfig.self, "{}") == RSIMeanReversionConfig())
        #expect(try decode(BollingerMeanReversionConfig.self, "{}") == BollingerMeanReversionConfig())
        #expect(try decode(MomentumRotationConfig.self, "{}") == MomentumRotationConfig())
        #expect(try decode(BacktestConfig.self, "{}") == BacktestConfig())
        #expect(try decode(SyntheticMarketConfig.self, "{}") == SyntheticMarketConfig())
        #expect(try decode(IBKRFixedSchedule.self, "{}") == IBKRFixedSchedule())
    }

    @Test func partialConfigsOverrideOnlyWhatTheyName() throws {
        let spec = try decode(StrategySpec.self, """
            {"momentumRotation": {"config": {"lookback": 60, "rebalance": {"weekly": {}}, "minimumScore": null}}}
            """)
        var expected = MomentumRotationConfig(lookback: 60, rebalance: .weekly)
        expected.minimumScore = nil
        #expect(spec == .momentumRotation(config: expected))
        let backtest = try decode(BacktestConfig.self, """
            {"engine": {"initialCash": {"units": 100000000000000}, "risk": {"maxDrawdownPercent": 20}},
             "simulation": {"marketFill": "thisClose", "commission": {"ibkrFixed": {"_0": {}}}}}
            """)
        #expect(backtest.engine.initialCash == Money(1_000_000))
        #expect(backtest.engine.risk.maxDrawdownPercent == 20)
        #expect(backtest.simulation.marketFill == .thisClose)
        #expect(backtest.simulation.commission == .ibkrFixedDefault)
        #expect(backtest.recordsEquityCurve)
    }

    @Test func malformedValuesAreErrorsNotDefaults() {
        #expect(throws: DecodingError.self) { try decode(MovingAverageCrossoverConfig.self, #"{"fastPeriod": "ten"}"#) }
        #expect(throws: DecodingError.self) { try decode(SimulationConfig.self, #"{"marketFill": "nextClose"}"#) }
    }
}
