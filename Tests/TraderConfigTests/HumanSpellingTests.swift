import Testing
import TraderConfig
import TradingEngine
import TradingModel

/// Every user-facing value is written as a person would write it; Swift's synthesized shapes are refused with the
/// human spelling in the message.
@Suite struct HumanSpellingTests {
    func momentum(_ loaded: LoadedConfiguration) -> MomentumRotationConfig? {
        if case .momentumRotation(let config)? = loaded.settings.strategy.choice.spec { return config }
        return nil
    }

    @Test(arguments: [
        ("12", RebalanceSchedule.everyBars(12)), ("daily", .daily), ("weekly", .weekly), ("monthly", .monthly),
    ])
    func schedules(text: String, expected: RebalanceSchedule) throws {
        let loaded = try load("strategy: {name: momentum, parameters: {rebalance: \(text)}}")
        #expect(momentum(loaded)?.rebalance == expected)
    }

    @Test(arguments: [
        ("{percentOfEquity: 10}", PositionSizer.percentOfEquity(10)),
        ("{fixed: 100}", .fixedQuantity(Quantity(100))),
        ("{riskBased: {riskPercent: 1, atrMultiple: 2}}", .riskBased(riskPercent: 1, atrMultiple: 2)),
    ])
    func sizing(text: String, expected: PositionSizer) throws {
        let loaded = try load("strategy: {name: rsi, parameters: {sizing: \(text)}}")
        guard case .rsiMeanReversion(let config)? = loaded.settings.strategy.choice.spec else {
            Issue.record("not rsi")
            return
        }
        #expect(config.sizing == expected)
    }

    @Test func sizingFromAFlag() throws {
        let loaded = try load(
            "strategy: {name: sma-cross}", flags: [.init(path: "strategy.parameters.sizing", value: "fixed:25", flag: "--sizing")])
        guard case .movingAverageCrossover(let config)? = loaded.settings.strategy.choice.spec else {
            Issue.record("not sma-cross")
            return
        }
        #expect(config.sizing == .fixedQuantity(Quantity(25)))
    }

    @Test func symbolsAndDurationsAsWritten() throws {
        let loaded = try load("""
            risk:
              volatilitySymbol: VIX
              volatilityThreshold: 30
              rapidLossPercent: 5
              rapidLossWindow: 60s
            connection: {gracePeriod: 2m, heartbeat: 1h, heartbeatTimeout: 10}
            data: {warmup: 1h}
            """)
        #expect(loaded.settings.risk.limits.volatilitySymbol == Symbol("VIX"))
        #expect(loaded.settings.risk.limits.rapidLossWindow == .seconds(60))
        #expect(loaded.settings.connection.gracePeriod == .seconds(120))
        #expect(loaded.settings.connection.heartbeat == .seconds(3600))
        #expect(loaded.settings.connection.heartbeatTimeout == .seconds(10))
        #expect(loaded.settings.data.warmup == "3600 S")
    }

    @Test(arguments: [("3600 S", "3600 S"), ("2 D", "2 D"), ("30m", "1800 S"), ("2d", "2 D"), ("1 W", "1 W")])
    func warmupSpellings(text: String, expected: String) throws {
        let loaded = try load("data: {barSize: 1 hour, warmup: \(text)}")
        #expect(loaded.settings.data.warmup == expected)
    }

    @Test(arguments: [
        ("strategy: {name: momentum, parameters: {rebalance: {everyBars: {_0: 12}}}}", "'rebalance: 12'"),
        ("strategy: {name: momentum, parameters: {rebalance: {monthly: {}}}}", "'rebalance: monthly'"),
        ("strategy: {name: rsi, parameters: {sizing: {percentOfEquity: {_0: 10}}}}", "'percentOfEquity: 10'"),
        ("risk: {volatilitySymbol: {rawValue: IBM}, volatilityThreshold: 30}", "'volatilitySymbol: IBM'"),
        ("risk: {rapidLossPercent: 5, rapidLossWindow: {nanoseconds: 60000000000}}", "'rapidLossWindow: 1m'"),
    ])
    func swiftShapesAreRefusedWithTheHumanSpelling(yaml: String, hint: String) throws {
        let error = try #require(loadError(yaml))
        #expect(error.description.contains(hint), "\(error)")
        #expect(!error.description.contains("Expected to decode"))
    }

    @Test func aPartialMomentumBlockKeepsTheFlagshipDefaults() throws {
        let loaded = try load("strategy: {name: momentum, parameters: {lookback: 60}}")
        let config = try #require(momentum(loaded))
        #expect(config == MomentumStrategy.defaults)
        #expect(config.holdings == 10 && config.rebalance == .monthly && config.stopLossPercent == 15)
    }

    @Test func rankingAndWeightingUseTheFlagSpellings() throws {
        let loaded = try load("strategy: {parameters: {ranking: vol-adjusted, weighting: inverse-vol, minimumScore: none}}")
        let config = try #require(momentum(loaded))
        #expect(config.ranking == .volatilityAdjusted && config.weighting == .inverseVolatility && config.minimumScore == nil)
    }

    @Test func atrStopsAsANumberOrAMapping() throws {
        let short = try load("strategy: {name: bollinger, parameters: {atrStops: 2}}")
        let long = try load("strategy: {name: bollinger, parameters: {atrStops: {period: 10, stopMultiple: 3, takeProfitMultiple: 4}}}")
        guard case .bollingerMeanReversion(let a)? = short.settings.strategy.choice.spec,
            case .bollingerMeanReversion(let b)? = long.settings.strategy.choice.spec
        else { Issue.record("not bollinger"); return }
        #expect(a.atrStops == ATRStopConfig(period: 14, stopMultiple: 2))
        #expect(b.atrStops == ATRStopConfig(period: 10, stopMultiple: 3, takeProfitMultiple: 4))
    }

    @Test func emaCrossIsExponential() throws {
        let loaded = try load("strategy: {name: ema-cross, parameters: {fastPeriod: 5, slowPeriod: 20}}")
        guard case .movingAverageCrossover(let config)? = loaded.settings.strategy.choice.spec else {
            Issue.record("not a crossover")
            return
        }
        #expect(config.kind == .exponential && config.fastPeriod == 5 && config.slowPeriod == 20)
    }
}
