import Simulation
import Testing
import TradingModel

/// The matching engine's buying-power check at the fill (`FundsAtFill`, `MatchingEngine.setFunds`), driven directly:
/// several fills of one matching call, a position already held, a close while the account is short of its rule, and
/// what a cut does to bracket children. Each test pins a rule a mutation of the check broke unseen
/// (docs/testing.md, mutation testing).
@Suite struct FundsAtFillMatchingTests {
    /// A harness whose next bar's fills are checked against `funds`.
    static func harness(_ funds: FundsAtFill, _ config: SimulationConfig = SimulationConfig()) -> Harness {
        var h = Harness(config)
        h.engine.setFunds(funds)
        return h
    }

    static func cuts(_ h: inout Harness) -> [FundsCut] { h.engine.takeFundsCuts() }

    @Test("a second buy in the same step is checked against what the first left, commission included")
    func secondBuyOfAStep() throws {
        // 10,000 cash; two market buys of 60 at the 100 open, $1 minimum commission each. The first leaves 3,999 cash,
        // 9,999 equity: the second pays 39 shares (39 × 100 + $1 = 3,901; 40 would be 4,001).
        var h = Self.harness(
            FundsAtFill(rule: .cash, cash: 10_000, equity: 10_000, grossExposure: 0, held: 0),
            SimulationConfig(commission: .ibkrFixedDefault))
        h.submit(T.order(1, .buy, 60))
        h.submit(T.order(2, .buy, 60))
        let reports = h.feed(T.bar(1, "100", "100", "100", "100", volume: 1_000_000))
        #expect(T.fills(reports).map(\.quantity) == [Quantity(60), Quantity(39)])
        #expect(T.canceled(reports).map(\.0) == [OrderID(2)])
        let cut = try #require(Self.cuts(&h).first)
        // The reason shows the account the first fill left: its commission came out of cash and equity.
        #expect(cut.reason.contains("cash 3999.00 and equity 9999.00"), "\(cut.reason)")
    }

    @Test("with leverage, adding to a held position counts only the added shares against margin")
    func addingToAHeldPosition() throws {
        // Long 100 at 100 bought with all the cash: equity 10,000, gross 10,000. Reg T 50 % allows gross 20,000:
        // 100 more shares, not the 150 asked.
        var h = Self.harness(FundsAtFill(rule: .margin(initial: 0.5), cash: 0, equity: 10_000, grossExposure: 10_000, held: 100))
        h.submit(T.order(1, .buy, 150))
        let reports = h.feed(T.bar(1, "100", "100", "100", "100", volume: 1_000_000))
        #expect(T.fills(reports).map(\.quantity) == [Quantity(100)])
        let cut = try #require(Self.cuts(&h).first)
        #expect(cut.filled == Quantity(100) && cut.asked == Quantity(150))
    }

    @Test("a sale that only closes a position fills whole and is not reported cut, even short of margin after it")
    func closeShortOfMarginIsNotACut() {
        // Two longs of 10,000 after a drop: equity 4,000 < 50 % of 20,000. Selling this one (100 at 100) leaves
        // gross 10,000 against 4,000 equity, still short of margin, but a close always goes through, whole.
        var h = Self.harness(FundsAtFill(
            rule: .margin(initial: 0.5), cash: -16_000, equity: 4_000, grossExposure: 20_000, held: 100))
        h.submit(T.order(1, .sell, 100))
        let reports = h.feed(T.bar(1, "100", "100", "100", "100", volume: 1_000_000))
        #expect(T.fills(reports).map(\.quantity) == [Quantity(100)])
        #expect(T.canceled(reports).isEmpty)
        #expect(Self.cuts(&h).isEmpty)
    }

    @Test("buying to cover a short and reverse, cash cut, still covers the whole short")
    func coverIsNeverCutBelowTheShort() throws {
        // Short 100 marked at 50 (cash 9,900, equity 4,900, gross 5,000); it gaps to 100. A buy of 150 covers and
        // goes long: cash pays 99 shares, but the 100 that cover the short always go through.
        var h = Self.harness(FundsAtFill(rule: .cash, cash: 9_900, equity: 4_900, grossExposure: 5_000, held: -100))
        h.submit(T.order(1, .buy, 150))
        let reports = h.feed(T.bar(1, "100", "100", "100", "100", volume: 1_000_000))
        #expect(T.fills(reports).map(\.quantity) == [Quantity(100)])
        let cut = try #require(Self.cuts(&h).first)
        #expect(cut.filled == Quantity(100))
    }

    @Test("a buy that covers a fractional short fills at least the whole share that covers it")
    func fractionalShortIsCovered() {
        // Short 0.99999999 shares (a split's remainder) at 100, whole-share trading: cash 150 pays one share, not
        // two. The one share that covers the fraction goes through; refusing it would leave the short open.
        var h = Self.harness(FundsAtFill(rule: .cash, cash: 150, equity: 50, grossExposure: 99.999999, held: -0.99999999))
        h.submit(T.order(1, .buy, 5))
        let reports = h.feed(T.bar(1, "100", "100", "100", "100", volume: 1_000_000))
        #expect(T.fills(reports).map(\.quantity) == [Quantity(1)])
    }

    @Test("the stop of a bracket entry cut at the fill works from the next bar, not the bar of the fill")
    func cutChildrenStartNextBar() {
        // 5,000 cash buys 50 of the 100 asked at the 100 open; the bar then trades down through the 90 stop.
        var h = Self.harness(FundsAtFill(rule: .cash, cash: 5_000, equity: 5_000, grossExposure: 0, held: 0))
        h.engine.submitBracket(
            parent: T.order(1, .buy, 100), children: [T.order(2, .sell, 100, .stop(Price("90")!), parent: 1)],
            at: T.time(0), into: &h.reports)
        let first = h.feed(T.bar(1, "100", "100", "80", "85", volume: 1_000_000))
        #expect(T.fills(first).map(\.orderID) == [OrderID(1)])
        #expect(T.fills(first).first?.quantity == Quantity(50))
        h.engine.clearFunds()
        let second = h.feed(T.bar(2, "85", "85", "85", "85", volume: 1_000_000))
        #expect(T.fills(second).map(\.orderID) == [OrderID(2)] && T.fills(second).first?.quantity == Quantity(50))
    }
}
