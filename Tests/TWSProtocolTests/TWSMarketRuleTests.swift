import Foundation
import NIOCore
import Testing
import TWSProtocol
import TWSTestSupport

/// reqMarketRule (91) and marketRule (93) against the bytes of IB's official client 10.51.1 and ib_async 2.1.0
/// (`Fixtures/protocol/vectors/marketrule.jsonl`, made by `capture_marketrule.py` beside it).
@Suite struct TWSMarketRuleTests {
    static let records: [TWSVectorRecord] = (try? VectorFiles.load("marketrule.jsonl")) ?? []

    @Test func theRequestIsTheOfficialClientsBytesAndDecodesBack() throws {
        let requests = Self.records.filter { $0.json["direction"]?.string == "client->server" }
        #expect(requests.count == 2, "the 178 and 200 captures")
        for record in requests {
            let version = try #require(record.serverVersion)
            let ruleID = try #require(record.json["call"]?["args"]?["marketRuleId"]?.int)
            let request = TWSRequest.marketRule(marketRuleID: ruleID)
            #expect(TWSVectors.hex(try request.encode(serverVersion: version).readableBytesView) == record.json["hex"]?.string)
            #expect(request.messageName == "reqMarketRule" && request.messageID == 91)
            #expect(try TWSRequest.decode(payload: record.payload, serverVersion: version) == request)
            let alternate = try #require(record.json["alternates"]?.array?.first)
            #expect(alternate["identical_bytes"]?.bool == true, "ib_async writes the same bytes")
        }
    }

    @Test func theResponseDecodesAsTheOfficialDecoderReadsItAndEncodesToTheSameBytes() throws {
        let responses = Self.records.filter { $0.json["direction"]?.string == "server->client" }
        #expect(responses.count == 2)
        for record in responses {
            let decoded = try TWSResponse.decode(payload: record.payload, serverVersion: 200)
            let official = try #require(record.json["expect"]?["ibapi 10.51.01"]?.array?.first?["args"])
            let bands = (official["priceIncrements"]?.array ?? []).map {
                TWSPriceIncrement(lowEdge: $0["lowEdge"]?.double ?? -1, increment: $0["increment"]?.double ?? -1)
            }
            let expected = TWSResponse.marketRule(marketRuleID: try #require(official["marketRuleId"]?.int), increments: bands)
            #expect(decoded == expected, "\(record.name)")
            #expect(decoded.messageName == "marketRule")
            // The simulator writes Java doubles as TWS does: `1.0E-4`, `0.01`.
            #expect(TWSVectors.hex(try expected.encode(serverVersion: 200).readableBytesView) == record.json["hex"]?.string)
        }
    }

    @Test(arguments: [178, 200])
    func roundTrips(version: Int) throws {
        let rule = TWSResponse.marketRule(marketRuleID: 239, increments: [
            TWSPriceIncrement(lowEdge: 0, increment: 0.005), TWSPriceIncrement(lowEdge: 10, increment: 0.05),
            TWSPriceIncrement(lowEdge: 1_000, increment: 5),
        ])
        #expect(try TWSResponse.decode(payload: try rule.encodePayload(serverVersion: version), serverVersion: version) == rule)
        let request = TWSRequest.marketRule(marketRuleID: 1_234)
        #expect(try TWSRequest.decode(payload: try request.encodePayload(serverVersion: version), serverVersion: version)
            == request)
    }

    @Test func malformedOrOutOfRangeAnswersAreDecodeErrors() {
        func decode(_ fields: [String]) throws -> TWSResponse {
            try TWSResponse.decode(payload: TWSFrame.payload(fields: fields), serverVersion: 200)
        }
        // A count beyond the bound, or negative.
        #expect(throws: TWSDecodingError.outOfRange(
            message: "marketRule", field: "priceIncrementsCount", value: "1001", allowed: "0…1000")) {
            try decode(["93", "26", "1001"] + Array(repeating: "1.0", count: 2_002))
        }
        #expect(throws: TWSDecodingError.outOfRange(
            message: "marketRule", field: "priceIncrementsCount", value: "-1", allowed: "0…1000")) {
            try decode(["93", "26", "-1"])
        }
        // A count larger than the bands sent: the missing band is a missing field.
        #expect(throws: TWSDecodingError.self) { try decode(["93", "26", "3", "0.0", "1.0E-4", "1.0", "0.01"]) }
        // Negative, non-finite or unset increments and edges.
        for bad in ["-0.01", "NaN", "Infinity", "1.7976931348623157E308"] {
            #expect(throws: TWSDecodingError.self, "\(bad)") { try decode(["93", "26", "1", "0.0", bad]) }
            #expect(throws: TWSDecodingError.self, "\(bad)") { try decode(["93", "26", "1", bad, "0.01"]) }
        }
        // A band too many, a rule id that is not a number.
        #expect(throws: TWSDecodingError.trailingFields(message: "marketRule", count: 2)) {
            try decode(["93", "26", "1", "0.0", "0.01", "1.0", "0.05"])
        }
        #expect(throws: TWSDecodingError.self) { try decode(["93", "x", "0"]) }
        // The server side: a rule id beyond a Java int is refused like any malformed request.
        #expect(throws: TWSDecodingError.self) {
            try TWSRequest.decode(payload: TWSFrame.payload(fields: ["91", "4294967296"]), serverVersion: 200)
        }
        #expect(throws: TWSDecodingError.self) {
            try TWSRequest.decode(payload: TWSFrame.payload(fields: ["91", ""]), serverVersion: 200)
        }
    }

    @Test func theRuleOfAnExchangeIsPickedFromTheContractDetails() {
        var details = TWSContractDetails()
        details.validExchanges = "SMART,AMEX,NYSE,CBOE"
        details.marketRuleIDs = "26,26,239,26"
        #expect(details.marketRuleID(forExchange: "SMART") == 26)
        #expect(details.marketRuleID(forExchange: "nyse") == 239)
        details.validExchanges = "ISLAND,SMART"
        details.marketRuleIDs = "239,26"
        #expect(details.marketRuleID() == 26)
        details.validExchanges = "ISLAND,ARCA"
        #expect(details.marketRuleID() == 239, "no SMART: the first listed")
        details.marketRuleIDs = ""
        #expect(details.marketRuleID() == nil)
    }
}
