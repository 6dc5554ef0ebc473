import Simulation
import Testing
import TradingModel

@Suite struct CostModelTests {
    func commission(_ model: CommissionModel, shares: Int64, price: String) -> Money {
        var c = CommissionCalculator(model: model)
        return c.commission(quantity: Quantity(shares), price: Price(price)!, at: T.time(0))
    }

    @Test func ibkrFixedAppliesMinimumRateAndCap() {
        #expect(commission(.ibkrFixedDefault, shares: 100, price: "50") == Money(1))  // 0.50 → min 1.00
        #expect(commission(.ibkrFixedDefault, shares: 1_000, price: "50") == Money(5))  // 0.005 × 1000
        #expect(commission(.ibkrFixedDefault, shares: 1_000, price: "0.10") == Money(1))  // cap 1 % of 100 = 1.00
        #expect(commission(.ibkrFixedDefault, shares: 10_000, price: "0.10") == Money(10))  // 50 capped at 10
    }

    /// Issue 27 (a survived mutation): IB's cap of 1 % of the trade value wins over the minimum, so a small trade
    /// never pays the minimum in full (IBKR's published rule: "minimum per order … maximum 1 % of trade value").
    @Test func theOnePercentCapWinsOverTheMinimum() {
        #expect(commission(.ibkrFixedDefault, shares: 10, price: "5") == Money("0.50")!)  // min 1.00, cap 0.50
        #expect(commission(.ibkrTieredDefault, shares: 1, price: "10") == Money("0.10")!)  // min 0.35, cap 0.10
    }

    @Test func ibkrTieredUsesMonthToDateVolume() {
        var c = CommissionCalculator(model: .ibkrTieredDefault)
        let jan = T.time(0)
        #expect(c.commission(quantity: Quantity(100), price: Price(50), at: jan) == Money("0.35")!)  // min
        #expect(c.commission(quantity: Quantity(299_900), price: Price(50), at: jan) == Money("1049.65")!)
        // 300,000 shares this month: the next execution pays 0.002.
        #expect(c.commission(quantity: Quantity(1_000), price: Price(50), at: jan) == Money(2))
        // A new month resets the volume.
        let feb = Timestamp(year: 2020, month: 2, day: 3)
        #expect(c.commission(quantity: Quantity(1_000), price: Price(50), at: feb) == Money("3.5")!)
    }

    /// IBKR charges a future per contract and a currency trade 0.2 basis points of its value, at least 2.00, under
    /// either stock schedule; a percentage schedule charges a future's contract value.
    @Test func futuresPayPerContractAndCurrenciesByValue() {
        let es = InstrumentKind(symbol: "ES 2026-12")
        let eur = InstrumentKind(symbol: "EUR.USD")
        for model in [CommissionModel.ibkrFixedDefault, .ibkrTieredDefault] {
            var c = CommissionCalculator(model: model)
            #expect(c.commission(quantity: Quantity(2), price: Price(6000), at: T.time(0), kind: es) == Money("4.5")!)
            // 25,000 × 1.1 = 27,500: 0.55 at 0.2 bp, so the minimum.
            #expect(c.commission(quantity: Quantity(25_000), price: Price("1.1")!, at: T.time(0), kind: eur) == Money(2))
            // 20,000,000 × 1.1 = 22,000,000: 440.
            #expect(c.commission(quantity: Quantity(20_000_000), price: Price("1.1")!, at: T.time(0), kind: eur) == Money(440))
        }
        var percent = CommissionCalculator(model: .percentage(0.01))
        // 1 × 6,000 × 50 = 300,000 of contract value: 30.
        #expect(percent.commission(quantity: Quantity(1), price: Price(6000), at: T.time(0), kind: es) == Money(30))
        var none = CommissionCalculator(model: CommissionModel.none)
        #expect(none.commission(quantity: Quantity(1), price: Price(6000), at: T.time(0), kind: es) == .zero)
    }

    /// The risk check's reserve (`CommissionModel.reserve`) is never below what the schedule then charges, for any
    /// size, price and kind (Tiered at any month-to-date volume), and close to it: the fixed schedule's exactly (a
    /// cent's rounding up of the 1 % cap apart), so an entry is not cut by more than its own commission.
    @Test func theReserveBoundsEveryCharge() {
        let kinds = [InstrumentKind.stock, InstrumentKind(symbol: "ES 2026-12"), InstrumentKind(symbol: "EUR.USD")]
        var state: UInt64 = 12_345
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        for model in [CommissionModel.ibkrFixedDefault, .ibkrTieredDefault, .percentage(0.2), .none] {
            var calculator = CommissionCalculator(model: model)
            for _ in 0..<2_000 {
                let kind = kinds[Int(next(3))]
                let quantity = Quantity(Int64(next(50_000)) + 1)
                let price = Price(units: Int64(next(500_000)) * 1_000_000 + 1_000_000)
                let charged = calculator.commission(quantity: quantity, price: price, at: T.time(0), kind: kind)
                let reserved = model.reserve.amount(quantity: quantity, price: price, kind: kind)
                #expect(reserved >= charged, "\(model) \(kind) \(quantity) at \(price): \(reserved) < \(charged)")
                if case .ibkrFixed = model {
                    #expect(reserved.units - charged.units <= 1, "\(kind) \(quantity) at \(price)")
                }
            }
        }
        #expect(CommissionModel.none.reserve.isNone)
        #expect(CommissionModel.none.reserve.amount(quantity: Quantity(100), price: Price(50), kind: .stock) == .zero)
    }

    /// Futures volume does not count towards the stock Tiered schedule's monthly shares.
    @Test func futuresDoNotMoveTheStockTier() {
        var c = CommissionCalculator(model: .ibkrTieredDefault)
        _ = c.commission(quantity: Quantity(400_000), price: Price(6000), at: T.time(0), kind: InstrumentKind(symbol: "ES 2026-12"))
        #expect(c.commission(quantity: Quantity(1_000), price: Price(50), at: T.time(0)) == Money("3.5")!)
    }

    @Test func percentageOfValue() {
        #expect(commission(.percentage(0.1), shares: 200, price: "25") == Money(5))
    }

    @Test func slippageModels() {
        #expect(SlippageModel.fixedBasisPoints(10).apply(to: Price(100), side: .buy, volumeShare: 0) == Price("100.1")!)
        #expect(SlippageModel.fixedBasisPoints(10).apply(to: Price(100), side: .sell, volumeShare: 0) == Price("99.9")!)
        // 0.1 × 0.1² = 0.001 → 10 bp.
        #expect(SlippageModel.volumeShare(priceImpact: 0.1).apply(to: Price(100), side: .buy, volumeShare: 0.1)
            == Price("100.1")!)
    }

    @Test func slippageAppliesToMarketButNotLimitFills() {
        var h = Harness(SimulationConfig(slippage: .fixedBasisPoints(10), commission: .ibkrFixedDefault))
        h.submit(T.order(1, .buy, 1_000))
        h.submit(T.order(2, .buy, 1_000, .limit(Price(100))))
        let fills = T.fills(h.feed(T.bar(1, "100", "101", "99", "100")))
        #expect(fills.map(\.price) == [Price("100.1")!, Price(100)])
        #expect(fills.map(\.commission) == [Money(5), Money(5)])
    }

    /// A bar without volume (a halt, an illiquid minute) moves no price by volume share: the share of nothing is 0,
    /// not infinite. Both market fill timings: at the next bar's open, and at once at the last bar's close (found by
    /// generated mutations that survived: `> 0` made `>= 0`).
    @Test func aBarWithoutVolumeHasNoVolumeImpact() {
        let silent = T.bar(1, "100", "101", "99", "100", volume: 0)
        var next = Harness(SimulationConfig(marketFill: .nextOpen, slippage: .volumeShare(priceImpact: 0.1)))
        next.submit(T.order(1, .buy, 100))
        let atOpen = T.fills(next.feed(silent))
        #expect(atOpen.map(\.price) == [Price(100)] && atOpen.map(\.quantity) == [Quantity(100)], "\(atOpen)")
        var close = Harness(
            SimulationConfig(marketFill: .thisClose, slippage: .volumeShare(priceImpact: 0.1)), first: silent)
        close.submit(T.order(1, .buy, 100), at: 1)
        let atClose = T.fills(close.reports)
        #expect(atClose.map(\.price) == [Price(100)] && atClose.map(\.quantity) == [Quantity(100)], "\(atClose)")
    }

    /// A volume cap that leaves nothing (the bar had no volume) fills nothing: no zero-share fill; the order waits for
    /// a bar with volume. Both market fill timings.
    @Test func aCapThatLeavesNothingFillsNothing() {
        let silent = T.bar(1, "100", "101", "99", "100", volume: 0)
        let busy = T.bar(2, "100", "101", "99", "100", volume: 10_000)
        var next = Harness(SimulationConfig(marketFill: .nextOpen, maxVolumeParticipation: 0.1))
        next.submit(T.order(1, .buy, 100))
        #expect(T.fills(next.feed(silent)).isEmpty)
        #expect(T.fills(next.feed(busy)).map(\.quantity) == [Quantity(100)])
        var close = Harness(SimulationConfig(marketFill: .thisClose, maxVolumeParticipation: 0.1), first: silent)
        close.submit(T.order(1, .buy, 100), at: 1)
        #expect(T.fills(close.reports).isEmpty, "\(close.reports)")
        #expect(T.fills(close.feed(busy)).map(\.quantity).reduce(Quantity.zero, +) == Quantity(100))
    }
}
