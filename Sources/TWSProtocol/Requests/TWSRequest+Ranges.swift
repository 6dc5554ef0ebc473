/// Range checks on decoded requests (server side): TWS reads request, order, client and contract ids as Java
/// `int`s, so a value outside `TWSValueRange.javaInt` is refused like any malformed request (errMsg 321).
extension TWSRequest {
    /// The first id outside its range, as the error the decoder throws; `nil` when all are in range.
    func rangeError() -> TWSDecodingError? {
        var ids: [(String, Int)] = []
        switch self {
        case .startAPI(let clientID, _): ids = [("clientId", clientID)]
        case .contractDetails(let requestID, let contract):
            ids = [("reqId", requestID), ("conId", contract.contractID)]
        case .marketData(let r): ids = [("reqId", r.requestID), ("conId", r.contract.contractID)]
        case .realTimeBars(let r): ids = [("reqId", r.requestID), ("conId", r.contract.contractID)]
        case .historicalData(let r): ids = [("reqId", r.requestID), ("conId", r.contract.contractID)]
        case .placeOrder(let orderID, let contract, let order):
            ids = [("orderId", orderID), ("conId", contract.contractID), ("parentId", order.parentID)]
        case .cancelOrder(let orderID, _): ids = [("orderId", orderID)]
        case .marketRule(let ruleID): ids = [("marketRuleId", ruleID)]
        case .pnlSingle(let requestID, _, _, let contractID): ids = [("reqId", requestID), ("conId", contractID)]
        case .cancelMarketData(let id), .cancelRealTimeBars(let id), .cancelHistoricalData(let id),
            .accountSummary(let id, _, _), .cancelAccountSummary(let id), .executions(let id, _), .pnl(let id, _, _),
            .cancelPnL(let id), .cancelPnLSingle(let id), .accountUpdatesMulti(let id, _, _, _):
            ids = [("reqId", id)]
        default:
            return nil
        }
        for (field, value) in ids where !TWSValueRange.javaInt.contains(value) {
            return .outOfRange(message: messageName, field: field, value: String(value),
                               allowed: "\(TWSValueRange.javaInt.lowerBound)…\(TWSValueRange.javaInt.upperBound)")
        }
        return nil
    }

    /// The request or order id of a request that did not decode, when its id field itself is readable and in range,
    /// so the refusal (errMsg 321) reaches the caller waiting on that id; `nil` otherwise (the refusal then carries
    /// -1, as TWS's does for a request it cannot attribute).
    /// - Parameter payload: the request's payload (after the length prefix).
    public static func attributableID(inMalformed payload: [UInt8]) -> Int? {
        let fields = payload.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false)
        guard let first = fields.first, let messageID = TWSFieldReader.parseInteger(first),
            let index = idFieldIndex(forMessageID: messageID), index < fields.count,
            let id = TWSFieldReader.parseInteger(fields[index]), TWSValueRange.javaInt.contains(id)
        else { return nil }
        return id
    }

    /// `attributableID(inMalformed:)` at a negotiated server version: from 201 the id is 4 binary bytes; a text
    /// body is read behind them, a protobuf body's id is its field 1 when that is the request or order id.
    public static func attributableID(inMalformed payload: [UInt8], serverVersion: Int) -> Int? {
        guard TWSProtobufGates.usesBinaryMessageID(serverVersion: serverVersion) else {
            return attributableID(inMalformed: payload)
        }
        guard let wireID = payload.withUnsafeBytes({ try? TWSFrame.binaryMessageID(of: $0) }) else { return nil }
        if wireID <= TWSProtobufGates.protobufIDOffset {
            return attributableID(inMalformed: Array(String(wireID).utf8) + [0] + payload.dropFirst(4))
        }
        let id = wireID - TWSProtobufGates.protobufIDOffset
        guard idFieldIndex(forMessageID: id) != nil else { return nil }
        return payload.withUnsafeBytes { bytes -> Int? in
            var reader = TWSProtobufReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[4...]), message: "request")
            while let field = try? reader.next() {
                if field.number == 1, let value = try? field.int32(), TWSValueRange.javaInt.contains(value) {
                    return value
                }
            }
            return nil
        }
    }

    /// Where the request or order id sits (field 0 is the message id): after a version field for the older
    /// messages, right after the message id for placeOrder, cancelOrder, reqHistoricalData and the PnL requests.
    static func idFieldIndex(forMessageID id: Int) -> Int? {
        switch id {
        case 3, 4, 20, 92, 93, 94, 95: 1
        case 1, 2, 7, 9, 25, 50, 51, 62, 63, 76: 2
        default: nil
        }
    }
}
