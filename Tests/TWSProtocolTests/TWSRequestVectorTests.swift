import Foundation
import NIOCore
import Testing
import TWSProtocol
import TWSTestSupport

/// Every client → server vector: our encoder reproduces the official client's bytes, and the server-side
/// decoder reads both the official client's and ib_async's spellings back to the same typed request.
@Suite struct TWSRequestVectorTests {
    /// Fields whose ib_async spelling differs from the official client's without changing the meaning.
    static let spellingOnlyFields: Set<String> = [
        "strike", "totalQuantity", "discretionaryAmt", "triggerPrice", "lmtPriceOffset", "adjustedStopPrice",
        "adjustedStopLimitPrice", "adjustedTrailingAmount", "cashQty", "duration", "postToAts",
        "competeAgainstBestOffset", "eTradeOnly", "firmQuoteOnly", "nbboPriceCap",
    ]

    @Test(arguments: ["client_to_server.v200.jsonl", "client_to_server.v178.jsonl"])
    func encodesAndDecodesEveryRecord(file: String) throws {
        let records = try VectorFiles.load(file)
        #expect(records.count >= 47)
        var passed = 0
        for record in records {
            let context = "\(file) \(record.name)"
            guard let version = record.serverVersion, let call = record.json["call"] else {
                Issue.record("\(context): no server_version/call")
                continue
            }
            let request: TWSRequest
            do {
                request = try VectorRequestCalls.request(for: call)
            } catch {
                Issue.record("\(context): \(error)")
                continue
            }
            let encoded = try request.encode(serverVersion: version)
            let hex = TWSVectors.hex(encoded.readableBytesView)
            #expect(hex == record.json["hex"]?.string, "\(context): encoded bytes differ")
            if hex != record.json["hex"]?.string {
                let ours = TWSFrame.fields(of: try request.encodePayload(serverVersion: version))
                for (index, pair) in zip(ours, record.fields).enumerated() where pair.0 != pair.1 {
                    Issue.record("\(context): field \(index) ours '\(pair.0)' vector '\(pair.1)'")
                    break
                }
            }
            let decoded = try TWSRequest.decode(payload: record.payload, serverVersion: version)
            #expect(decoded == request, "\(context): decoded request differs")
            try checkAlternates(of: record, expected: request, version: version, context: context)
            passed += 1
        }
        #expect(passed == records.count)
    }

    /// The v157 file is decode-only: ibapi 9.81.1 (primary) and ib_async at 157 (alternate).
    @Test func decodesTheVersion157Records() throws {
        let records = try VectorFiles.load("client_to_server.v157.jsonl")
        #expect(records.count == 47)
        // The v157 file has no field names: borrow those of the same call at 178, adding 157's faProfile.
        var names178: [String: [String]] = [:]
        for record in try VectorFiles.load("client_to_server.v178.jsonl") {
            names178[record.name] = record.json["field_names"]?.array?.compactMap(\.string) ?? []
        }
        for record in records {
            let context = "v157 \(record.name)"
            guard let call = record.json["call"] else {
                Issue.record("\(context): no call")
                continue
            }
            var request = try VectorRequestCalls.request(for: call)
            // Below 170 placeOrder has no PEG BEST/MID block and no minTradeQty.
            if case .placeOrder(let id, let contract, var order) = request {
                order.minimumTradeQuantity = nil
                order.minimumCompeteSize = nil
                order.competeAgainstBestOffset = nil
                order.midOffsetAtWhole = nil
                order.midOffsetAtHalf = nil
                request = .placeOrder(orderID: id, contract: contract, order: order)
            }
            let decoded = try TWSRequest.decode(payload: record.payload, serverVersion: 157)
            #expect(decoded == request, "\(context): decoded request differs")
            var names = names178[record.name] ?? []
            if let index = names.firstIndex(of: "faPercentage") { names.insert("faProfile", at: index + 1) }
            try checkAlternates(of: record, expected: request, version: 157, context: context, names: names)
        }
    }

    /// Decodes each alternate encoding; meaning-changing differences (ib_async's `openClose = O`,
    /// `usePriceMgmtAlgo = 0`) are applied to the expectation, spelling-only ones must decode identically.
    func checkAlternates(
        of record: TWSVectorRecord, expected: TWSRequest, version: Int, context: String, names: [String]? = nil
    ) throws {
        let names = names ?? record.json["field_names"]?.array?.compactMap(\.string) ?? []
        for alternate in record.json["alternates"]?.array ?? [] {
            if alternate["identical_bytes"]?.bool == true { continue }
            guard let hex = alternate["hex"]?.string, let bytes = TWSVectors.bytes(hex: hex) else {
                Issue.record("\(context): alternate without bytes")
                continue
            }
            var expectation = expected
            for difference in alternate["differs_at"]?.array ?? [] {
                let index = difference["index"]?.int ?? -1
                let field = difference["field"]?.string ?? (names.indices.contains(index) ? names[index] : "?")
                let value = difference["alternate"]?.string ?? ""
                if Self.spellingOnlyFields.contains(field) { continue }
                guard case .placeOrder(let id, let contract, var order) = expectation else {
                    Issue.record("\(context): unexpected difference in \(field)")
                    continue
                }
                switch field {
                case "openClose": order.openClose = value
                case "usePriceMgmtAlgo": order.usePriceManagementAlgo = value.isEmpty ? nil : value != "0"
                default: Issue.record("\(context): unexpected difference in \(field)")
                }
                expectation = .placeOrder(orderID: id, contract: contract, order: order)
            }
            var payload = ByteBufferAllocator().buffer(capacity: bytes.count)
            payload.writeBytes(bytes.dropFirst(4))
            let decoded = try TWSRequest.decode(payload: payload, serverVersion: version)
            #expect(decoded == expectation, "\(context): alternate decodes differently")
        }
    }

    @Test func unsupportedVersionsAreTypedErrors() throws {
        #expect(throws: TWSEncodingError.unsupportedServerVersion(message: "reqCurrentTimeInMillis", required: 197,
                                                                   actual: 178)) {
            try TWSRequest.currentTimeInMillis.encode(serverVersion: 178)
        }
        var filter = TWSExecutionFilter()
        filter.lastNDays = 3
        #expect(throws: TWSEncodingError.self) {
            try TWSRequest.executions(requestID: 1, filter: filter).encode(serverVersion: 199)
        }
        let payload = TWSFrame.payload(fields: ["999", "1"])
        #expect(throws: TWSDecodingError.unknownMessageID(999)) {
            try TWSRequest.decode(payload: payload, serverVersion: 200)
        }
    }

    @Test func versionGatedLayouts() throws {
        let cancel = TWSRequest.cancelOrder(orderID: 5, TWSOrderCancel())
        #expect(TWSFrame.fields(of: try cancel.encodePayload(serverVersion: 178)) == ["4", "1", "5", ""])
        #expect(TWSFrame.fields(of: try cancel.encodePayload(serverVersion: 188))
                    == ["4", "1", "5", "", "", "", "2147483647"])
        #expect(TWSFrame.fields(of: try cancel.encodePayload(serverVersion: 192))
                    == ["4", "5", "", "", "2147483647"])
        let global = TWSRequest.globalCancel(TWSOrderCancel())
        #expect(TWSFrame.fields(of: try global.encodePayload(serverVersion: 191)) == ["58", "1"])
        for version in [176, 177, 187, 189, 192, 199, 200] {
            let order = TWSRequest.placeOrder(orderID: 1, contract: TWSContract(symbol: "AAPL"),
                                              order: TWSOrder(action: "BUY", totalQuantity: 1, orderType: "MKT"))
            let decoded = try TWSRequest.decode(payload: try order.encodePayload(serverVersion: version),
                                                serverVersion: version)
            #expect(decoded == order, "placeOrder round trip at \(version)")
        }
    }
}
