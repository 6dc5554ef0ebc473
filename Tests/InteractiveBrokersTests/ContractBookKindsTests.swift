import Testing
import TradingModel
import TWSProtocol

@testable import LiveSession

/// The contract IB is asked for follows the instrument's kind, and IB's own spelling of it maps back.
@Suite struct ContractBookKindsTests {
    static let book = ContractBook(universe: Universe(symbols: ["AAPL", "ES 2026-12", "ES 2027-03", "EUR.USD", "VIX"]))

    @Test func eachKindIsAskedForAsIBNamesIt() throws {
        let stock = try Self.book.contract(for: InstrumentID(0))
        #expect((stock.symbol, stock.securityType, stock.exchange, stock.currency) == ("AAPL", "STK", "SMART", "USD"))
        let future = try Self.book.contract(for: InstrumentID(1))
        #expect((future.symbol, future.securityType, future.exchange, future.currency) == ("ES", "FUT", "CME", "USD"))
        #expect(future.lastTradeDateOrContractMonth == "202612")
        #expect(future.multiplier == "50")
        let pair = try Self.book.contract(for: InstrumentID(3))
        #expect((pair.symbol, pair.securityType, pair.exchange, pair.currency) == ("EUR", "CASH", "IDEALPRO", "USD"))
        #expect(try Self.book.contract(for: InstrumentID(4)).securityType == "IND")
    }

    /// An execution or position names a future by its last trading day (`20261218`) and a pair by its base currency.
    @Test func reportsMapBackToTheirMonthAndPair() throws {
        var december = TWSContract(symbol: "ES", securityType: "FUT", exchange: "CME", currency: "USD")
        december.lastTradeDateOrContractMonth = "20261218"
        #expect(try Self.book.instrument(for: december) == InstrumentID(1))
        var march = december
        march.lastTradeDateOrContractMonth = "20270319"
        #expect(try Self.book.instrument(for: march) == InstrumentID(2))
        var june = december
        june.lastTradeDateOrContractMonth = "20270618"
        #expect(throws: IBMappingError.self) { try Self.book.instrument(for: june) }
        let pair = TWSContract(symbol: "EUR", securityType: "CASH", exchange: "IDEALPRO", currency: "USD")
        #expect(try Self.book.instrument(for: pair) == InstrumentID(3))
    }
}
