import Simulation
import Testing
import TradingEngine
import TradingModel

/// A future's money: buying pays no price, the multiplier scales every figure, and only P&L moves cash. A currency
/// pair is bought like a stock, in its quote currency.
@Suite struct FuturesAccountingTests {
    static let universe = Universe(symbols: ["ES 2026-12", "EUR.USD", "AAPL"])
    static let es = InstrumentID(0), eur = InstrumentID(1), aapl = InstrumentID(2)

    static func fill(
        _ instrument: InstrumentID, _ side: Side, _ quantity: String, _ price: String, commission: String = "0",
        minute: Int64 = 0
    ) -> Fill {
        Fill(
            orderID: OrderID(1), instrument: instrument, side: side, quantity: Quantity(quantity)!, price: Price(price)!,
            commission: Money(commission)!, timestamp: E.time(minute))
    }

    /// Every figure worked by hand: 2 ES bought at 6,000 (4.50 commission), marked 6,010, 1 sold at 6,020, 3 sold at
    /// 5,990 (a reversal to 2 short), marked 5,980.
    @Test func aFuturesPositionMovesCashOnlyByItsPnL() {
        var p = Portfolio(cash: Money(100_000), universe: Self.universe)
        p.apply(Self.fill(Self.es, .buy, "2", "6000", commission: "4.5"))
        E.checkInvariant(p)
        #expect(p.cash == Money("99995.5"))
        #expect(p.equity == Money("99995.5"))
        #expect(p.grossExposure == Money(600_000))  // 2 × 6,000 × 50
        p.mark(Self.es, at: Price(6010))
        E.checkInvariant(p)
        #expect(p.unrealizedPnL == Money(1_000))  // 2 × 10 × 50
        #expect(p.equity == Money("100995.5"))
        #expect(p.grossExposure == Money(601_000))
        p.apply(Self.fill(Self.es, .sell, "1", "6020", commission: "2.25"))
        E.checkInvariant(p)
        #expect(p.realizedPnL == Money(1_000))  // 20 × 50
        #expect(p.cash == Money("100993.25"))
        #expect(p.equity == Money("101493.25"))  // + (6,020 − 6,010) × 50 − 2.25 on the mark
        p.apply(Self.fill(Self.es, .sell, "3", "5990", commission: "6.75"))
        E.checkInvariant(p)
        #expect(p.position(for: Self.es).quantity == Quantity(-2))
        #expect(p.position(for: Self.es).averagePrice == Price(5990))
        #expect(p.realizedPnL == Money(500))  // + (5,990 − 6,000) × 1 × 50
        #expect(p.cash == Money("100486.5"))
        #expect(p.equity == Money("98486.5"))  // short 2 from 5,990, marked 6,010: −2,000
        p.mark(Self.es, at: Price(5980))
        E.checkInvariant(p)
        #expect(p.equity == Money("101486.5"))
        #expect(p.grossExposure == Money(598_000))
        #expect(p.commissions == Money("13.5"))
        #expect(p.impliedRealizedPnL == Money(500))
    }

    /// Issue 47: a position carried into the next month 50 lower (a backtest over each month's prices as traded) keeps
    /// its P&L; only the new month's moves count from there.
    @Test func aPositionCarriedIntoTheNextMonthKeepsItsPnL() {
        var p = Portfolio(cash: Money(100_000), universe: Self.universe)
        p.apply(Self.fill(Self.es, .buy, "2", "6000"))
        p.mark(Self.es, at: Price(6010))
        #expect(p.equity == Money(101_000))
        p.carry(Self.es, movedBy: Price(-50))
        E.checkInvariant(p)
        #expect(p.position(for: Self.es).averagePrice == Price(5950))
        #expect(p.equity == Money(101_000))
        #expect(p.unrealizedPnL == Money(1_000))
        #expect(p.grossExposure == Money(596_000))  // 2 × 5,960 × 50
        p.mark(Self.es, at: Price(5965))  // the new month 5 higher: +500
        E.checkInvariant(p)
        #expect(p.equity == Money(101_500))
        // Nothing held, nothing carried.
        var flat = Portfolio(cash: Money(100_000), universe: Self.universe)
        flat.carry(Self.es, movedBy: Price(-50))
        #expect(flat.equity == Money(100_000))
    }

    /// A gap that would take the mark to zero or below is no price: nothing moves. One larger than the mark upward
    /// (a new month far above a cheap old one) is carried.
    @Test func aCarryToNoPriceIsRefusedAndALargeOneUpIsMade() {
        var p = Portfolio(cash: Money(100_000), universe: Self.universe)
        p.apply(Self.fill(Self.es, .buy, "1", "40"))
        p.carry(Self.es, movedBy: Price(-40))
        #expect(p.marks[Self.es.index] == Price(40) && p.position(for: Self.es).averagePrice == Price(40))
        p.carry(Self.es, movedBy: Price(-41))
        #expect(p.marks[Self.es.index] == Price(40))
        p.carry(Self.es, movedBy: Price(100))
        #expect(p.marks[Self.es.index] == Price(140) && p.position(for: Self.es).averagePrice == Price(140))
        E.checkInvariant(p)
    }

    @Test func aFutureSaleLeavesNothingToSettle() {
        var p = Portfolio(cash: Money(100_000), universe: Self.universe, settlementDays: 1)
        p.apply(Self.fill(Self.es, .buy, "1", "6000"))
        p.apply(Self.fill(Self.es, .sell, "1", "6100", minute: 1))
        #expect(p.unsettledCash == .zero)
        #expect(p.settledCash == Money(105_000))
        p.apply(Self.fill(Self.aapl, .buy, "10", "100", minute: 2))
        p.apply(Self.fill(Self.aapl, .sell, "10", "110", minute: 3))
        #expect(p.unsettledCash == Money(1_100))
    }

    @Test func aCurrencyPairIsBoughtInItsQuoteCurrency() {
        var p = Portfolio(cash: Money(100_000), universe: Self.universe)
        p.apply(Self.fill(Self.eur, .buy, "25000", "1.1", commission: "2"))
        E.checkInvariant(p)
        #expect(p.cash == Money(72_498))
        #expect(p.equity == Money(99_998))
        p.mark(Self.eur, at: Price("1.12")!)
        E.checkInvariant(p)
        #expect(p.positionValue(for: Self.eur) == Money(28_000))
        #expect(p.equity == Money(100_498))
    }

    /// Random fills and marks over a future, a pair and a stock: the equity's change equals, computed apart,
    /// Σ fills (final mark − fill price) × signed quantity × multiplier − commissions.
    @Test(arguments: [UInt64(1), 7, 42, 2026])
    func equityIsTheSumOfEveryFillsPnLAtTheLastMarks(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var p = Portfolio(cash: Money(1_000_000), universe: Self.universe)
        var fills: [Fill] = []
        var marks: [Int64] = [600_000, 110_000, 10_000]  // cents for ES and AAPL, 1e-5 for EUR.USD
        let scales: [Int64] = [100, 100_000, 100]
        for step in 0..<200 {
            let i = Int(rng.next() % 3)
            marks[i] = max(1, marks[i] + Int64(rng.next() % 41) - 20)
            let price = Price(units: marks[i] * (100_000_000 / scales[i]))
            if rng.next() % 2 == 0 {
                p.mark(InstrumentID(index: i), at: price)
            } else {
                let quantity = i == 1 ? Int64(rng.next() % 50_000 + 1) : Int64(rng.next() % 5 + 1)
                let fill = Fill(
                    orderID: OrderID(Int64(step)), instrument: InstrumentID(index: i), side: rng.next() % 2 == 0 ? .buy : .sell,
                    quantity: Quantity(quantity), price: price, commission: Money(units: Int64(rng.next() % 300_000_000)),
                    timestamp: E.time(Int64(step)))
                p.apply(fill)
                fills.append(fill)
            }
            E.checkInvariant(p)
        }
        var expected = Int128(0)
        for fill in fills {
            let i = fill.instrument.index
            let last = Int128(p.marks[i].units)
            let signed = Int128(fill.signedQuantity.units) / Int128(FixedPoint.scale)
            expected += (last - Int128(fill.price.units)) * signed * Int128(Self.universe[fill.instrument].multiplier)
            expected -= Int128(fill.commission.units)
        }
        // A future's P&L runs through its average price, rounded to 1e-8 when a position is added to: at most a
        // cent a fill here. A missing multiplier would be off by dollars.
        let difference = Int128(p.equity.units - p.initialCash.units) - expected
        #expect(difference.magnitude <= UInt128(fills.count) * 1_000_000, "off by \(difference) (1e-8)")
    }

    @Test func sizingCountsTheMultiplier() {
        let es = Self.universe[Self.es]
        let equity = Money(1_000_000)
        // 100 % of equity in ES at 5,000 is 1,000,000 / (5,000 × 50) = 4 contracts.
        #expect(PositionSizer.percentOfEquity(100).quantity(price: Price(5000), equity: equity, atr: nil, instrument: es)
            == Quantity(4))
        // 0.5 % risk = 5,000 with the stop 2 ATR = 40 points away: 40 × 50 = 2,000 a contract → 2.
        #expect(PositionSizer.riskBased(riskPercent: 0.5, atrMultiple: 2).quantity(
            price: Price(5000), equity: equity, atr: 20, instrument: es) == Quantity(2))
        // A stock of the same price: 200 shares.
        #expect(PositionSizer.percentOfEquity(100).quantity(
            price: Price(5000), equity: equity, atr: nil, instrument: Self.universe[Self.aapl]) == Quantity(200))
    }

    @Test func riskRulesCountTheMultiplierAndNoCashForAFuture() {
        let position = Position(instrument: Self.es, kind: Self.universe[Self.es].kind)
        var view = RiskView(now: E.time(0), equity: Money(100_000), position: position, referencePrice: Price(6000), isEntry: true)
        view.stopDistance = Price(10)
        let request = OrderRequest.market(Self.es, .buy, Quantity(2))
        // 10 points × 2 contracts × 50 = 1,000 at risk: above 0.5 % of equity (500), within 2 % (2,000).
        #expect(RiskPerTradeRule(maxPercentOfEquity: 0.5).evaluate(request, in: view)?.rule == .riskPerTrade)
        #expect(RiskPerTradeRule(maxPercentOfEquity: 2).evaluate(request, in: view) == nil)
        // Buying a future pays no price: settled cash of 1,000 does not stop a 600,000 contract value.
        view.settledCash = Money(1_000)
        #expect(SettledCashRule().evaluate(request, in: view) == nil)
        var stockView = view
        stockView.position = Position(instrument: Self.aapl)
        #expect(SettledCashRule().evaluate(.market(Self.aapl, .buy, Quantity(20)), in: stockView)?.rule == .settledCash)
    }
}


/// A contract month is not entered from its roll day (5 business days before its last trading day) on; exits go.
@Suite struct ContractExpiryTests {
    static let universe = Universe(symbols: ["ESZ2013", "ES continuous"])
    static let contract = InstrumentID(0), continuous = InstrumentID(1)

    static func bar(_ day: Int, _ month: Int = 12) -> Bar {
        Bar(timestamp: Timestamp(year: 2013, month: month, day: day), open: Price(1800), high: Price(1800), low: Price(1800),
            close: Price(1800), volume: Quantity(1_000))
    }

    @Test func noEntryFromTheRollDayOnButExitsGo() {
        let buy = StrategyAction.submit(.market(Self.contract, .buy, Quantity(1)))
        let sell = StrategyAction.submit(.market(Self.contract, .sell, Quantity(1)))
        let other = StrategyAction.submit(.market(Self.continuous, .buy, Quantity(1)))
        var engine = EngineCore(
            universe: Self.universe, strategy: ScriptedStrategy([[buy], [buy], [sell, other], [sell]]),
            config: EngineConfig(initialCash: Money(1_000_000)))
        // Thursday 12-12: the last day to enter ESZ2013 (last trading day Friday 12-20).
        let first = E.submitted(engine.handle(.bar(Self.contract, Self.bar(12))))
        #expect(first.count == 1)
        _ = engine.handle(.execution(.filled(Fill(
            orderID: first[0].id, instrument: Self.contract, side: .buy, quantity: Quantity(1), price: Price(1800),
            timestamp: Timestamp(year: 2013, month: 12, day: 12)))))
        // Friday 12-13: adding is an entry, denied with the dates; the engine leaves the contract (below).
        let leaving = E.submitted(engine.handle(.bar(Self.contract, Self.bar(13))))
        #expect(leaving.map(\.clientOrderID.rawValue) == ["EXPIRY-ESZ2013-1386892800"])
        #expect(engine.denialCounts[.contractExpiry] == 1)
        let detail = engine.denials.last?.denial.detail ?? ""
        #expect(detail.contains("ES 2013-12 stops trading on 2013-12-20; no new entry from 2013-12-13 on"), "\(detail)")
        // Monday 12-16: the exit goes; the continuous future (no month) is never refused.
        let exits = E.submitted(engine.handle(.bar(Self.contract, Self.bar(16))))
        #expect(exits.map(\.instrument) == [Self.contract, Self.continuous])
        #expect(exits.first?.side == .sell)
    }
}

/// A position in a contract month is closed on its roll day, after the strategy has seen the bar: its other working
/// orders on the contract are cancelled first, one market order closes it (whatever the risk rules say, the kill
/// switch included), and no second one goes while it works.
@Suite struct ExpiryExitTests {
    static let contract = InstrumentID(0), continuous = InstrumentID(1)

    @Test func theRollDayClosesTheContractAndCancelsItsStop() {
        let buy = StrategyAction.submit(.market(Self.contract, .buy, Quantity(2)))
        let stop = StrategyAction.submit(OrderRequest(
            instrument: Self.contract, side: .sell, quantity: Quantity(2), type: .stop(Price(1700))))
        let rolled = StrategyAction.submit(.market(Self.continuous, .buy, Quantity(1)))
        var engine = EngineCore(
            universe: ContractExpiryTests.universe, strategy: ScriptedStrategy([[buy, rolled], [stop], [], [], []]),
            config: EngineConfig(initialCash: Money(1_000_000)))
        let entries = E.submitted(engine.handle(.bar(Self.contract, ContractExpiryTests.bar(11))))
        #expect(entries.count == 2)
        for order in entries {
            _ = engine.handle(.execution(.filled(Fill(
                orderID: order.id, instrument: order.instrument, side: .buy, quantity: order.quantity, price: Price(1800),
                timestamp: Timestamp(year: 2013, month: 12, day: 11)))))
        }
        let protective = E.submitted(engine.handle(.bar(Self.contract, ContractExpiryTests.bar(12))))
        #expect(protective.count == 1)
        // Friday 12-13, the roll day: the stop is cancelled and a market order sells the 2 contracts.
        let commands = engine.handle(.bar(Self.contract, ContractExpiryTests.bar(13)))
        #expect(commands.contains { if case let .cancel(id) = $0 { id == protective[0].id } else { false } })
        let exit = E.submitted(commands)
        #expect(exit.count == 1)
        #expect(exit.first?.side == .sell && exit.first?.quantity == Quantity(2) && exit.first?.type == .market)
        #expect(exit.first?.clientOrderID.rawValue.hasPrefix("EXPIRY-ESZ2013-") == true)
        // While it works, no second one; the rolled instrument is never closed for expiry.
        #expect(E.submitted(engine.handle(.bar(Self.contract, ContractExpiryTests.bar(16)))).isEmpty)
        #expect(E.submitted(engine.handle(.bar(Self.continuous, ContractExpiryTests.bar(16)))).isEmpty)
        _ = engine.handle(.execution(.filled(Fill(
            orderID: exit[0].id, instrument: Self.contract, side: .sell, quantity: Quantity(2), price: Price(1801),
            timestamp: Timestamp(year: 2013, month: 12, day: 16)))))
        #expect(engine.portfolio.position(for: Self.contract).isFlat)
        #expect(E.submitted(engine.handle(.bar(Self.contract, ContractExpiryTests.bar(17)))).isEmpty)
        #expect(engine.portfolio.position(for: Self.continuous).quantity == Quantity(1))
    }
}

extension ExpiryExitTests {
    /// The kill switch stops the strategy, not the exit from an expiring contract.
    @Test func theExitGoesWithTheKillSwitchEngaged() {
        let buy = StrategyAction.submit(.market(Self.contract, .buy, Quantity(1)))
        var engine = EngineCore(
            universe: ContractExpiryTests.universe, strategy: ScriptedStrategy([[buy]]),
            config: EngineConfig(initialCash: Money(1_000_000)))
        let entry = E.submitted(engine.handle(.bar(Self.contract, ContractExpiryTests.bar(12))))
        _ = engine.handle(.execution(.filled(Fill(
            orderID: entry[0].id, instrument: Self.contract, side: .buy, quantity: Quantity(1), price: Price(1800),
            timestamp: Timestamp(year: 2013, month: 12, day: 12)))))
        _ = engine.handle(.killSwitch(engaged: true))
        let exit = E.submitted(engine.handle(.bar(Self.contract, ContractExpiryTests.bar(13))))
        #expect(exit.map(\.side) == [.sell] && exit.first?.quantity == Quantity(1))
    }
}

/// IDEALPRO's published order sizes (EUR: 20,000 to 6,000,000): an entry of the minimum goes, one below it is refused
/// with the reason, and an exit below it goes.
@Suite struct ForexOrderSizeTests {
    static let pair = InstrumentID(0)

    static func bar(_ minute: Int64) -> Bar {
        Bar(timestamp: E.time(minute), open: Price("1.1")!, high: Price("1.1")!, low: Price("1.1")!, close: Price("1.1")!,
            volume: Quantity(1_000))
    }

    static func order(_ side: Side, _ quantity: Int64) -> StrategyAction { .submit(.market(Self.pair, side, Quantity(quantity))) }

    @Test func theMinimumGoesAndBelowItIsRefused() {
        var engine = EngineCore(
            universe: Universe(symbols: ["EUR.USD"]),
            strategy: ScriptedStrategy([[Self.order(.buy, 19_999)], [Self.order(.buy, 20_000)], [Self.order(.sell, 5_000)],
                                        [Self.order(.buy, 6_000_001)]]),
            config: EngineConfig(initialCash: Money(100_000_000)))
        #expect(E.submitted(engine.handle(.bar(Self.pair, Self.bar(0)))).isEmpty)
        #expect(engine.denials.last?.denial.detail
            == "EUR.USD order of 19999 EUR is below IDEALPRO's minimum of 20000 EUR (IB would route it to IDEAL, its odd-lot venue, at wider prices)")
        let entry = E.submitted(engine.handle(.bar(Self.pair, Self.bar(1))))
        #expect(entry.map(\.quantity) == [Quantity(20_000)])
        _ = engine.handle(.execution(.filled(Fill(
            orderID: entry[0].id, instrument: Self.pair, side: .buy, quantity: Quantity(20_000), price: Price("1.1")!,
            timestamp: E.time(1)))))
        // Selling 5,000 of the 20,000 held reduces the position: it goes.
        #expect(E.submitted(engine.handle(.bar(Self.pair, Self.bar(2)))).map(\.quantity) == [Quantity(5_000)])
        #expect(E.submitted(engine.handle(.bar(Self.pair, Self.bar(3)))).isEmpty)
        #expect(engine.denials.last?.denial.detail.contains("above IDEALPRO's maximum of 6000000 EUR") == true)
        #expect(engine.denialCounts[.forexOrderSize] == 2)
    }
}
