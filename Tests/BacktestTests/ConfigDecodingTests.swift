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
            {"engine": {"initialCash": "1000000", "risk": {"maxDrawdownPercent": 20, "maxPositionValue": 25000.5}},
             "simulation": {"marketFill": "thisClose", "commission": {"ibkrFixed": {"_0": {}}}}}
            """)
        #expect(backtest.engine.initialCash == Money(1_000_000))
        #expect(backtest.engine.risk.maxDrawdownPercent == 20)
        #expect(backtest.engine.risk.maxPositionValue == Money("25000.5"))
        #expect(backtest.simulation.marketFill == .thisClose)
        #expect(backtest.simulation.commission == .ibkrFixedDefault)
        #expect(backtest.recordsEquityCurve)
    }

    @Test func fixedPointValuesRoundTripAsExactStrings() throws {
        let data = try JSONEncoder().encode([Price("100.0211")!, Price(units: 1)])
        #expect(String(decoding: data, as: UTF8.self) == #"["100.0211","0.00000001"]"#)
        #expect(try JSONDecoder().decode([Price].self, from: data) == [Price("100.0211")!, Price(units: 1)])
        #expect(throws: DecodingError.self) { try decode(Money.self, #""1.123456789""#) }
    }

    @Test func malformedValuesAreErrorsNotDefaults() {
        #expect(throws: DecodingError.self) { try decode(MovingAverageCrossoverConfig.self, #"{"fastPeriod": "ten"}"#) }
        #expect(throws: DecodingError.self) { try decode(SimulationConfig.self, #"{"marketFill": "nextClose"}"#) }
    }
}
