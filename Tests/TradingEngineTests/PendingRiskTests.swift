import Testing
import TradingEngine
import TradingModel

/// Risk that counts what is pending (issue 21): open orders count towards positions, exposure, sectors and cash;
/// a batch is one target portfolio; an entry above a sizing limit is scaled down with a note.
@Suite struct PendingRiskTests {
    static func engine(_ risk: (inout RiskConfig) -> Void, script: [[StrategyAction]]) -> EngineCore<ScriptedStrategy> {
        var config = EngineConfig()
        risk(&config.risk)
        // The first bar (of B, to give it a price) takes no action.
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([[]] + script), config: config)
        _ = engine.handle(.bar(E.b, E.bar(0, "100")))
        return engine
    }

    static func buy(_ id: InstrumentID, _ quantity: Int64) -> StrategyAction { .submit(.market(id, .buy, Quantity(quantity))) }
    static func sell(_ id: InstrumentID, _ quantity: Int64) -> StrategyAction { .submit(.market(id, .sell, Quantity(quantity))) }

    /// Fills order `id` and returns the engine.
    static func fill(_ engine: inout EngineCore<ScriptedStrategy>, _ order: Order, at price: String = "100") {
        _ = engine.handle(.execution(.filled(E.fill(order.id, order.side, Int64(order.quantity.doubleValue), price,
                                                     instrument: order.instrument))))
    }

    @Test func twoEntriesOfOneBatchCountTowardsMaxPositions() {
        var engine = Self.engine({ $0.maxActivePositions = 1 }, script: [[Self.buy(E.a, 10), Self.buy(E.b, 10)]])
        let sent = E.submitted(engine.handle(.bar(E.a, E.bar(0, "100"))))
        #expect(sent.map(\.instrument) == [E.a])
        #expect(engine.denialCounts[.maxActivePositions] == 1)
    }

    @Test func aRebalanceSellsFreeRoomForItsBuysWhateverTheirOrder() throws {
        var engine = Self.engine({ $0.maxActivePositions = 1 }, script: [
            [Self.buy(E.a, 10)], [Self.buy(E.b, 10), Self.sell(E.a, 10)],
        ])
        let first = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first)
        Self.fill(&engine, first)
        let rebalance = E.submitted(engine.handle(.bar(E.a, E.bar(1, "100"))))
        // The sell goes first, and the buy it makes room for is not denied.
        #expect(rebalance.map(\.instrument) == [E.a, E.b])
        #expect(rebalance.map(\.side) == [.sell, .buy])
        #expect(engine.denials.isEmpty)
    }

    @Test func aSellThatWaitedABarFreesNoRoom() throws {
        var engine = Self.engine({ $0.maxActivePositions = 1 }, script: [
            [Self.buy(E.a, 10)], [Self.sell(E.a, 10)], [Self.buy(E.b, 10)],
        ])
        Self.fill(&engine, try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first))
        #expect(E.submitted(engine.handle(.bar(E.a, E.bar(1, "100")))).count == 1)  // the sell, never filled
        #expect(E.submitted(engine.handle(.bar(E.a, E.bar(2, "100")))).isEmpty)
        #expect(engine.denialCounts[.maxActivePositions] == 1)
    }

    /// Only a market sell sent now is counted on to free room: a limit sell may never fill, whether it rests from an
    /// earlier bar or goes with the buy (issue 80's hand mutation: "a resting limit sell counted as freeing room").
    @Test func aLimitSellFreesNoRoomEvenInItsOwnBatch() throws {
        let limitSell = StrategyAction.submit(.limit(E.a, .sell, Quantity(10), at: Price(110)))
        for script in [[[limitSell, Self.buy(E.b, 10)]], [[limitSell], [Self.buy(E.b, 10)]]] {
            var engine = Self.engine({ $0.maxActivePositions = 1 }, script: [[Self.buy(E.a, 10)]] + script)
            Self.fill(&engine, try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first))
            var sent = E.submitted(engine.handle(.bar(E.a, E.bar(1, "100"))))
            if script.count == 2 { sent += E.submitted(engine.handle(.bar(E.a, E.bar(2, "100")))) }
            #expect(sent.map(\.instrument) == [E.a], "only the limit sell goes: \(sent)")
            #expect(engine.denialCounts[.maxActivePositions] == 1)
        }
    }

    @Test func aRestingEntryCountsTowardsThePositionLimitSoItIsNotSentAgain() {
        let limit = StrategyAction.submit(.limit(E.a, .buy, Quantity(100), at: Price(90)))
        var engine = Self.engine({ $0.maxPositionValue = Money(10_000) }, script: [[limit], [limit]])
        #expect(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).count == 1)
        // The first is still working: a second would make 20,000; not even one share fits.
        #expect(E.submitted(engine.handle(.bar(E.a, E.bar(1, "100")))).isEmpty)
        #expect(engine.denialCounts[.maxPositionValue] == 1)
    }

    @Test func pendingBuysAreDeductedFromSettledCashAndTheSecondBuyIsScaledToFit() throws {
        var engine = Self.engine({ $0.requireSettledCash = true }, script: [[Self.buy(E.a, 600), Self.buy(E.b, 600)]])
        let sent = E.submitted(engine.handle(.bar(E.a, E.bar(0, "100"))))
        #expect(sent.map(\.quantity) == [Quantity(600), Quantity(400)])
        let record = try #require(engine.adjustments.first)
        #expect(record.requested == Quantity(600) && record.sent == Quantity(400))
        #expect(record.denial.rule == .settledCash)
        #expect(engine.adjustmentCounts[.settledCash] == 1)
        #expect(sent.last?.reason?.hasPrefix("scaled down from 600 to 400 to fit settledCash") == true)
        #expect(sent.last?.reason?.contains("commission") == false)
    }

    /// An entry no size of which fits is denied for what refuses one share: here settled cash already spent by a
    /// pending buy, not the position limit the full size broke first (the bot said "maxPositionPercentOfEquity" for a
    /// buy that T+1 settlement held back).
    @Test func anEntryThatNoSizeFitsIsDeniedForWhatRefusesOneShare() throws {
        var engine = Self.engine({
            $0.maxPositionValue = Money(200_000)
            $0.requireSettledCash = true
        }, script: [[Self.buy(E.b, 1_000), Self.buy(E.a, 2_500)]])
        let sent = E.submitted(engine.handle(.bar(E.a, E.bar(0, "100"))))
        #expect(sent.map(\.instrument) == [E.b])
        let denial = try #require(engine.denials.first)
        #expect(denial.denial.rule == .settledCash, "\(denial.denial)")
    }

    /// A buy limit above the mark (a capped entry) is checked at its limit, the most it can pay, and counts at it
    /// while it works: 100 at a 110 limit is 11,000 against a 10,000 limit, and a capped 500 at 110 leaves room for
    /// 450 more at 100 under a gross cap of 1 × 100,000.
    @Test func aBuyLimitAboveTheMarkIsCheckedAtItsLimit() throws {
        let capped = StrategyAction.submit(.limit(E.a, .buy, Quantity(100), at: Price(110)))
        var engine = Self.engine({ $0.maxPositionValue = Money(10_000) }, script: [[capped]])
        #expect(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).map(\.quantity) == [Quantity(90)])

        let working = StrategyAction.submit(.limit(E.b, .buy, Quantity(500), at: Price(110)))
        var book = Self.engine({ $0.maxGrossExposureRatio = 1 }, script: [[working, Self.buy(E.a, 500)]])
        let both = E.submitted(book.handle(.bar(E.a, E.bar(0, "100"))))
        #expect(both.map(\.quantity) == [Quantity(500), Quantity(450)])
        // No reserve, no word of commissions.
        #expect(both.last?.reason?.contains("gross exposure") == true && both.last?.reason?.contains("commission") == false)
        // A resting buy below the mark is still valued at the mark (it pays less, if it fills).
        let resting = StrategyAction.submit(.limit(E.a, .buy, Quantity(100), at: Price(90)))
        var low = Self.engine({ $0.maxPositionValue = Money(10_000) }, script: [[resting]])
        #expect(E.submitted(low.handle(.bar(E.a, E.bar(0, "100")))).map(\.quantity) == [Quantity(100)])
    }

    /// The exposure limit leaves room for the entry's commission at the run's schedule: 1,000 at 100 with IB's
    /// 0.005 a share (5.00) does not fit 100,000 of equity at 1 ×; 999 does (99,900 + 5.00 ≤ 100,000).
    @Test func anUnleveredEntryLeavesRoomForItsCommission() throws {
        var config = EngineConfig()
        config.risk.maxGrossExposureRatio = 1
        config.commissionReserve = CommissionReserve(perShare: Money("0.005")!, minimum: Money(1), maximumPercent: 1)
        var engine = EngineCore(universe: E.universe, strategy: ScriptedStrategy([[], [Self.buy(E.a, 1_000)]]), config: config)
        _ = engine.handle(.bar(E.b, E.bar(0, "100")))
        let sent = E.submitted(engine.handle(.bar(E.a, E.bar(0, "100"))))
        #expect(sent.map(\.quantity) == [Quantity(999)])
        #expect(sent.first?.reason?.contains("set aside for commissions") == true, "\(sent.first?.reason ?? "")")
        // Without a reserve the whole 1,000 fits (and would leave cash at −5.00 once charged).
        var plain = Self.engine({ $0.maxGrossExposureRatio = 1 }, script: [[Self.buy(E.a, 1_000)]])
        #expect(E.submitted(plain.handle(.bar(E.a, E.bar(0, "100")))).map(\.quantity) == [Quantity(1_000)])
    }

    /// The open orders' commissions are set aside too: after a pending 500 at 100 (2.50), 60,000 of B at 1 fit
    /// 49,748 (50,000 + q ≤ 100,000 − 2.50 − 0.005 q), not the 49,751 that forgetting the pending one allows; and the
    /// settled-cash rule counts the entry's commission (1,000 at 100 and 5.00 exceed 100,000 of settled cash: 999).
    @Test func theOpenOrdersCommissionsAreSetAsideAndSettledCashPaysThem() throws {
        var config = EngineConfig()
        config.risk.maxGrossExposureRatio = 1
        config.commissionReserve = CommissionReserve(perShare: Money("0.005")!, minimum: Money(1), maximumPercent: 1)
        var engine = EngineCore(
            universe: E.universe,
            strategy: ScriptedStrategy([[], [Self.buy(E.a, 500), Self.buy(E.b, 60_000)]]), config: config)
        _ = engine.handle(.bar(E.b, E.bar(0, "1")))
        let sent = E.submitted(engine.handle(.bar(E.a, E.bar(0, "100"))))
        #expect(sent.map(\.quantity) == [Quantity(500), Quantity(49_748)])

        var settled = EngineConfig()
        settled.risk.requireSettledCash = true
        settled.commissionReserve = config.commissionReserve
        var cash = EngineCore(universe: E.universe, strategy: ScriptedStrategy([[], [Self.buy(E.a, 1_000)]]), config: settled)
        _ = cash.handle(.bar(E.b, E.bar(0, "100")))
        let bought = E.submitted(cash.handle(.bar(E.a, E.bar(0, "100"))))
        #expect(bought.map(\.quantity) == [Quantity(999)])
        #expect(bought.first?.reason?.contains("and 5.00 of commissions exceeds settled cash") == true,
                "\(bought.first?.reason ?? "")")
    }

    /// An order on a symbol with no price yet is valued at its own price, whichever its side: a short sale limit of
    /// 100 at 50 is 5,000 against a 1,000 limit (scaled to 20), not nothing.
    @Test func anOrderBeforeAnyPriceIsValuedAtItsOwn() throws {
        let short = StrategyAction.submit(.limit(E.a, .sell, Quantity(100), at: Price(50)))
        var engine = Self.engine({ $0.maxPositionValue = Money(1_000) }, script: [[short]])
        #expect(E.submitted(engine.handle(.bar(E.b, E.bar(1, "100")))).map(\.quantity) == [Quantity(20)])
    }

    @Test func anEntryAboveASizingLimitIsScaledDownUnlessTurnedOff() {
        var scaled = Self.engine({ $0.maxPositionPercentOfEquity = 10 }, script: [[Self.buy(E.a, 150)]])
        #expect(E.submitted(scaled.handle(.bar(E.a, E.bar(0, "100")))).map(\.quantity) == [Quantity(100)])
        #expect(scaled.denials.isEmpty)
        #expect(scaled.adjustmentCounts[.maxPositionPercentOfEquity] == 1)

        var denied = Self.engine({
            $0.maxPositionPercentOfEquity = 10
            $0.scaleOrdersToFit = false
        }, script: [[Self.buy(E.a, 150)]])
        #expect(E.submitted(denied.handle(.bar(E.a, E.bar(0, "100")))).isEmpty)
        #expect(denied.denialCounts[.maxPositionPercentOfEquity] == 1)
    }

    @Test func aLimitOnTheCountOfPositionsIsNeverScaled() throws {
        var engine = Self.engine({ $0.maxActivePositions = 0 }, script: [[Self.buy(E.a, 150)]])
        #expect(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).isEmpty)
        #expect(engine.adjustments.isEmpty)
    }

    @Test func symbolsWithoutASectorAreEachTheirOwnSector() throws {
        let universe = Universe(symbols: ["X", "Y"])  // no sector data
        var config = EngineConfig()
        config.risk.maxSectorPercentOfEquity = 20
        config.risk.scaleOrdersToFit = false
        let x = InstrumentID(0), y = InstrumentID(1)
        var engine = EngineCore(universe: universe, strategy: ScriptedStrategy([
            [], [.submit(.market(x, .buy, Quantity(150)))], [.submit(.market(y, .buy, Quantity(150)))],
        ]), config: config)
        _ = engine.handle(.bar(y, E.bar(0, "100")))
        let first = try #require(E.submitted(engine.handle(.bar(x, E.bar(0, "100")))).first)
        _ = engine.handle(.execution(.filled(E.fill(first.id, .buy, 150, "100", instrument: x))))
        // 15 % in X and 15 % in Y: each within 20 %, as neither shares a sector with the other.
        #expect(E.submitted(engine.handle(.bar(x, E.bar(1, "100")))).map(\.instrument) == [y])
        #expect(engine.denials.isEmpty)
    }

    @Test func aPositionWhoseDataEndedIsClosedAtItsLastPriceWithANote() throws {
        var engine = Self.engine({ _ in }, script: [[Self.buy(E.a, 10)], [.submit(.limit(E.a, .sell, Quantity(10), at: Price(120)))]])
        Self.fill(&engine, try #require(E.submitted(engine.handle(.bar(E.a, E.bar(0, "100")))).first))
        let resting = try #require(E.submitted(engine.handle(.bar(E.a, E.bar(1, "104")))).first)
        var commands: [EngineCommand] = []
        let fill = try #require(engine.closeOut(E.a, at: Price(104), into: &commands))
        #expect(commands == [.cancel(resting.id)])
        #expect(fill.side == .sell && fill.quantity == Quantity(10) && fill.price == Price(104))
        #expect(engine.portfolio.position(for: E.a).isFlat)
        #expect(engine.portfolio.cash == Money(100_000 - 1_000 + 1_040))
        #expect(engine.orders.order(fill.orderID)?.reason?.hasPrefix("data ended") == true)
        #expect(engine.strategy.seen.contains { if case .filled(fill, _) = $0 { true } else { false } })
    }

    @Test func riskBasedSizingHasAnATRFloorAndAnEquityCap() {
        let equity = Money(100_000)
        // A 5-second ATR of 0.001 on a 100 stock: without the floor, 1 % risk at 2 ATR would ask for 500,000 shares.
        let sizer = PositionSizer.riskBased(riskPercent: 1, atrMultiple: 2)
        let stock = Instrument(id: InstrumentID(0), symbol: "AAPL")
        #expect(sizer.quantity(price: Price(100), equity: equity, atr: 0.001, instrument: stock) == Quantity(1_000))
        let capped = PositionSizer.riskBased(riskPercent: 1, atrMultiple: 2, minimumATRPercent: 0, maxPercentOfEquity: 50)
        #expect(capped.quantity(price: Price(100), equity: equity, atr: 0.001, instrument: stock) == Quantity(500))
        // An ordinary ATR is not touched: 1,000 / (2 × 2) = 250 shares.
        #expect(sizer.quantity(price: Price(100), equity: equity, atr: 2, instrument: stock) == Quantity(250))
    }
}
