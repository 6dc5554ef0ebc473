import Testing
import TradingEngine
import TradingModel

/// An account in one currency trading instruments priced in another: their cash, value and exposure are booked in
/// their currency and converted at the latest close of the universe's pair of the two. Every figure is worked by hand.
@Suite struct MultiCurrencyPortfolioTests {
    static func fill(
        _ instrument: Int, _ side: Side, _ quantity: String, _ price: String, commission: String = "0"
    ) -> Fill {
        Fill(
            orderID: OrderID(1), instrument: InstrumentID(index: instrument), side: side, quantity: Quantity(quantity)!,
            price: Price(price)!, commission: Money(commission)!, timestamp: E.time(0))
    }

    /// Equity in the account's currency from the balances, by hand: cash + Σ balances × rate.
    static func checkConverted(_ p: Portfolio, sourceLocation: SourceLocation = #_sourceLocation) {
        var value = 0.0, gross = 0.0
        for (i, position) in p.positions.enumerated() {
            let rate = p.rate(for: position.instrument)
            value += position.carriedValue(at: p.marks[i]).doubleValue * rate
            gross += position.marketValue(at: p.marks[i]).magnitude.doubleValue * rate
        }
        #expect(abs(p.positionsValue.doubleValue - value) < 1e-6, sourceLocation: sourceLocation)
        #expect(abs(p.grossExposure.doubleValue - gross) < 1e-6, sourceLocation: sourceLocation)
        #expect(p.equity == p.cash + p.positionsValue, sourceLocation: sourceLocation)
    }

    /// An account in euros trading ES (in dollars), with EUR.USD giving the rate (one over its close).
    @Test func anAccountInEurosValuesAFutureInDollarsAtTheRate() {
        let universe = Universe(symbols: ["ES 2026-12", "EUR.USD"])
        var p = Portfolio(cash: Money(100_000), universe: universe, accountCurrency: "EUR")
        #expect(p.conversion.currencies == ["USD"])
        #expect(p.conversion.problem == nil)
        p.mark(InstrumentID(1), at: Price("1.25")!)
        #expect(p.rate(for: InstrumentID(0)) == 0.8)
        // 2 ES at 4,000, 4.50 commission in dollars: 3.60 euros.
        p.apply(Self.fill(0, .buy, "2", "4000", commission: "4.5"))
        #expect(p.balances[0].cash == Money("-4.5"))
        #expect(p.equity == Money("99996.4"))
        #expect(p.commissions == Money("3.6"))
        #expect(p.grossExposure == Money(320_000))  // 2 × 4,000 × 50 = 400,000 dollars at 0.8
        Self.checkConverted(p)
        // ES up 10: +1,000 dollars, +800 euros.
        p.mark(InstrumentID(0), at: Price(4010))
        #expect(p.equity == Money("100796.4"))
        Self.checkConverted(p)
        // The euro rises to 1.60 dollars: the dollars held (995.50) are worth 622.1875 euros.
        p.mark(InstrumentID(1), at: Price("1.6")!)
        #expect(p.rate(for: InstrumentID(0)) == 0.625)
        #expect(p.equity == Money("100622.1875"))
        #expect(p.grossExposure == Money(250_625))  // 401,000 dollars at 0.625
        Self.checkConverted(p)
        // A close of zero is no rate: the last one stays.
        p.mark(InstrumentID(1), at: .zero)
        #expect(p.rate(for: InstrumentID(0)) == 0.625)
        p.mark(InstrumentID(1), at: Price("1.6")!)
        // Sold at 4,020: 2,000 dollars realized, 1,250 euros.
        p.apply(Self.fill(0, .sell, "2", "4020", commission: "4.5"))
        #expect(p.realizedPnL == Money(1_250))
        #expect(p.positions[0].realizedPnL == Money(2_000))  // the position's own figure stays in dollars
        #expect(p.balances[0].cash == Money(1_991))  // 2,000 − 9
        #expect(p.equity == Money("101244.375"))  // 100,000 + 1,991 × 0.625
        #expect(p.grossExposure == .zero)
        Self.checkConverted(p)
    }

    /// An account in dollars trading USD.JPY (priced in yen): the pair is its own rate, inverted. Long 100,000
    /// dollars at 110 yen, marked at 111: 100,000 yen of profit, 900.90 dollars at the new rate.
    @Test func aPairPricedInAnotherCurrencyIsItsOwnRate() {
        let universe = Universe(symbols: ["USD.JPY"])
        var p = Portfolio(cash: Money(1_000_000), universe: universe)
        #expect(p.conversion.currencies == ["JPY"])
        #expect(p.conversion.rateInverted == [true])
        p.mark(InstrumentID(0), at: Price(110))
        p.apply(Self.fill(0, .buy, "100000", "110"))
        #expect(p.balances[0].cash == Money(-11_000_000))
        #expect(p.balances[0].value == Money(11_000_000))
        #expect(p.equity == Money(1_000_000))
        p.mark(InstrumentID(0), at: Price(111))
        #expect(abs(p.equity.doubleValue - (1_000_000 + 100_000.0 / 111)) < 1e-6)
        Self.checkConverted(p)
        #expect(abs(p.exposure(of: InstrumentID(0), quantity: Quantity(100_000).units).doubleValue - 100_000) < 1e-6)
    }

    /// Beside an instrument in another currency, one in the account's own is marked as ever: AAPL held in a dollar
    /// account that also trades USD.JPY moves equity by its own price move, unconverted.
    @Test func anInstrumentInTheAccountsCurrencyIsMarkedUnconvertedBesideOthers() {
        var p = Portfolio(cash: Money(100_000), universe: Universe(symbols: ["AAPL", "USD.JPY"]))
        p.mark(InstrumentID(1), at: Price(150))
        p.apply(Self.fill(0, .buy, "100", "200", commission: "1"))
        #expect(p.equity == Money(99_999))
        p.mark(InstrumentID(0), at: Price(210))
        #expect(p.equity == Money(100_999))  // + 100 × 10
        #expect(p.grossExposure == Money(21_000))
        Self.checkConverted(p)
        p.mark(InstrumentID(1), at: Price(160))  // the yen moves; AAPL's dollars do not
        #expect(p.equity == Money(100_999))
    }

    /// A dollar account's stocks and a pair quoted in dollars need no conversion: the single-currency path.
    @Test func oneCurrencyConvertsNothing() {
        let p = Portfolio(cash: Money(1_000), universe: Universe(symbols: ["AAPL", "EUR.USD", "ES 2026-12"]))
        #expect(p.conversion.isSingleCurrency)
        #expect(!p.hasForeign)
        #expect(p.balances.isEmpty)
    }

    /// The universe must hold a pair of the two currencies; which one, and which way round, is read from it.
    @Test func aCurrencyWithoutAPairIsRefusedWithTheFix() {
        let lone = CurrencyConversion(universe: Universe(symbols: ["ES continuous", "AAPL"]), accountCurrency: "EUR")
        #expect(lone.problem == "'ES continuous', 'AAPL' are priced in USD and the account is in EUR: the rate needs "
            + "USD.EUR or EUR.USD bars (in the universe, or in the data beside the others: a backtest loads the pair "
            + "for its rate alone)")
        let paired = CurrencyConversion(universe: Universe(symbols: ["ES continuous", "EUR.USD"]), accountCurrency: "EUR")
        #expect(paired.problem == nil)
        #expect(paired.rateFor == [0, 1] && paired.rateInverted == [false, true])
        let gbp = CurrencyConversion(universe: Universe(symbols: ["EUR.GBP", "GBP.USD"]), accountCurrency: "USD")
        #expect(gbp.currencies == ["GBP"] && gbp.rateFor == [0, 1] && gbp.rateInverted == [false, false])
        #expect(gbp.problem == nil)
        // Two other currencies, each with its pair: directly (GBP.USD, EUR.USD) and inverted (USD.JPY, USD.CHF).
        let direct = CurrencyConversion(
            universe: Universe(symbols: ["EUR.GBP", "GBP.EUR", "GBP.USD", "EUR.USD"]), accountCurrency: "USD")
        #expect(direct.currencies == ["GBP", "EUR"] && direct.rateFor == [0, 0, 1, 2] && direct.problem == nil)
        let inverted = CurrencyConversion(universe: Universe(symbols: ["USD.JPY", "USD.CHF"]), accountCurrency: "USD")
        #expect(inverted.rateFor == [1, 2] && inverted.rateInverted == [true, true] && inverted.problem == nil)
        // A cross through a third currency does not count.
        let cross = CurrencyConversion(universe: Universe(symbols: ["EUR.GBP", "EUR.USD"]), accountCurrency: "USD")
        #expect(cross.problem?.hasPrefix("'EUR.GBP' is priced in GBP") == true)
    }

    /// A pair in the run only for its rate (`EngineConfig.rateOnlySymbols`) converts, but the strategy never sees its
    /// bars and an order for it is denied.
    @Test func aRateOnlyPairConvertsButIsNeverSeenOrTraded() {
        var config = EngineConfig(initialCash: Money(100_000))
        config.accountCurrency = "EUR"
        config.rateOnlySymbols = ["EUR.USD"]
        let eur = InstrumentID(index: 1)
        var engine = EngineCore(
            universe: Universe(symbols: ["ES 2026-12", "EUR.USD"]),
            strategy: ScriptedStrategy([[.submit(.market(eur, .buy, Quantity(25_000)))]]), config: config)
        _ = engine.handle(.bar(eur, E.bar(0, "1.25")))
        #expect(engine.strategy.seen.isEmpty)
        #expect(engine.portfolio.rate(for: InstrumentID(index: 0)) == 0.8)
        let commands = engine.handle(.bar(InstrumentID(index: 0), E.bar(1, "4000")))
        #expect(commands.isEmpty)
        let bars = engine.strategy.seen.compactMap { event -> InstrumentID? in
            if case let .bar(id, _) = event { return id }
            return nil
        }
        #expect(bars == [InstrumentID(index: 0)])
        #expect(engine.denials.first?.denial.detail.contains("EUR.USD is in the run only for its rate") == true)
    }

    /// A restart's balances (`restoreBalances`): each currency's cash in it, the total at the latest rate, and the
    /// realized P&L the books imply with a position's cost in its currency converted (here: 100 dollars realized on
    /// AAPL, 80 euros at 0.8).
    @Test func restoredBalancesConvertAndImplyTheRealizedPnL() {
        let universe = Universe(symbols: ["AAPL", "EUR.USD"])
        var p = Portfolio(cash: Money(100_000), universe: universe, accountCurrency: "EUR")
        p.mark(InstrumentID(1), at: Price("1.25")!)
        p.apply(Self.fill(0, .buy, "20", "100"))
        p.apply(Self.fill(0, .sell, "10", "110"))
        #expect(p.realizedPnL == Money(80))
        #expect(p.impliedRealizedPnL == Money(80))
        #expect(p.homeCash == Money(100_000))
        #expect(p.foreignCash == ["USD": Money(-900)])

        var restored = Portfolio(cash: Money(100_000), universe: universe, accountCurrency: "EUR")
        restored.mark(InstrumentID(1), at: Price("1.25")!)
        restored.apply(Self.fill(0, .buy, "10", "100"))  // the adopted position at its cost
        restored.restoreBalances(cash: Money(100_000), foreign: ["USD": Money(-900)], commissions: .zero)
        #expect(restored.cash == p.cash && restored.equity == p.equity)
        #expect(restored.homeCash == Money(100_000) && restored.foreignCash == ["USD": Money(-900)])
        #expect(restored.impliedRealizedPnL == Money(80))
        // The rate moves the restored dollars as it moves the run's.
        restored.mark(InstrumentID(1), at: Price("1.5")!)
        p.mark(InstrumentID(1), at: Price("1.5")!)
        #expect(restored.cash == p.cash && restored.equity == p.equity)
        Self.checkConverted(restored)
    }
}
