import Simulation
import Testing
import TradingModel

/// Issue 80: IBKR charges a schedule's minimum and maximum once per order, across its partial fills, not once per
/// execution ("Minimum per order", "Maximum per order": interactivebrokers.com, "Commissions Stocks"; the forex
/// minimum likewise). Each fill pays the order's charge so far less what its earlier fills paid, so an order's fills
/// add up to the charge of its whole quantity. Every test here fails with the former per-execution charge.
@Suite struct PerOrderCommissionTests {
    /// Fills of one order, in parts of `parts` (quantities), all at `price` on the test day.
    func charges(
        _ model: CommissionModel, parts: [Int64], price: String, kind: InstrumentKind = .stock
    ) -> [Money] {
        charges(model, parts: parts, at: Price(price)!, kind: kind)
    }

    func charges(_ model: CommissionModel, parts: [Int64], at price: Price, kind: InstrumentKind) -> [Money] {
        var calculator = CommissionCalculator(model: model)
        var order = OrderCommission()
        return parts.enumerated().map { minute, shares in
            calculator.commission(
                quantity: Quantity(shares), price: price, at: T.time(Int64(minute)), kind: kind, order: &order)
        }
    }

    /// The acceptance: one 100-share order at IB's fixed schedule (0.50 at 0.005 a share, so the 1.00
    /// minimum) pays 1.00 in all, filled at once or in ten parts: the first part pays the minimum, the others nothing.
    @Test func aTenPartOrderPaysTheFixedMinimumOnce() {
        let parts = charges(.ibkrFixedDefault, parts: Array(repeating: 10, count: 10), price: "50")
        #expect(parts == [Money(1)] + Array(repeating: Money.zero, count: 9), "\(parts)")
        #expect(parts.reduce(Money.zero, +) == charges(.ibkrFixedDefault, parts: [100], price: "50")[0])
        // Above the minimum, the parts pay the per-share rate past it: 1,000 shares in four parts pay 5.00 in all.
        let large = charges(.ibkrFixedDefault, parts: [100, 200, 300, 400], price: "50")
        #expect(large == [Money(1), Money("0.5")!, Money("1.5")!, Money(2)], "\(large)")
    }

    /// The same, through the matching engine that both the backtest and the gateway simulator use: a 100-share
    /// market order that a 10 % volume cap fills 10 shares a bar pays 1.00 across its ten fills.
    @Test func theMatchingEngineChargesTheMinimumOncePerOrder() {
        var h = Harness(SimulationConfig(commission: .ibkrFixedDefault, maxVolumeParticipation: 0.1))
        h.submit(T.order(1, .buy, 100))
        var fills: [Fill] = []
        for minute in 1...12 { fills += T.fills(h.feed(T.bar(Int64(minute), "50", "51", "49", "50", volume: 100))) }
        #expect(fills.count == 10)
        #expect(fills.map(\.quantity) == Array(repeating: Quantity(10), count: 10))
        #expect(fills.map(\.commission) == [Money(1)] + Array(repeating: Money.zero, count: 9))
        // A second order starts its own count: it pays its own minimum.
        h.submit(T.order(2, .sell, 10), at: 12)
        let exit = T.fills(h.feed(T.bar(13, "50", "51", "49", "50", volume: 100)))
        #expect(exit.map(\.commission) == [Money(1)])
    }

    /// Tiered: the 0.35 minimum is charged once per order (four 25-share parts of a 100-share order pay 0.35, not
    /// 1.40), and past it each part pays its shares at the band's rate.
    @Test func theTieredMinimumIsChargedOncePerOrder() {
        let parts = charges(.ibkrTieredDefault, parts: [25, 25, 25, 25], price: "50")
        #expect(parts == [Money("0.35")!, .zero, .zero, .zero], "\(parts)")
        // 200 shares at 0.0035 are 0.70: the parts pay 0.35, nothing, then 0.175 and 0.175 above the minimum.
        let more = charges(.ibkrTieredDefault, parts: [50, 50, 50, 50], price: "50")
        #expect(more == [Money("0.35")!, .zero, Money("0.175")!, Money("0.175")!], "\(more)")
        #expect(more.reduce(Money.zero, +) == Money("0.70")!)
    }

    /// The 1 % cap applies to the order's whole trade value: 200 shares at 0.80 (value 160, cap 1.60, 1.00 at the
    /// rate and minimum) pay 1.00 in all. The first parts are capped at 1 % of their value (0.40 each, below the
    /// minimum); the third crosses to the minimum (0.20 more) and the fourth pays nothing. Per execution they paid
    /// 0.40 each, 1.60.
    @Test func anOrderWhosePartsCrossTheCapPaysTheOrdersCharge() {
        let fixed = charges(.ibkrFixedDefault, parts: [50, 50, 50, 50], price: "0.80")
        #expect(fixed == [Money("0.40")!, Money("0.40")!, Money("0.20")!, .zero], "\(fixed)")
        #expect(fixed.reduce(Money.zero, +) == charges(.ibkrFixedDefault, parts: [200], price: "0.80")[0])
        // Tiered: 0.0035 × 200 = 0.70 is above the 0.35 minimum and below the 1.60 cap; the first part's cap (0.40) is
        // above the minimum, so it pays 0.35, then nothing, then 0.175 twice up to 0.70.
        let tiered = charges(.ibkrTieredDefault, parts: [50, 50, 50, 50], price: "0.80")
        #expect(tiered == [Money("0.35")!, .zero, Money("0.175")!, Money("0.175")!], "\(tiered)")
        // 10,000 shares at 0.10 in four parts: the cap (1 % of 1,000 = 10.00) binds on every part's total.
        let penny = charges(.ibkrFixedDefault, parts: [2_500, 2_500, 2_500, 2_500], price: "0.10")
        #expect(penny == Array(repeating: Money("2.5")!, count: 4), "\(penny)")
    }

    /// A currency pair's 2.00 minimum is per order too (IBKR, "Commissions Forex"): 50,000 EUR.USD at 1.1 (0.2 bp
    /// of 55,000 is 1.10) in five parts pays 2.00 once, and a large order's parts pay 0.2 bp past it. A future's
    /// 2.25 a contract has no minimum: its parts add up to the whole order's.
    @Test func currencyMinimumsOncePerOrderAndFuturesPerContract() {
        let eur = InstrumentKind(symbol: "EUR.USD")
        let es = InstrumentKind(symbol: "ES 2026-12")
        for model in [CommissionModel.ibkrFixedDefault, .ibkrTieredDefault] {
            let small = charges(model, parts: Array(repeating: 10_000, count: 5), price: "1.1", kind: eur)
            #expect(small == [Money(2), .zero, .zero, .zero, .zero], "\(model): \(small)")
            // 20,000,000 at 1.1 = 440 in all: the minimum, then 0.2 bp of the order's value past it.
            let large = charges(model, parts: [50_000, 9_950_000, 10_000_000], price: "1.1", kind: eur)
            #expect(large == [Money(2), Money(218), Money(220)], "\(model): \(large)")
            let contracts = charges(model, parts: [1, 1, 3], price: "6000", kind: es)
            #expect(contracts == [Money("2.25")!, Money("2.25")!, Money("6.75")!], "\(model): \(contracts)")
        }
        // A percentage schedule has no minimum: its parts add up to the percentage of the order's value.
        let percent = charges(.percentage(0.1), parts: [1, 2, 7], price: "33.33")
        #expect(percent.reduce(Money.zero, +) == Money("0.3333")!, "\(percent)")
    }

    /// IBKR bills a modified order, and one that persists overnight, as a new order ("Modified orders will be treated
    /// as the cancellation and replacement of an existing order with a new order"; "Orders that persist overnight will
    /// be considered a new order"): each starts a new minimum.
    @Test func aModificationOrANewDayStartsANewOrder() {
        var h = Harness(SimulationConfig(commission: .ibkrFixedDefault, maxVolumeParticipation: 0.1))
        h.submit(T.order(1, .buy, 100))
        var fills = T.fills(h.feed(T.bar(1, "50", "51", "49", "50", volume: 100)))
        fills += T.fills(h.feed(T.bar(2, "50", "51", "49", "50", volume: 100)))
        h.engine.modify(
            OrderID(1), OrderModification(quantity: Quantity(90)), context: (filled: Quantity(20), now: T.time(2)),
            into: &h.reports)
        fills += T.fills(h.feed(T.bar(3, "50", "51", "49", "50", volume: 100)))
        fills += T.fills(h.feed(T.bar(4, "50", "51", "49", "50", volume: 100)))
        // The next day: a new order again.
        fills += T.fills(h.feed(T.bar(5, "50", "51", "49", "50", volume: 100, day: T.day + 1)))
        #expect(fills.map(\.quantity) == Array(repeating: Quantity(10), count: 5))
        #expect(fills.map(\.commission) == [Money(1), .zero, Money(1), .zero, Money(1)], "\(fills.map(\.commission))")
    }

    /// Whatever the parts, an order's fills add up to the schedule's charge of one execution of its whole quantity
    /// (same day, no modification, one price), and no part pays less than nothing.
    @Test func partsAlwaysAddUpToTheWholeOrder() {
        var state: UInt64 = 80
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        let kinds = [InstrumentKind.stock, InstrumentKind(symbol: "ES 2026-12"), InstrumentKind(symbol: "EUR.USD")]
        for model in [CommissionModel.ibkrFixedDefault, .ibkrTieredDefault, .percentage(0.05)] {
            for _ in 0..<300 {
                let kind = kinds[Int(next(3))]
                let price = Price(units: Int64(next(20_000) + 1) * 1_000_000)
                let parts = (0..<(next(6) + 1)).map { _ in Int64(next(3_000)) + 1 }
                let charged = charges(model, parts: parts, at: price, kind: kind)
                let whole = charges(model, parts: [parts.reduce(0, +)], at: price, kind: kind)[0]
                #expect(charged.allSatisfy { $0 >= .zero }, "\(model) \(kind) \(parts) at \(price): \(charged)")
                #expect(charged.reduce(Money.zero, +) == whole, "\(model) \(kind) \(parts) at \(price)")
            }
        }
    }
}
