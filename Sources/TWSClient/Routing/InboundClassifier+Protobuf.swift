import NIOCore
import TWSProtocol

extension InboundClassifier {
    /// The routing fields of a protobuf body that did not decode: field 1 (request id, order id, rule id, accounts),
    /// and errMsg's code (3), text (4), JSON (5) and time (2). Fields after a malformed one are not read.
    struct ProtobufRouting {
        var first: Int?
        var firstText = ""
        var code: Int?
        var text = ""
        var json: String?
        var time: Int64?
    }

    /// The disposition of a protobuf message by its id and routing fields, as `disposition(id:reader:)` does for
    /// text: an End message whose body is otherwise unreadable still ends its request.
    /// - Throws: `TWSDecodingError` when a routing field the message needs is missing or out of range.
    static func protobufDisposition(id: Int, payload: ByteBuffer) throws(TWSDecodingError) -> InboundDisposition {
        let routing = payload.withUnsafeReadableBytes { bytes in
            var routing = ProtobufRouting()
            var reader = TWSProtobufReader(
                bytes: UnsafeRawBufferPointer(rebasing: bytes[min(4, bytes.count)...]), message: "inbound")
            while let field = try? reader.next() {
                switch field.number {
                case 1:
                    if let value = try? field.int32() { routing.first = value }
                    if let value = try? field.string() { routing.firstText = value }
                case 2: routing.time = try? field.int64()
                case 3: routing.code = try? field.int32()
                case 4: routing.text = (try? field.string()) ?? ""
                case 5: routing.json = try? field.string()
                default: break
                }
            }
            return routing
        }
        let name = TWSResponse.messageName(forID: id)
        func first() throws(TWSDecodingError) -> Int {
            guard let value = routing.first else { throw .missingField(message: name, field: "reqId", index: 1) }
            return value
        }
        switch id {
        case 1, 2, 45, 46, 58, 50, 63, 81, 10, 90, 94, 95, 17: return .data(.request(try first()))
        case 57, 55, 64, 52, 74, 108: return .end(.request(try first()))
        case 49: return .data(.currentTime)
        case 109: return .data(.currentTimeInMillis)
        case 53: return .end(.openOrders)
        case 101: return .data(.completedOrders)
        case 102: return .end(.completedOrders)
        case 61: return .data(.positions)
        case 62: return .end(.positions)
        case 6, 7, 8: return .data(.accountUpdates)
        case 54: return .end(.accountUpdates)
        case 93: return .data(.marketRule(try first()))
        case 9:
            let orderID = try first()
            guard TWSValueRange.orderIDs.contains(orderID) else {
                throw .outOfRange(message: name, field: "orderId", value: String(orderID),
                                  allowed: "\(TWSValueRange.orderIDs.lowerBound)…\(TWSValueRange.orderIDs.upperBound)")
            }
            return .nextValidID(orderID)
        case 15: return .managedAccounts(routing.firstText.split(separator: ",").map(String.init))
        case 4:
            return .error(TWSNotice(
                requestID: routing.first ?? 0, code: routing.code ?? 0, message: routing.text,
                advancedOrderRejectJSON: routing.json, errorTimeMilliseconds: routing.time))
        case 3, 5: return .orderEvent(orderID: try first(), isOpenOrder: id == 5)
        case 11: return .execution(requestID: routing.first ?? -1)
        case 59: return .commissionReport
        default: return .unrouted
        }
    }
}
