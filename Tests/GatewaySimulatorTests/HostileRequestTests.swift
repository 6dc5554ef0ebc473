import Foundation
import NIOCore
import TWSProtocol
import Testing
import TradingModel
@testable import GatewayCore
@testable import GatewaySimulator

/// One hostile frame from any client must not end the gateway (F2 of the reliability audit): each of these
/// trapped, which killed every other client's session. Now each is answered as TWS answers a bad request.
@Suite struct HostileRequestTests {
    func connected() -> GatewayState {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    func history(end: String = "", duration: String = "1 D", bar: String = "1 day") -> TWSRequest {
        .historicalData(TWSHistoricalDataRequest(
            requestID: 5, contract: stock("SYN000"), endDateTime: end, durationString: duration, barSizeSetting: bar,
            whatToShow: "TRADES", useRTH: true))
    }

    @Test(arguments: ["300 Y", "293 Y", "106752 D", "1000000 W", "1000000 M", "9223372036854775807 S", "101 Y"])
    func durationsBeyondAHundredYearsAreRefused(duration: String) {
        #expect(HistoricalQuery.parseDuration(duration) == nil)
        var state = connected()
        let out = sent(state.handle(history(duration: duration), from: 1, wallTime: 0))
        #expect(errorCodes(out) == [162])
        #expect(out.count == 1)
    }

    @Test func aHundredYearsIsServed() {
        #expect(HistoricalQuery.parseDuration("100 Y") == .days(36_500))
        #expect(HistoricalQuery.parseDuration("36500 D") == .days(36_500))
        var state = connected()
        #expect(names(sent(state.handle(history(duration: "100 Y"), from: 1, wallTime: 0)))
            == ["historicalData", "historicalDataEnd"])
    }

    @Test(arguments: [
        "99991231 23:59:59", "00000101", "22010101", "19691231 23:59:59", "20050101 99999999999:00:00",
        "20050101 -99999999999:00:00", "20050101 24:00:00", "20050101 1:2:3", "20250230", "20050101 +1:00:00",
    ])
    func endTimesOutsideTheirRangesAreRefused(end: String) {
        #expect(TWSTimeText.parse(end) == nil)
        var state = connected()
        let out = sent(state.handle(history(end: end), from: 1, wallTime: 0))
        #expect(errorCodes(out) == [162])
    }

    @Test func validEndTimesStillParse() {
        #expect(TWSTimeText.parse("20240102 14:30:00 UTC")?.description == "2024-01-02T14:30:00Z")
        #expect(TWSTimeText.parse("20240102-14:30:00")?.description == "2024-01-02T14:30:00Z")
        #expect(TWSTimeText.parse("22001231")?.description == "2200-12-31T00:00:00Z")
    }

    /// reqExecutions reached the same parser through its filter time, once the client had an execution.
    @Test(arguments: ["20050101 99999999999:00:00", "99991231 23:59:59", "20050101-99999999999:00:00"])
    func executionFilterTimesThatDoNotParseAreIgnored(time: String) {
        var state = connected()
        let placed = sent(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 10)),
                                       from: 1, wallTime: 0))
        #expect(names(placed).contains("execDetails"))
        var filter = TWSExecutionFilter()
        filter.time = time
        let out = sent(state.handle(.executions(requestID: 9, filter: filter), from: 1, wallTime: 0))
        #expect(names(out) == ["execDetails", "commissionReport", "execDetailsEnd"])
    }

    @Test(arguments: [-5.0, 0.0])
    func nonPositiveLimitPricesAreRejected(limit: Double) {
        var state = connected()
        let out = sent(state.handle(
            .placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 10, "LMT", limit: limit)),
            from: 1, wallTime: 0))
        #expect(errorCodes(out) == [201])
        #expect(names(out) == ["errMsg", "orderStatus"])
    }

    @Test func aSizeBeyondTheRangeIsRejectedByItsValueNotAsZero() throws {
        var state = connected()
        let size = try #require(Decimal(string: "1e40"))
        let out = sent(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", size)),
                                    from: 1, wallTime: 0))
        guard case .error(let error) = out.first else { Issue.record("no rejection: \(out)"); return }
        #expect(error.code == 201)
        #expect(error.message.contains("10000000000000000000000000000000000000000"))
    }
}

/// A request that does not decode is answered with 321 for its own id when that id is readable (a client waits on
/// it), else for -1; ids outside TWS's `int` are malformed too.
@Suite struct MalformedRequestAnswerTests {
    static func events(_ fields: [String]) throws -> [ConnectionInbound.Event] {
        var bytes = try ConnectionInboundTests.stream()
        bytes.writeImmutableBuffer(TWSFrame.framed(ByteBuffer(bytes: fields.flatMap { Array($0.utf8) + [0] })))
        var reader = ConnectionInbound(configuration: .init())
        return try reader.receive(bytes, connectionTime: "t")
    }

    static func malformedIDs(_ events: [ConnectionInbound.Event]) -> [Int] {
        events.compactMap { if case .malformed(_, let id) = $0 { id } else { nil } }
    }

    static let lmt = ["3", "5", "0", "SYN000", "STK", "", "", "", "", "SMART", "", "USD", "", "", "", "", "BUY", "100",
                      "LMT", "NaN"]
    static let mktData = ["1", "11", "99999999999999999999", "0", "SYN000", "STK", "", "", "", "", "SMART", "", "USD",
                          "", "", "0", "", "0", "0", ""]

    @Test func aNaNLimitIsRefusedForItsOrderID() throws {
        // The stream already carries one malformed frame (id 999), answered for -1.
        #expect(Self.malformedIDs(try Self.events(Self.lmt)) == [-1, 5])
    }

    @Test func anUnreadableRequestIDIsRefusedForMinusOne() throws {
        #expect(Self.malformedIDs(try Self.events(Self.mktData)) == [-1, -1])
    }

    @Test func idsBeyondAJavaIntDoNotDecode() throws {
        var wide = Self.mktData
        wide[2] = "99999999999"
        #expect(Self.malformedIDs(try Self.events(wide)) == [-1, -1])
        let pnl = ["94", "71", "", "", "99999999999999999999"]
        #expect(Self.malformedIDs(try Self.events(pnl)) == [-1, 71])
        let conID = ["94", "71", "", "", "99999999999"]
        #expect(Self.malformedIDs(try Self.events(conID)) == [-1, 71])
    }
}

/// The gateway's data files: a row it cannot represent is skipped and counted (bundled data) or refused with its
/// file and line (a user's folder), never a trap.
@Suite struct HostileDataFileTests {
    static let text = """
        date,open,high,low,close,volume
        0001-01-01,1,2,0.5,1.5,100
        9999-12-31,1,2,0.5,1.5,100
        2024-02-30,1,2,0.5,1.5,100
        2024-01-02T99:00:00Z,1,2,0.5,1.5,100
        2024-01-02,92233720368.55,2,0.5,1.5,100
        2024-01-03,1,2,0.5,1.5,92233720368
        2024-01-04,1,2,0.5,1.5,100
        """

    static func folder(_ body: (URL) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try text.write(to: url.appendingPathComponent("BAD_1d.csv"), atomically: true, encoding: .utf8)
        try body(url)
    }

    @Test func rowsOutsideTheRangesAreSkippedAndCounted() throws {
        try Self.folder { url in
            let data = try MarketDataSet.load(directory: url, volumeMultiplier: 100, badRows: .skip)
            #expect(data.skippedRows == 6)
            let bars = try #require(data.instrument(symbol: "BAD")?.series.bars)
            #expect(bars.map(\.timestamp.description) == ["2024-01-04T00:00:00Z"])
            #expect(bars.first?.volume == Quantity(10_000))
        }
    }

    @Test func aUsersFolderRefusesTheFirstBadRowWithItsLine() throws {
        try Self.folder { url in
            let error = #expect(throws: MarketDataError.self) { try MarketDataSet.load(directory: url) }
            #expect(error?.message.contains("BAD_1d.csv:2:") == true && error?.message.contains("0001-01-01") == true,
                    "\(String(describing: error))")
        }
    }
}
