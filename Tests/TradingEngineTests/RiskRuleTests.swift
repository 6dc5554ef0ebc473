import Testing
import TradingEngine
import TradingModel

@Suite struct RiskRuleTests {
    func view(isEntry: Bool = true, equity: Int64 = 100_000, postValue: Int64 = 0) -> RiskView {
        var v = RiskView(now: E.time(0), equity: Money(equity), position: Position(instrument: E.a),
                         referencePrice: Price(100), isEntry: isEntry)
        v.postTradePositionValue = Money(postValue)
        return v
    }
    let buy = OrderRequest.market(E.a, .buy, Quantity(100))

    @Test func maxPositionValueAbsoluteAndPercent() {
        let rule = MaxPositionValueRule(maxValue: Money(15_000), maxPercentOfEquity: 10)
        #expect(rule.evaluate(buy, in: view(postValue: 9_000)) == nil)
        #expect(rule.evaluate(buy, in: view(postValue: 12_000))?.rule == .maxPositionPercentOfEquity)
        #expect(rule.evaluate(buy, in: view(postValue: 16_000))?.rule == .maxPositionValue)
        #expect(rule.evaluate(buy, in: view(isEntry: false, postValue: 16_000)) == nil)
    }

    /// Issue 27 (survived mutations `>` → `>=`): a position exactly at the cap, and a buy costing exactly the
    /// settled cash, are allowed; one cent more is denied.
    @Test func limitsAllowTheExactBoundary() {
        let rule = MaxPositionValueRule(maxValue: Money(15_000), maxPercentOfEquity: nil)
        #expect(rule.evaluate(buy, in: view(postValue: 15_000)) == nil)
        var over = view()
        over.postTradePositionValue = Money("15000.01")!
        #expect(rule.evaluate(buy, in: over)?.rule == .maxPositionValue)
        var cash = view()
        cash.settledCash = Money(10_000)  // 100 shares at 100
        #expect(SettledCashRule().evaluate(buy, in: cash) == nil)
        cash.settledCash = Money("9999.99")!
        #expect(SettledCashRule().evaluate(buy, in: cash)?.rule == .settledCash)
    }

    /// Issue 27 (survived mutations): the caps stop what adds risk, never a sale that takes exposure off, nor an
    /// addition to a position already counted among the open ones.
    @Test func exitsAndAddsToAHeldPositionPassTheCountAndExposureCaps() {
        var over = view(isEntry: false)
        over.postTradeGrossExposure = Money(200_000)
        #expect(MaxGrossExposureRule(maxRatio: 1).evaluate(.market(E.a, .sell, Quantity(100)), in: over) == nil)
        var held = view()
        held.activePositionCount = 3
        held.pendingQuantity = Quantity(100)  // bought, not yet filled: the position is one of the three
        #expect(MaxActivePositionsRule(maxCount: 3).evaluate(buy, in: held) == nil)
        held.pendingQuantity = .zero
        #expect(MaxActivePositionsRule(maxCount: 3).evaluate(buy, in: held)?.rule == .maxActivePositions)
    }

    /// Issue 42 (a generated mutant, held − pending, survived): the projection adds the pending orders to the held
    /// position. Held 100 with 100 more pending is an addition (the position is one of the open ones); held 100 with
    /// a sale of 100 pending is flat once it fills, so a buy then opens a new position and meets the cap.
    @Test func theProjectionAddsPendingOrdersToTheHeldPosition() {
        var v = view()
        v.position.quantity = Quantity(100)
        v.pendingQuantity = Quantity(100)
        #expect(v.projectedQuantity == Quantity(200))
        v.activePositionCount = 3
        #expect(MaxActivePositionsRule(maxCount: 3).evaluate(buy, in: v) == nil)
        v.pendingQuantity = Quantity(-100)
        #expect(v.projectedQuantity == .zero)
        #expect(MaxActivePositionsRule(maxCount: 3).evaluate(buy, in: v)?.rule == .maxActivePositions)
    }

    /// Issue 42 (generated mutants at the boundaries): each limit allows exactly its own value and denies what is
    /// above it: a sector at 30 % of equity, a gauge at the threshold, a stop risking 1 % of equity.
    @Test func sectorVolatilityAndRiskPerTradeAllowTheExactLimit() {
        var v = view()
        v.postTradeSectorExposure = Money(30_000)
        #expect(SectorAllocationRule(maxPercentOfEquity: 30).evaluate(buy, in: v) == nil)
        v.postTradeSectorExposure = Money("30000.01")!
        #expect(SectorAllocationRule(maxPercentOfEquity: 30).evaluate(buy, in: v)?.rule == .sectorAllocation)
        v.volatilityLevel = 30
        #expect(VolatilityPauseRule(threshold: 30).evaluate(buy, in: v) == nil)
        v.volatilityLevel = 30.01
        #expect(VolatilityPauseRule(threshold: 30).evaluate(buy, in: v)?.rule == .volatilityPause)
        v.stopDistance = Price(10)  // 100 shares × 10 = 1,000 = 1 % of equity
        #expect(RiskPerTradeRule(maxPercentOfEquity: 1).evaluate(buy, in: v) == nil)
        v.stopDistance = Price("10.01")!
        #expect(RiskPerTradeRule(maxPercentOfEquity: 1).evaluate(buy, in: v)?.rule == .riskPerTrade)
    }

    /// Issue 42 (generated mutants in `makeRules`): a configuration enables exactly the rules of its keys, the kill
    /// switch always; the volatility pause needs its symbol as well as its threshold.
    @Test func aConfigurationEnablesExactlyItsRules() {
        func names(_ config: RiskConfig) -> [String] { config.makeRules().map { String(describing: type(of: $0)) } }
        #expect(names(RiskConfig()) == ["KillSwitchRule"])
        var config = RiskConfig()
        config.maxPositionPercentOfEquity = 10
        #expect(names(config) == ["KillSwitchRule", "MaxPositionValueRule"])
        config = RiskConfig()
        config.maxPositionValue = Money(1_000)
        #expect(names(config) == ["KillSwitchRule", "MaxPositionValueRule"])
        config = RiskConfig()
        config.maxDailyLossPercent = 2
        config.maxDrawdownPercent = 10
        config.rapidLossPercent = 1
        config.requireSettledCash = true
        config.initialMarginPercent = 25
        #expect(names(config) == [
            "KillSwitchRule", "MaxDailyLossRule", "MaxDrawdownRule", "RapidLossRule", "SettledCashRule", "MarginRule",
        ])
        config = RiskConfig()
        config.volatilityThreshold = 30
        config.requireSettledCash = false
        #expect(names(config) == ["KillSwitchRule"], "a threshold without its gauge pauses nothing")
        config.volatilitySymbol = "VIX"
        #expect(names(config) == ["KillSwitchRule", "VolatilityPauseRule"])
    }

    /// Issue 42 (generated mutants): an entry whose initial margin after the trade is exactly equity is allowed, a cent
    /// more is not; a maintenance breach makes the book reduce-only (entries denied, exits allowed).
    @Test func theMarginRuleAllowsExactlyEquityAndIsReduceOnlyInABreach() {
        var v = view()
        v.postTradeInitialMargin = Money(100_000)
        #expect(MarginRule().evaluate(buy, in: v) == nil)
        v.postTradeInitialMargin = Money("100000.01")!
        #expect(MarginRule().evaluate(buy, in: v)?.rule == .initialMargin)
        v.postTradeInitialMargin = Money(1_000)
        var monitor = RiskMonitor(config: RiskConfig())
        monitor.setMaintenanceMarginBreached(true)
        v.monitor = monitor.status
        #expect(MarginRule().evaluate(buy, in: v)?.rule == .maintenanceMargin)
        var exit = view(isEntry: false)
        exit.monitor = monitor.status
        #expect(MarginRule().evaluate(.market(E.a, .sell, Quantity(100)), in: exit) == nil)
    }

    @Test func grossExposureRatio() {
        var v = view()
        v.postTradeGrossExposure = Money(150_001)
        #expect(MaxGrossExposureRule(maxRatio: 1.5).evaluate(buy, in: v)?.rule == .maxGrossExposure)
        v.postTradeGrossExposure = Money(150_000)
        #expect(MaxGrossExposureRule(maxRatio: 1.5).evaluate(buy, in: v) == nil)
    }

    @Test func activePositions() {
        var v = view()
        v.activePositionCount = 3
        #expect(MaxActivePositionsRule(maxCount: 3).evaluate(buy, in: v)?.rule == .maxActivePositions)
        v.activePositionCount = 2
        #expect(MaxActivePositionsRule(maxCount: 3).evaluate(buy, in: v) == nil)
    }

    @Test func sectorVolatilityAndRiskPerTrade() {
        var v = view()
        v.postTradeSectorExposure = Money(30_001)
        #expect(SectorAllocationRule(maxPercentOfEquity: 30).evaluate(buy, in: v)?.rule == .sectorAllocation)
        v.volatilityLevel = 35
        #expect(VolatilityPauseRule(threshold: 30).evaluate(buy, in: v)?.rule == .volatilityPause)
        #expect(VolatilityPauseRule(threshold: 40).evaluate(buy, in: v) == nil)
        v.stopDistance = Price(5)  // 100 shares × 5 = 500 = 0.5 % of equity
        #expect(RiskPerTradeRule(maxPercentOfEquity: 1).evaluate(buy, in: v) == nil)
        #expect(RiskPerTradeRule(maxPercentOfEquity: 0.4).evaluate(buy, in: v)?.rule == .riskPerTrade)
    }

    @Test func monitorFlagsDailyLossUntilNextDay() {
        var config = RiskConfig()
        config.maxDailyLossPercent = 2
        var m = RiskMonitor(config: config)
        m.observe(equity: Money(100_000), at: E.time(0))
        m.observe(equity: Money(98_500), at: E.time(1))
        #expect(!m.status.dailyLossBreached)
        m.observe(equity: Money(97_999), at: E.time(2))
        #expect(m.status.dailyLossBreached)
        var v = view()
        v.monitor = m.status
        #expect(MaxDailyLossRule().evaluate(buy, in: v)?.rule == .maxDailyLoss)
        #expect(MaxDailyLossRule().evaluate(buy, in: view(isEntry: false)) == nil)
        m.observe(equity: Money(97_999), at: E.time(0, day: 18_264))
        #expect(!m.status.dailyLossBreached)
    }

    @Test func monitorHaltsOnDrawdownForGood() {
        var config = RiskConfig()
        config.maxDrawdownPercent = 10
        var m = RiskMonitor(config: config)
        m.observe(equity: Money(100_000), at: E.time(0))
        m.observe(equity: Money(120_000), at: E.time(1))
        m.observe(equity: Money(108_001), at: E.time(2))
        #expect(!m.status.drawdownHalted)
        m.observe(equity: Money(107_999), at: E.time(3))
        #expect(m.status.drawdownHalted)
        m.observe(equity: Money(200_000), at: E.time(0, day: 18_300))
        #expect(m.status.drawdownHalted)
    }

    @Test func monitorDetectsRapidLossWithinWindow() {
        var config = RiskConfig()
        config.rapidLossPercent = 3
        config.rapidLossWindow = .minutes(10)
        var m = RiskMonitor(config: config)
        m.observe(equity: Money(100_000), at: E.time(0))
        m.observe(equity: Money(99_000), at: E.time(5))
        // 20 minutes later the old peak has left the window: a slow decline is not "rapid".
        m.observe(equity: Money(97_500), at: E.time(20))
        #expect(!m.status.rapidLossHalted)
        m.observe(equity: Money(97_000), at: E.time(25))
        m.observe(equity: Money(94_000), at: E.time(29))
        #expect(m.status.rapidLossHalted)
    }

    @Test func engineRecordsDenialsAsEventsWithReasonsAndCounts() {
        var config = EngineConfig()
        config.risk.maxPositionValue = Money(5_000)
        config.risk.scaleOrdersToFit = false
        config.risk.volatilitySymbol = "VIX"
        config.risk.volatilityThreshold = 30
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(.market(E.a, .buy, Quantity(100)))],
            [.submit(.market(E.a, .buy, Quantity(10)))],
            [.submit(.market(E.a, .buy, Quantity(10)))],
        ]), config: config)
        #expect(engine.handle(.bar(E.a, E.bar(0, "100"))).isEmpty)
        #expect(engine.denialCounts[.maxPositionValue] == 1)
        #expect(engine.denials.first?.denial.detail.contains("10000.00") == true)
        #expect(engine.strategy.seen.contains { if case .orderUpdated(_, .denied) = $0 { true } else { false } })
        #expect(E.submitted(engine.handle(.bar(E.a, E.bar(1, "100")))).count == 1)
        _ = engine.handle(.bar(InstrumentID(2), E.bar(2, "35")))
        #expect(engine.handle(.bar(E.a, E.bar(2, "100"))).isEmpty)
        #expect(engine.denialCounts[.volatilityPause] == 1)
        #expect(engine.orders.orders.map(\.state) == [.denied, .submitted, .denied])
    }

    /// Issue 21: the volatility gauge is watched, never traded: the strategy never sees its bars, an order for it is
    /// refused, and its close still pauses entries.
    @Test func theVolatilityGaugeIsWatchedNeverTraded() {
        var config = EngineConfig()
        config.risk.volatilitySymbol = "VIX"
        config.risk.volatilityThreshold = 30
        let vix = InstrumentID(2)
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(.market(vix, .buy, Quantity(10)))],
            [.submit(.market(E.a, .buy, Quantity(10)))],
            [.submit(.market(E.a, .buy, Quantity(10)))],
        ]), config: config)
        #expect(engine.handle(.bar(vix, E.bar(0, "20"))).isEmpty, "the gauge's bar reaches no strategy")
        #expect(!engine.strategy.seen.contains { if case .bar(vix, _) = $0 { true } else { false } })
        #expect(engine.handle(.bar(E.a, E.bar(1, "100"))).isEmpty, "an order for the gauge is refused")
        #expect(engine.denials.last?.denial.detail == "VIX is the volatility gauge (risk.volatilitySymbol): watched, never traded")
        #expect(E.submitted(engine.handle(.bar(E.a, E.bar(2, "100")))).count == 1, "VIX 20: entries go")
        _ = engine.handle(.bar(vix, E.bar(3, "35")))
        #expect(engine.handle(.bar(E.a, E.bar(3, "100"))).isEmpty, "VIX 35: paused")
        #expect(engine.denialCounts[.volatilityPause] == 1)
        #expect(engine.portfolio.position(for: vix).isFlat && engine.portfolio.marks[2] == .zero)
    }

    @Test func sectorLimitUsesTheSectorMap() throws {
        var config = EngineConfig()
        config.risk.maxSectorPercentOfEquity = 20
        config.risk.scaleOrdersToFit = false
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(.market(E.a, .buy, Quantity(150)))],
            [],
            [.submit(.market(E.a, .buy, Quantity(100))), .submit(.market(E.b, .buy, Quantity(100)))],
        ]), config: config)
        let id = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        _ = engine.handle(.execution(.filled(E.fill(id, .buy, 150, "100"))))
        _ = engine.handle(.bar(E.b, E.bar(1, "100")))
        let second = E.submitted(engine.handle(.bar(E.a, E.bar(1, "100"))))
        #expect(second.map(\.instrument) == [E.b])
        #expect(engine.denialCounts[.sectorAllocation] == 1)
    }
}

@Suite struct SettledCashRuleTests {
    @Test func buysWaitForSaleProceedsToSettle() throws {
        var config = EngineConfig(initialCash: Money(1_000), settlementDays: 2)
        config.risk.requireSettledCash = true
        config.risk.scaleOrdersToFit = false
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([
            [.submit(.market(E.a, .buy, Quantity(9)))],
            [.submit(.market(E.a, .sell, Quantity(9)))],
            [.submit(.market(E.a, .buy, Quantity(9)))],
            [.submit(.market(E.a, .buy, Quantity(9)))],
        ]), config: config)
        let buy = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first?.id)
        _ = engine.handle(.execution(.filled(E.fill(buy, .buy, 9, "100"))))
        let sell = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(1, "100")))).first?.id)
        _ = engine.handle(.execution(.filled(E.fill(sell, .sell, 9, "100"))))
        // Cash is back to 1,000 but 900 of it settles only on Monday 2020-01-06.
        #expect(engine.handle(.bar(E.a, E.bar(2, "100"))).isEmpty)
        #expect(engine.denialCounts[.settledCash] == 1)
        #expect(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100", day: 18_267)))).count == 1)
    }
}
