import Testing
import TradingModel

/// IB's local symbols of futures (`ESZ6`, `MESM6`): the root, the month's code, the year's last digit, read against
/// the session's time.
@Suite struct FutureLocalSymbolTests {
    /// 2026-04-15 12:00 UTC, the day of the recorded MES campaign.
    static let april2026 = Timestamp(seconds: 1_776_254_400)

    static func time(_ year: Int, _ month: Int, _ day: Int, hour: Int64 = 15) -> Timestamp {
        Timestamp(nanoseconds: CivilDate.dayNumber(year: year, month: month, day: day) * Timestamp.nanosecondsPerDay)
            + .seconds(hour * 3600)
    }

    @Test(arguments: [("MESM6", "MES", 6, 6), ("esz6", "ES", 12, 6), ("6EH7", "6E", 3, 7), ("M2KU0", "M2K", 9, 0)])
    func readsRootMonthAndDigit(text: String, root: String, month: Int, digit: Int) throws {
        let local = try #require(FutureLocalSymbol(text))
        #expect(local.root == root && local.month == month && local.yearDigit == digit)
        #expect(local.description == text.uppercased())
    }

    @Test(arguments: ["AAPL", "ESZ26", "ESZ2026", "ES 2026-12", "EUR.USD", "EURUSD", "Z6", "BRK.B", "ESA6", "123Z6", "QQQ"])
    func otherNamesAreNotLocalSymbols(text: String) {
        #expect(FutureLocalSymbol(text) == nil)
    }

    @Test func theDecadeIsTheNearestContractNotYetExpired() throws {
        let now = Self.april2026
        #expect(try FutureLocalSymbol("MESM6")!.contract(at: now).description == "MES 2026-06")
        #expect(try FutureLocalSymbol("ESZ6")!.contract(at: now).description == "ES 2026-12")
        #expect(try FutureLocalSymbol("ESH7")!.contract(at: now).description == "ES 2027-03")
        // March 2026 expired on its third Friday (2026-03-20): the symbol names March 2036, which IB does not list yet.
        #expect(try FutureLocalSymbol("ESH6")!.contract(at: now).description == "ES 2036-03")
        #expect(try FutureLocalSymbol("ESZ5")!.contract(at: now).description == "ES 2035-12")
        // The bundled data's months, read in their own time.
        #expect(try FutureLocalSymbol("ESZ3")!.contract(at: Self.time(2013, 11, 1)).description == "ES 2013-12")
        #expect(try FutureLocalSymbol("ESH4")!.contract(at: Self.time(2013, 11, 1)).description == "ES 2014-03")
    }

    @Test func aContractIsItsMonthUpToItsLastTradingDay() throws {
        // ES December 2026 last trades on Friday 2026-12-18.
        #expect(try FutureLocalSymbol("ESZ6")!.contract(at: Self.time(2026, 12, 18)).description == "ES 2026-12")
        #expect(try FutureLocalSymbol("ESZ6")!.contract(at: Self.time(2026, 12, 21)).description == "ES 2036-12")
    }

    @Test func anUnknownRootIsAnErrorNamingIt() {
        #expect(throws: InstrumentNameError.unknownRoot("XXZ6", root: "XX")) { try FutureLocalSymbol("XXZ6")!.contract(at: Self.april2026) }
        #expect(throws: InstrumentNameError.unknownRoot("XXZ6", root: "XX")) { try InstrumentKind.checked("xxz6", at: Self.april2026) }
        #expect(InstrumentNameError.unknownRoot("XXZ6", root: "XX").description.hasPrefix("'XXZ6': XX is not a futures root"))
    }

    @Test func aMonthTheProductIsNotListedInIsRefused() {
        guard let es = FutureSpec.known["ES"] else { return }
        #expect(throws: InstrumentNameError.unlistedMonth("ESF7", spec: es)) { try FutureLocalSymbol("ESF7")!.contract(at: Self.april2026) }
    }

    @Test func theManualToolsReadEveryNameTheBotReadsAndLocalSymbols() throws {
        let now = Self.april2026
        let es = try #require(FutureSpec.known["ES"])
        let december = FutureContract(spec: es, month: ContractMonth(year: 2026, month: 12))
        for name in ["ES 2026-12", "ESZ26", "ESZ2026", "ESZ6", "esz6"] {
            #expect(try InstrumentKind.checked(name, at: now) == .future(december), "\(name)")
        }
        #expect(try InstrumentKind.checked("EURUSD", at: now) == .forex(CurrencyPair(base: "EUR", quote: "USD")!))
        #expect(try InstrumentKind.checked("AAPL", at: now) == .stock)
        // The bot's own reading (no time) keeps a one-digit local symbol a stock's name, as before.
        #expect(InstrumentKind(symbol: "ESZ6") == .stock)
    }
}
