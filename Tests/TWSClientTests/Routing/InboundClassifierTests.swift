import NIOCore
import TWSProtocol
import Testing

@testable import TWSClient

@Suite struct InboundClassifierTests {
    private func classify(_ fields: [String], version: Int = 200) throws -> InboundDisposition {
        try InboundClassifier.classify(TWSFrame.payload(fields: fields), serverVersion: version).1
    }

    @Test func errMsgLayoutsAt178And200() throws {
        let at200 = try classify(["4", "12", "200", "No security definition", "", "1736951400500"])
        #expect(
            at200
                == .error(
                    TWSNotice(
                        requestID: 12, code: 200, message: "No security definition",
                        errorTimeMilliseconds: 1_736_951_400_500)))
        let at178 = try classify(["4", "2", "12", "354", "Not subscribed", ""], version: 178)
        #expect(at178 == .error(TWSNotice(requestID: 12, code: 354, message: "Not subscribed")))
    }

    @Test func historicalDataEndsItselfBelow196() throws {
        #expect(
            try classify(ServerFrames.fields("historicalData_hourly", version: 178), version: 178)
                == .dataThenEnd(.request(40)))
        #expect(try classify(ServerFrames.fields("historicalData_hourly")) == .data(.request(40)))
        #expect(try classify(ServerFrames.fields("historicalDataEnd_hourly")) == .end(.request(40)))
    }

    @Test func routesByRequestIDOrTopic() throws {
        #expect(try classify(ServerFrames.fields("tickPrice_bid")) == .data(.request(20)))
        #expect(try classify(ServerFrames.fields("tickReqParams")) == .data(.request(20)))
        #expect(try classify(ServerFrames.fields("contractDetailsEnd")) == .end(.request(10)))
        #expect(try classify(ServerFrames.fields("positionEnd")) == .end(.positions))
        #expect(
            try classify(ServerFrames.fields("managedAccounts_multi")) == .managedAccounts(["DU1234567", "DU7654321"]))
        #expect(
            try classify(ServerFrames.fields("orderStatus_filled")) == .orderEvent(orderID: 1002, isOpenOrder: false))
        #expect(try classify(["999", "1"]) == .unrouted)
    }

    @Test func aMarketRuleIsRoutedByItsRuleID() throws {
        let fields = ["93", "26", "2", "0.0", "1.0E-4", "1.0", "0.01"]
        #expect(try classify(fields) == .data(.marketRule(26)))
        let decoded = try TWSResponse.decode(payload: TWSFrame.payload(fields: fields), serverVersion: 200)
        #expect(InboundClassifier.disposition(of: decoded, serverVersion: 200) == .data(.marketRule(26)))
        #expect(throws: TWSDecodingError.self) { try classify(["93", ""]) }
    }

    @Test func malformedIDsThrow() {
        #expect(throws: TWSDecodingError.self) { try classify(["x1"]) }
        #expect(throws: TWSDecodingError.self) { try classify(["1", "6"]) }
    }
}
