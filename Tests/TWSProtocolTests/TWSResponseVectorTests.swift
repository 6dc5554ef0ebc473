import Foundation
import NIOCore
import Testing
import TWSProtocol
import TWSTestSupport

/// Every server → client vector: decoding matches what IB's official decoder reported (`expect`), and
/// re-encoding reproduces the bytes exactly.
@Suite struct TWSResponseVectorTests {
    @Test(arguments: ["server_to_client.v200.jsonl", "server_to_client.v178.jsonl"])
    func decodesAndReencodesEveryRecord(file: String) throws {
        let records = try VectorFiles.load(file)
        #expect(records.count >= 70)
        var passed = 0
        for record in records {
            let context = "\(file) \(record.name)"
            guard let version = record.serverVersion else {
                Issue.record("\(context): no server_version")
                continue
            }
            let response: TWSResponse
            do {
                response = try TWSResponse.decode(payload: record.payload, serverVersion: version)
            } catch {
                Issue.record("\(context): \(error)")
                continue
            }
            guard let expected = record.json["expect"]?["ibapi 10.46.1"]?.array else {
                Issue.record("\(context): no official expect")
                continue
            }
            let issues = CallbackComparison.check(expected, against: OfficialCallbacks.callbacks(for: response))
            for issue in issues { Issue.record("\(context): \(issue)") }
            let encoded = try response.encode(serverVersion: version)
            let hex = TWSVectors.hex(encoded.readableBytesView)
            if hex != record.json["hex"]?.string {
                let ours = TWSFrame.fields(of: try response.encodePayload(serverVersion: version))
                let theirs = record.fields
                let index = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                var detail = "first difference at the end"
                if let index { detail = "first difference at \(index): '\(ours[index])' vs '\(theirs[index])'" }
                let counts = "ours \(ours.count) fields, vector \(theirs.count)"
                Issue.record("\(context): re-encoded bytes differ (\(counts)); \(detail)")
            } else if issues.isEmpty {
                passed += 1
            }
        }
        #expect(passed == records.count, "\(passed) of \(records.count) records pass in \(file)")
    }

    /// The comparison is not vacuous: a changed value or a missing callback is reported.
    @Test func expectCheckerReportsMismatches() throws {
        let records = try VectorFiles.load("server_to_client.v200.jsonl")
        let names = ["tickPrice_bid", "openOrder_bracket_stoploss_presubmitted", "contractDetails_fut"]
        for record in records where names.contains(record.name) {
            let expected = try #require(record.json["expect"]?["ibapi 10.46.1"]?.array)
            let response = try TWSResponse.decode(payload: record.payload, serverVersion: 200)
            #expect(CallbackComparison.check(expected, against: OfficialCallbacks.callbacks(for: response)).isEmpty)
            let altered: TWSResponse
            switch response {
            case .tickPrice(var tick):
                tick.price += 0.01
                altered = .tickPrice(tick)
            case .openOrder(var openOrder):
                openOrder.order.trailStopPrice = nil
                altered = .openOrder(openOrder)
            case .contractDetails(let id, var details):
                details.lastTradeTime = ""
                altered = .contractDetails(requestID: id, details: details)
            default:
                altered = response
            }
            #expect(!CallbackComparison.check(expected, against: OfficialCallbacks.callbacks(for: altered)).isEmpty,
                    "\(record.name): alteration not detected")
        }
    }

    @Test func unknownAndGatedMessagesAreTypedErrors() throws {
        #expect(throws: TWSDecodingError.unknownMessageID(999)) {
            try TWSResponse.decode(payload: TWSFrame.payload(fields: ["999", "1"]), serverVersion: 200)
        }
        // completedOrder (101) is decoded now: a truncated one is a typed error naming the field.
        #expect(throws: TWSDecodingError.self) {
            try TWSResponse.decode(payload: TWSFrame.payload(fields: ["101", "1"]), serverVersion: 200)
        }
        #expect(throws: TWSDecodingError.malformedMessageID("x")) {
            try TWSResponse.decode(payload: TWSFrame.payload(fields: ["x"]), serverVersion: 200)
        }
        #expect(throws: TWSDecodingError.missingField(message: "tickPrice", field: "price", index: 4)) {
            try TWSResponse.decode(payload: TWSFrame.payload(fields: ["1", "6", "20", "1"]), serverVersion: 200)
        }
        #expect(throws: TWSDecodingError.trailingFields(message: "tickSize", count: 1)) {
            try TWSResponse.decode(payload: TWSFrame.payload(fields: ["2", "6", "20", "0", "100", "extra"]),
                                   serverVersion: 200)
        }
        #expect(throws: TWSEncodingError.self) {
            try TWSResponse.currentTimeInMillis(1).encode(serverVersion: 196)
        }
        #expect(throws: TWSEncodingError.self) {
            try TWSResponse.historicalDataEnd(requestID: 1, startDate: "", endDate: "").encode(serverVersion: 195)
        }
    }

    @Test func errorMessageLayoutFollowsTheVersion() throws {
        let error = TWSResponse.error(TWSErrorMessage(requestID: 7, code: 202, message: "Order Canceled - reason:",
                                                      errorTime: 1_736_951_400_500))
        #expect(TWSFrame.fields(of: try error.encodePayload(serverVersion: 200))
                    == ["4", "7", "202", "Order Canceled - reason:", "", "1736951400500"])
        #expect(TWSFrame.fields(of: try error.encodePayload(serverVersion: 193))
                    == ["4", "2", "7", "202", "Order Canceled - reason:", ""])
    }
}
