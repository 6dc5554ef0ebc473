import Foundation
import Testing
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

struct TWSTimeParserTests {
    struct Case: Sendable, CustomStringConvertible {
        var text: String
        var expected: String
        var description: String { text }
    }

    static let eastern = TimeZone(identifier: "US/Eastern")!

    static let cases: [Case] = [
        Case(text: "20240311 09:30:00 US/Eastern", expected: "2024-03-11T13:30:00Z"),  // EDT, day after the change
        Case(text: "20240308 09:30:00 US/Eastern", expected: "2024-03-08T14:30:00Z"),  // EST
        Case(text: "20241104 09:30:00 America/New_York", expected: "2024-11-04T14:30:00Z"),
        Case(text: "20241101 09:30:00 America/New_York", expected: "2024-11-01T13:30:00Z"),
        Case(text: "20240310 03:30:00 US/Eastern", expected: "2024-03-10T07:30:00Z"),  // first hour of EDT
        Case(text: "20240310 01:30:00 US/Eastern", expected: "2024-03-10T06:30:00Z"),  // last hour of EST
        Case(text: "20241103 01:30:00 US/Eastern", expected: "2024-11-03T05:30:00Z"),  // ambiguous: first (EDT)
        Case(text: "20240615 10:00:00 Europe/London", expected: "2024-06-15T09:00:00Z"),
        Case(text: "20240115 16:00:00 UTC", expected: "2024-01-15T16:00:00Z"),
        Case(text: "20240115 16:00:00 GMT", expected: "2024-01-15T16:00:00Z"),
        Case(text: "20240115-16:00:00", expected: "2024-01-15T16:00:00Z"),
        // From server version 214 UTC times carry a Z suffix, attached or after a space.
        Case(text: "20240115 16:00:00 Z", expected: "2024-01-15T16:00:00Z"),
        Case(text: "20240115 16:00:00Z", expected: "2024-01-15T16:00:00Z"),
        Case(text: "20240115-16:00:00Z", expected: "2024-01-15T16:00:00Z"),
        Case(text: "20240115  16:00:00", expected: "2024-01-15T16:00:00Z"),
        Case(text: "20240115", expected: "2024-01-15T00:00:00Z"),
        Case(text: "1705334400", expected: "2024-01-15T16:00:00Z"),
    ]

    @Test(arguments: cases) func parsesEveryFormToUTC(_ c: Case) throws {
        #expect(try TWSTimeParser.timestamp(c.text).description == c.expected)
    }

    /// The handshake's connection time names the login zone: an abbreviation, an IANA name, UTC, a Windows name
    /// (CLDR's table); a name this system does not know, or none, gives nil (the caller keeps UTC and says so).
    @Test func loginZoneComesFromTheConnectionTime() throws {
        let winter = "20240115  09:30:00"
        for text in ["20250115 09:30:00 US/Eastern", "20250115 09:30:00 EST", "20250115 09:30:00 Eastern Standard Time"] {
            let zone = try #require(TWSTimeParser.loginZone(ofConnectionTime: text), "\(text)")
            #expect(try TWSTimeParser.timestamp(winter, defaultZone: zone).description == "2024-01-15T14:30:00Z")
        }
        #expect(TWSTimeParser.loginZone(ofConnectionTime: "20250115 09:30:00 UTC") == TWSTimeParser.utc)
        #expect(TWSTimeParser.loginZone(ofConnectionTime: "20250115 09:30:00 Central European Standard Time") == TimeZone(identifier: "Europe/Warsaw"))
        #expect(TWSTimeParser.loginZone(ofConnectionTime: "20250115 09:30:00 Mitteleuropäische Zeit") == nil)
        #expect(TWSTimeParser.loginZoneName(ofConnectionTime: "20250115 09:30:00 Mitteleuropäische Zeit") == "Mitteleuropäische Zeit")
        #expect(TWSTimeParser.loginZone(ofConnectionTime: "20250115 09:30:00") == nil)
        #expect(TWSTimeParser.loginZone(ofConnectionTime: "") == nil)
    }

    @Test func zonelessTimesUseTheLoginZoneWithDST() throws {
        let winter = try TWSTimeParser.timestamp("20240115  09:30:00", defaultZone: Self.eastern)
        let summer = try TWSTimeParser.timestamp("20240715  09:30:00", defaultZone: Self.eastern)
        #expect(winter.description == "2024-01-15T14:30:00Z")
        #expect(summer.description == "2024-07-15T13:30:00Z")
        // The dash form is IB's explicit UTC whatever the login zone.
        #expect(try TWSTimeParser.timestamp("20240115-16:00:00", defaultZone: Self.eastern).description == "2024-01-15T16:00:00Z")
    }

    @Test(arguments: [
        "", "2024", "20241315 09:30:00", "20240230", "20240115 25:00:00", "20240115 09:30",
        "20240115 09:30:00 Mars/Olympus", "2024011a",
    ])
    func malformedTextsAreTypedErrors(_ text: String) {
        #expect(throws: IBMappingError.self) { try TWSTimeParser.timestamp(text) }
    }
}

struct ExecutionMappingTests {
    @Test func executionBecomesABrokerExecutionAndFill() throws {
        var contract = TWSContract(contractID: 265_598, symbol: "AAPL", securityType: "STK", currency: "USD")
        contract.exchange = "ISLAND"
        let wire = wireExecution(
            "0001.01", order: 7, side: "SLD", shares: 25, price: 171.05, orderRef: "IBT:x", permID: 99)
        let execution = try ExecutionMapping.execution(wire, contract: contract, context: testContext)
        #expect(execution.side == .sell && execution.quantity == Quantity(25) && execution.price == Price("171.05")!)
        #expect(execution.time.description == "2024-03-11T13:30:00Z")
        #expect(execution.brokerOrderID == 7 && execution.permID == 99 && execution.orderRef == "IBT:x")
        let fill = execution.fill(orderID: OrderID(3), commission: Money(1))
        #expect(fill.orderID == OrderID(3) && fill.signedQuantity == Quantity(-25) && fill.commission == Money(1))
    }

    @Test func badExecutionsAreTypedErrors() {
        let contract = TWSContract(symbol: "AAPL", securityType: "STK", currency: "USD")
        #expect(throws: IBMappingError.unknownSide("BUY")) {
            try ExecutionMapping.execution(
                wireExecution("e", order: 1, side: "BUY"), contract: contract, context: testContext)
        }
        #expect(throws: IBMappingError.unknownContract(symbol: "TSLA", contractID: 0)) {
            try ExecutionMapping.execution(
                wireExecution("e", order: 1), contract: TWSContract(symbol: "TSLA"),
                context: testContext)
        }
        #expect(throws: IBMappingError.missingField("execId")) {
            try ExecutionMapping.execution(wireExecution("", order: 1), contract: contract, context: testContext)
        }
        #expect(throws: IBMappingError.self) {
            try ExecutionMapping.execution(
                wireExecution("e", order: 1, shares: 0), contract: contract, context: testContext)
        }
    }

    @Test func commissionIsPendingUntilARealReportArrives() throws {
        #expect(try ExecutionMapping.commission(nil) == .pending)
        let unset = TWSCommissionReport(executionID: "e", commission: TWSSentinel.double, currency: "USD")
        #expect(try ExecutionMapping.commission(unset) == .pending)
        let real = TWSCommissionReport(
            executionID: "e", commission: 1.25, currency: "USD", realizedPNL: TWSSentinel.double)
        #expect(try ExecutionMapping.commission(real) == .reported(Money("1.25")!, realizedPnL: nil))
    }

    @Test func contractsResolveByIDThenBySymbol() throws {
        var book = testBook
        book.qualify(
            msft,
            as: TWSContract(
                contractID: 272_093, symbol: "MSFT", securityType: "STK", exchange: "SMART",
                currency: "USD"))
        #expect(try book.instrument(for: TWSContract(contractID: 272_093)) == msft)
        #expect(try book.instrument(for: TWSContract(symbol: "aapl")) == aapl)
        #expect(throws: IBMappingError.unknownInstrument(InstrumentID(9))) { try book.contract(for: InstrumentID(9)) }
    }

    @Test func statusTextsAreAClosedSet() throws {
        #expect(try BrokerOrderStatus(text: "PreSubmitted") == .preSubmitted)
        #expect(try BrokerOrderStatus(text: "cancelled") == .cancelled)
        #expect(throws: IBMappingError.unknownOrderStatus("Working")) { try BrokerOrderStatus(text: "Working") }
    }
}

struct BarAndPositionMappingTests {
    @Test func realTimeBarIsStampedWithItsStartUTC() throws {
        let bar = try BarMapping.bar(
            TWSRealTimeBar(
                time: 1_705_334_400, open: 10.5, high: 10.75, low: 10.25, close: 10.5, volume: 1200, wap: 10.5, count: 3
            ))
        #expect(bar.timestamp == Timestamp(seconds: 1_705_334_400))
        #expect(bar.high == Price("10.75")! && bar.volume == Quantity(1200) && bar.isConsistent)
    }

    @Test func dailyBarsAreDatedAsTheExchangeDate() throws {
        let daily = try BarMapping.bar(
            TWSBar(
                date: "20240311", open: 1, high: 2, low: 1, close: 2, volume: 5, wap: nil,
                barCount: 1))
        #expect(daily.timestamp == Timestamp(year: 2024, month: 3, day: 11))
        let intraday = try BarMapping.bar(
            TWSBar(
                date: "20240311 09:30:00 US/Eastern", open: 1, high: 2, low: 1,
                close: 2, volume: -1, wap: nil, barCount: -1))
        #expect(intraday.timestamp.description == "2024-03-11T13:30:00Z" && intraday.volume == .zero)
        #expect(throws: IBMappingError.self) {
            try BarMapping.bar(
                TWSRealTimeBar(time: 0, open: 0, high: 1, low: 1, close: 1, volume: 1, wap: nil, count: 1))
        }
        #expect(throws: IBMappingError.self) {
            try BarMapping.bar(
                TWSRealTimeBar(time: 0, open: 1, high: 1, low: 1, close: 1, volume: nil, wap: nil, count: 1))
        }
    }

    @Test func positionsMapWithMultiplier() throws {
        let stock = try PositionMapping.position(
            TWSPosition(account: "DU1", contract: TWSContract(symbol: "AAPL"), quantity: -40, averageCost: 150.5),
            contracts: testBook)
        #expect(stock.quantity == Quantity(-40) && stock.averagePrice == Price("150.5")!)
        #expect(stock.position.isShort)
        var futures = ContractBook(contracts: [])
        var es = TWSContract(symbol: "ES", securityType: "FUT", currency: "USD")
        es.multiplier = "50"
        futures.add(es)
        let future = try PositionMapping.position(
            TWSPosition(account: "DU1", contract: es, quantity: 2, averageCost: 250_000), contracts: futures)
        #expect(future.averagePrice == Price(5000))
        #expect(throws: IBMappingError.self) {
            try PositionMapping.position(
                TWSPosition(
                    account: "DU1", contract: TWSContract(symbol: "AAPL"),
                    quantity: nil, averageCost: 1), contracts: testBook)
        }
    }

    @Test func slicesCloseWhenEveryInstrumentReported() {
        var slices = BarSliceAssembler(instruments: [aapl, msft])
        let t = Timestamp(seconds: 100)
        let bar = Bar(timestamp: t, open: Price(1), high: Price(1), low: Price(1), close: Price(1), volume: .zero)
        var later = bar
        later.timestamp = t + .seconds(5)
        #expect(slices.add(bar, for: aapl) == [.bar(aapl, bar)])
        #expect(slices.add(bar, for: msft) == [.bar(msft, bar), .barsClosed(t)])
        #expect(slices.add(later, for: aapl) == [.bar(aapl, later)])
        var third = later
        third.timestamp = t + .seconds(10)
        // MSFT had no bar at t+5: the next slice closes it.
        #expect(slices.add(third, for: msft) == [.barsClosed(later.timestamp), .bar(msft, third)])
        #expect(slices.add(bar, for: aapl) == [.bar(aapl, bar)])
    }
}
