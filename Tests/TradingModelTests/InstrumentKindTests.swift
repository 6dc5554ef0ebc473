import Testing
import TradingModel

@Suite struct InstrumentKindTests {
    @Test(arguments: [
        ("ES 2026-12", "ES", 2026, 12), ("ESZ2026", "ES", 2026, 12), ("ESZ26", "ES", 2026, 12), ("es 202612", "ES", 2026, 12),
        ("MES 2027-03", "MES", 2027, 3), ("CL 2026-01", "CL", 2026, 1), ("GCX2013", "GC", 2013, 11), ("6E 2025-12", "6E", 2025, 12),
    ])
    func aFutureIsNamedAsAPersonWritesIt(text: String, root: String, year: Int, month: Int) throws {
        guard case let .future(contract) = try InstrumentKind.checked(text) else {
            Issue.record("\(text) is not read as a future")
            return
        }
        #expect(contract.spec.root == root)
        #expect(contract.month == ContractMonth(year: year, month: month))
        #expect(InstrumentKind(symbol: Symbol(text)) == .future(contract))
    }

    @Test func aContinuousFutureHasNoMonth() throws {
        guard case let .future(contract) = try InstrumentKind.checked("ES continuous") else {
            Issue.record("not a future")
            return
        }
        #expect(contract.month == nil)
        #expect(contract.description == "ES continuous")
        #expect(contract.lastTradingDay == nil)
    }

    @Test(arguments: [("EUR.USD", "EUR", "USD"), ("EUR/USD", "EUR", "USD"), ("EURUSD", "EUR", "USD"), ("usd.jpy", "USD", "JPY")])
    func aCurrencyPairIsBaseThenQuote(text: String, base: String, quote: String) throws {
        #expect(try InstrumentKind.checked(text) == .forex(CurrencyPair(base: base, quote: quote)!))
    }

    /// Two currencies make the pair the market quotes, whichever comes first: EUR before everything, JPY last.
    @Test(arguments: [
        ("USD", "EUR", "EUR.USD"), ("EUR", "USD", "EUR.USD"), ("JPY", "USD", "USD.JPY"), ("GBP", "EUR", "EUR.GBP"),
        ("CHF", "GBP", "GBP.CHF"), ("usd", "cad", "USD.CAD"), ("AUD", "NZD", "AUD.NZD"), ("HKD", "USD", "USD.HKD"),
        ("SEK", "NOK", "NOK.SEK"), ("JPY", "CHF", "CHF.JPY"),
    ])
    func theConventionalPairOfTwoCurrencies(a: String, b: String, pair: String) {
        #expect(CurrencyPair.conventional(a, b)?.description == pair)
    }

    @Test func noPairOfOneCurrencyOrAnUnknownOne() {
        #expect(CurrencyPair.conventional("USD", "USD") == nil)
        #expect(CurrencyPair.conventional("USD", "XYZ") == nil)
    }

    /// Tickers with a dot or a space, and one-word names that only look like a local symbol, stay stocks.
    @Test(arguments: ["AAPL", "BRK.B", "BRK B", "BF.B", "ES", "GOOGL", "SPY", "EUR.EUR", "ABCDEF", "VIX", "ESZ", "QQQ1"])
    func otherNamesAreStocks(text: String) throws {
        #expect(try InstrumentKind.checked(text) == .stock)
        #expect(InstrumentKind.problem(with: text) == nil)
    }

    @Test func aNameThatLooksLikeAFutureButIsNotOneSaysWhy() {
        #expect(InstrumentKind.problem(with: "XX 2026-12")?.contains("XX is not a futures root") == true)
        #expect(InstrumentKind.problem(with: "XX 2026-12")?.contains("ES, GC") == true)
        #expect(InstrumentKind.problem(with: "ES 2026-13")?.contains("YYYY-MM") == true)
        #expect(InstrumentKind.problem(with: "ES 2026-01") ==
            "'ES 2026-01': ES (E-mini S&P 500) is listed in March, June, September, December only")
        #expect(InstrumentKind.problem(with: "ES 1999-12")?.contains("2000-01 to 2199-12") == true)
    }

    /// A name's currency is the universe's question (`CurrencyConversion`), not the name's.
    @Test func anInstrumentPricedInAnotherCurrencyIsANameLikeAnyOther() {
        #expect(InstrumentKind.problem(with: "EUR.USD") == nil)
        #expect(InstrumentKind.problem(with: "USD.JPY") == nil)
        #expect(InstrumentKind.problem(with: "ES 2026-12") == nil)
    }

    @Test func termsFollowTheKind() {
        let es = Instrument(id: InstrumentID(0), symbol: "ES 2026-12")
        #expect(es.multiplier == 50)
        #expect(es.tickSize == Price("0.25"))
        #expect(es.currency == "USD")
        #expect(!es.kind.paysNotional)
        let pair = Instrument(id: InstrumentID(0), symbol: "EUR.USD")
        #expect(pair.multiplier == 1)
        #expect(pair.tickSize == Price("0.00005"))
        #expect(pair.kind.paysNotional)
        #expect(Instrument(id: InstrumentID(0), symbol: "USD.JPY").tickSize == Price("0.005"))
        let stock = Instrument(id: InstrumentID(0), symbol: "AAPL")
        #expect(stock.multiplier == 1 && stock.tickSize == Price("0.01") && stock.currency == "USD")
        #expect(FutureContract(spec: FutureSpec.known["ES"]!, month: ContractMonth(year: 2026, month: 12)).localSymbol == "ESZ6")
    }

    /// Each product's last trading day against the exchange's published dates: the ES and GC expiries in the names of
    /// QuantConnect/Lean's sample files (the bundled `futures` set's provenance), and CME's calendar for the others.
    @Test(arguments: [
        ("ESZ2013", "2013-12-20"), ("ESH2014", "2014-03-21"), ("ESM2014", "2014-06-20"), ("ESU2014", "2014-09-19"),
        ("ESZ2014", "2014-12-19"), ("ESH2020", "2020-03-20"), ("ESM2020", "2020-06-19"), ("ESU2020", "2020-09-18"),
        ("GCV2013", "2013-10-29"), ("GCX2013", "2013-11-26"), ("GCZ2013", "2013-12-27"), ("GCG2014", "2014-02-26"),
        ("GCJ2014", "2014-04-28"), ("GCM2014", "2014-06-26"), ("GCQ2014", "2014-08-27"), ("GCV2014", "2014-10-29"),
        ("GCZ2014", "2014-12-29"), ("GCM2015", "2015-06-26"), ("GCZ2015", "2015-12-29"), ("GCM2016", "2016-06-28"),
        ("GCZ2016", "2016-12-28"), ("GCH2020", "2020-03-27"), ("GCJ2020", "2020-04-28"),
        // CME: crude's 25th on a holiday (Christmas 2025) and on a business day; Treasury notes; currencies; gas.
        ("CLF2026", "2025-12-19"), ("CLZ2025", "2025-11-20"), ("ZNZ2025", "2025-12-19"), ("6EZ2025", "2025-12-15"),
        ("NGF2026", "2025-12-29"),
    ])
    func lastTradingDays(name: String, date: String) throws {
        guard case let .future(contract) = try InstrumentKind.checked(name), let day = contract.lastTradingDay else {
            Issue.record("\(name) is not a contract month")
            return
        }
        let parts = date.split(separator: "-").compactMap { Int($0) }
        #expect(day == CivilDate.dayNumber(year: parts[0], month: parts[1], day: parts[2]), "\(name)")
    }

    @Test func contractMonthsParseAndStep() {
        #expect(ContractMonth("2026-12")?.wireText == "202612")
        #expect(ContractMonth("202603")?.description == "2026-03")
        #expect(ContractMonth("2026-3") == nil)
        #expect(ContractMonth("2026_12") == nil)
        #expect(ContractMonth(year: 2026, month: 12)?.next == ContractMonth(year: 2027, month: 1))
        #expect(ContractMonth(year: 2027, month: 1)?.previous == ContractMonth(year: 2026, month: 12))
        #expect(ContractMonth(year: 2024, month: 2)?.dayCount == 29)
    }

    /// The cursor gives `frontMonth`'s answer day after day: ESZ2026 stops on Friday 2026-12-18, so from Friday 12-11
    /// (5 business days before) the front is March 2027; a day before its span is answered afresh.
    @Test func theFrontMonthCursorFollowsTheRolls() {
        var cursor = FrontMonthCursor(spec: FutureSpec.known["ES"]!, rollDays: 5)
        let day = { (d: Int) in CivilDate.dayNumber(year: 2026, month: 12, day: d) }
        #expect(cursor.month(onDay: day(1)).description == "2026-12")
        #expect(cursor.month(onDay: day(10)).description == "2026-12")
        #expect(cursor.month(onDay: day(11)).description == "2027-03")
        #expect(cursor.month(onDay: day(10)).description == "2026-12")
    }

    /// The trading day as CME Globex counts it, for the backtest and the bot alike: a daily bar's date is its own; an
    /// intraday time is its New York date, and from 18:00 New York (the evening session's open) the next day's, in
    /// winter and in summer. An hourly series never steps back a day (the midnight-UTC bar once counted as the next
    /// day, the bar after it as the day before: the backtest rolled five hours before the bot).
    @Test func theTradingDayStartsAtSixInTheEveningInNewYork() {
        let day = { (m: Int, d: Int) in CivilDate.dayNumber(year: 2026, month: m, day: d) }
        let at = { (m: Int, d: Int, h: Int, min: Int) in Timestamp(year: 2026, month: m, day: d, secondOfDay: Int64((h * 60 + min) * 60)) }
        // A daily bar at midnight UTC.
        #expect(FutureSpec.tradingDay(of: Timestamp(year: 2026, month: 12, day: 11)) == day(12, 11))
        #expect(FutureSpec.tradingDay(of: Timestamp(year: 2026, month: 7, day: 10)) == day(7, 10))
        // Winter (UTC−5): 17:59 New York is 22:59 UTC, still the 10th; 18:00 is the 11th's session.
        #expect(FutureSpec.tradingDay(of: at(12, 10, 22, 59)) == day(12, 10))
        #expect(FutureSpec.tradingDay(of: at(12, 10, 23, 0)) == day(12, 11))
        #expect(FutureSpec.tradingDay(of: at(12, 11, 4, 0)) == day(12, 11))
        #expect(FutureSpec.tradingDay(of: at(12, 11, 14, 30)) == day(12, 11))
        // Summer (UTC−4): 18:00 New York is 22:00 UTC.
        #expect(FutureSpec.tradingDay(of: at(7, 9, 21, 59)) == day(7, 9))
        #expect(FutureSpec.tradingDay(of: at(7, 9, 22, 0)) == day(7, 10))
        // Sunday evening's session is Monday's.
        #expect(FutureSpec.tradingDay(of: at(12, 13, 23, 0)) == day(12, 14))
        // Hourly bars over two days: the day never goes back.
        var previous = Int64.min
        for hour in 0..<48 {
            let time = Timestamp(year: 2026, month: 12, day: 10) + .seconds(Int64(hour) * 3600)
            let tradingDay = FutureSpec.tradingDay(of: time)
            #expect(tradingDay >= previous, "hour \(hour)")
            previous = tradingDay
        }
    }
}
