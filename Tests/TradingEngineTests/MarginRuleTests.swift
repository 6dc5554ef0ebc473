import Testing
import TradingEngine
import TradingModel

/// The margin rule (issue 26): Reg-T-style initial margin caps entries so buying power never goes below zero,
/// symbols can carry their own rate, and a maintenance breach makes the book reduce-only until it is met again.
@Suite struct MarginRuleTests {
    static func engine(
        _ risk: (inout RiskConfig) -> Void, script: [[StrategyAction]]
    ) -> EngineCore<ScriptedStrategy> {
        var config = EngineConfig(initialCash: Money(100_000))
        config.risk.initialMarginPercent = 50
        risk(&config.risk)
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([[]] + script), config: config)
        _ = engine.handle(.bar(E.b, E.bar(0, "100")))
        return engine
    }

    static func buy(_ id: InstrumentID, _ quantity: Int64) -> StrategyAction { .submit(.market(id, .buy, Quantity(quantity))) }

    /// Equity less the initial requirement of the book at its marks.
    static func buyingPower(_ engine: EngineCore<ScriptedStrategy>, rate: Double = 0.5) -> Double {
        engine.portfolio.equity.doubleValue - engine.portfolio.grossExposure.doubleValue * rate
    }

    @Test func anEntryIsScaledToTheBuyingPowerAndTheNextOneFindsNone() throws {
        var engine = Self.engine({ _ in }, script: [[Self.buy(E.a, 3_000)], [Self.buy(E.b, 100)]])
        let first = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(1, "100")))).first)
        // 3,000 × 100 needs 150,000 of initial margin; 100,000 of equity carries 2,000 shares.
        #expect(first.quantity == Quantity(2_000))
        #expect(engine.adjustments.first?.denial.rule == .initialMargin)
        _ = engine.handle(.execution(.filled(E.fill(first.id, .buy, 2_000, "100"))))
        #expect(Self.buyingPower(engine) >= 0)
        #expect(E.submitted(engine.handle(.bar(E.b, E.bar(2, "100")))).isEmpty)
        #expect(engine.denials.last?.denial.rule == .initialMargin)
        #expect(engine.denials.last?.denial.detail == "initial margin 105000.00 after the trade > equity 100000.00 (buying power would be -5000.00)")
    }

    @Test func aSymbolWithItsOwnRateIsMarginedAtIt() throws {
        var engine = Self.engine({ $0.marginPercentBySymbol = ["AAA": 100] }, script: [[Self.buy(E.a, 3_000)]])
        let first = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(1, "100")))).first)
        #expect(first.quantity == Quantity(1_000))
    }

    /// Issue 42 (generated mutants that survived): a book whose maintenance requirement is exactly its equity is not
    /// in breach, a cent of price lower it is; a symbol's own rate replaces the common one in the requirement (it is
    /// not added to it); the margin rule is on only when a rate is configured.
    @Test func theRequirementAtItsBoundaryAndWithASymbolsOwnRate() throws {
        var engine = Self.engine({ _ in }, script: [[Self.buy(E.a, 1_600)]])
        let first = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(1, "100")))).first)
        _ = engine.handle(.execution(.filled(E.fill(first.id, .buy, 1_600, "100"))))
        // Cash −60,000; at 50 the book is worth 80,000: equity 20,000 = maintenance 0.25 × 80,000.
        _ = engine.handle(.bar(E.a, E.bar(2, "50")))
        #expect(engine.portfolio.equity == Money(20_000))
        #expect(engine.maintenanceMarginRequirement == Money(20_000))
        #expect(!engine.riskMonitor.status.maintenanceMarginBreached)
        _ = engine.handle(.bar(E.a, E.bar(3, "49.99")))
        #expect(engine.riskMonitor.status.maintenanceMarginBreached)

        var own = Self.engine({ $0.marginPercentBySymbol = ["AAA": 100] }, script: [[Self.buy(E.a, 1_000)]])
        let order = try #require(E.submitted(own.handle(.bar(E.a, E.bar(1, "100")))).first)
        _ = own.handle(.execution(.filled(E.fill(order.id, .buy, 1_000, "100"))))
        #expect(own.initialMarginRequirement == Money(100_000), "100,000 of AAA at its own 100 %, not 50 % + 100 %")
        #expect(own.hasMarginRule)
        var config = EngineConfig(initialCash: Money(100_000))
        #expect(!EngineCore(universe: E.universe, strategy: ScriptedStrategy([]), config: config).hasMarginRule)
        config.risk.initialMarginPercent = 50
        #expect(EngineCore(universe: E.universe, strategy: ScriptedStrategy([]), config: config).hasMarginRule)
    }

    @Test func aMaintenanceBreachIsReduceOnlyUntilItIsMetAgain() throws {
        var engine = Self.engine({ _ in }, script: [
            [Self.buy(E.a, 1_900)], [], [Self.buy(E.b, 10)], [.submit(.market(E.a, .sell, Quantity(500)))], [],
            [Self.buy(E.b, 10)],
        ])
        let first = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(1, "100")))).first)
        _ = engine.handle(.execution(.filled(E.fill(first.id, .buy, 1_900, "100"))))
        // A falls to 60: equity 24,000 < maintenance 0.25 × 114,000 = 28,500.
        _ = engine.handle(.bar(E.a, E.bar(2, "60")))
        #expect(engine.riskMonitor.status.maintenanceMarginBreached)
        #expect(engine.maintenanceMarginRequirement == Money(28_500))
        #expect(E.submitted(engine.handle(.bar(E.b, E.bar(3, "100")))).isEmpty, "no entry while breached")
        #expect(engine.denials.last?.denial.rule == .maintenanceMargin)
        let sell = E.submitted(engine.handle(.bar(E.a, E.bar(4, "60"))))
        #expect(sell.map(\.quantity) == [Quantity(500)], "exits go on")
        let exit = try #require(sell.first)
        _ = engine.handle(.execution(.filled(E.fill(exit.id, .sell, 500, "60"))))
        // A recovers to 90: equity 66,000 > maintenance 0.25 × 126,000, and the initial margin after a small buy of
        // B (63,500) fits too: entries resume.
        _ = engine.handle(.bar(E.a, E.bar(5, "90")))
        #expect(!engine.riskMonitor.status.maintenanceMarginBreached)
        #expect(E.submitted(engine.handle(.bar(E.b, E.bar(6, "100")))).count == 1)
    }
}
