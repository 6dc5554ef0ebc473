import NIOCore
import TWSProtocol

/// Who waits for a message: a request id, or a topic for answers that carry none.
enum RouteKey: Hashable, Sendable {
    /// A reqId / tickerId.
    case request(Int)
    /// reqCurrentTime → currentTime.
    case currentTime
    /// reqCurrentTimeInMillis → currentTimeInMillis.
    case currentTimeInMillis
    /// reqOpenOrders / reqAllOpenOrders → openOrder… openOrderEnd.
    case openOrders
    /// reqCompletedOrders → completedOrder… completedOrdersEnd.
    case completedOrders
    /// reqPositions → position… positionEnd.
    case positions
    /// reqAccountUpdates → updateAccountValue / updatePortfolio / updateAccountTime… accountDownloadEnd.
    case accountUpdates
    /// reqMarketRule → marketRule of that rule id (the answer carries no request id).
    case marketRule(Int)
}

/// One inbound message as a payload. The read loop decodes every message once; this raw form remains for a
/// message that does not decode (routed by its id and request id, logged and skipped by its consumer) and for
/// `completedOrders(apiOnly:)`.
public struct TWSInboundMessage: Sendable {
    /// The message id (PROTOCOL.md §12.1).
    public let messageID: Int
    /// The whole payload, message id field included.
    public let payload: ByteBuffer
}

/// What the connection does with one inbound message.
enum InboundDisposition: Sendable, Equatable {
    /// Data for a route.
    case data(RouteKey)
    /// The End message of a route.
    case end(RouteKey)
    /// Data that is also the end (historicalData below 196, which has no historicalDataEnd).
    case dataThenEnd(RouteKey)
    /// An errMsg.
    case error(TWSNotice)
    /// nextValidId.
    case nextValidID(Int)
    /// managedAccounts.
    case managedAccounts([String])
    /// orderStatus or openOrder about this order id (openOrder also answers reqOpenOrders).
    case orderEvent(orderID: Int, isOpenOrder: Bool)
    /// execDetails; requestID −1 for a live fill.
    case execution(requestID: Int)
    /// commissionReport (joined to its execution by execId).
    case commissionReport
    /// A message id this client does not route; logged and skipped.
    case unrouted
}

/// Reads just enough of a payload to route it (PROTOCOL.md §6 field positions); pure.
enum InboundClassifier {
    /// Classifies a payload.
    /// - Parameters:
    ///   - payload: the frame payload, message id first.
    ///   - serverVersion: the negotiated version (errMsg and historicalData layouts depend on it).
    /// - Returns: the message and its disposition.
    /// - Throws: `TWSDecodingError` when the id or a routing field is missing or malformed.
    static func classify(
        _ payload: ByteBuffer, serverVersion: Int
    ) throws(TWSDecodingError) -> (TWSInboundMessage, InboundDisposition) {
        guard TWSProtobufGates.usesBinaryMessageID(serverVersion: serverVersion) else {
            var reader = TWSFieldReader(payload: payload, message: "inbound")
            let id = try reader.readMessageID()
            let message = TWSInboundMessage(messageID: id, payload: payload)
            return (message, try disposition(id: id, reader: &reader, serverVersion: serverVersion))
        }
        // From 201: a 4-byte id; a text body is read from behind it, a protobuf body by its field numbers.
        guard let (id, isProtobuf) = TWSFrame.messageID(of: payload, serverVersion: serverVersion) else {
            throw .malformedMessageID(payload.readableBytesView.prefix(4).map { String($0) }.joined(separator: " "))
        }
        if isProtobuf {
            let message = TWSInboundMessage(messageID: id, payload: payload)
            return (message, try protobufDisposition(id: id, payload: payload))
        }
        var reader = TWSFieldReader(payload: payload.getSlice(at: payload.readerIndex + 4,
                                                              length: payload.readableBytes - 4) ?? ByteBuffer(),
                                    message: "inbound")
        let message = TWSInboundMessage(messageID: id, payload: payload)
        return (message, try disposition(id: id, reader: &reader, serverVersion: serverVersion))
    }

    private static func disposition(
        id: Int, reader: inout TWSFieldReader, serverVersion: Int
    ) throws(TWSDecodingError) -> InboundDisposition {
        switch id {
        // Request id after a version field.
        case 1, 2, 45, 46, 58, 50, 63, 73:
            return .data(.request(try requestID(afterVersion: true, &reader)))
        case 57, 55, 64, 52, 74:
            return .end(.request(try requestID(afterVersion: true, &reader)))
        // Request id right after the message id.
        case 81, 10, 90, 94, 95:
            return .data(.request(try requestID(afterVersion: false, &reader)))
        case 17:
            let key = RouteKey.request(try requestID(afterVersion: false, &reader))
            return serverVersion >= TWSServerVersion.historicalDataEnd ? .data(key) : .dataThenEnd(key)
        case 108:
            return .end(.request(try requestID(afterVersion: false, &reader)))
        // Topics.
        case 49: return .data(.currentTime)
        case 109: return .data(.currentTimeInMillis)
        case 53: return .end(.openOrders)
        case 101: return .data(.completedOrders)
        case 102: return .end(.completedOrders)
        case 61: return .data(.positions)
        case 62: return .end(.positions)
        case 6, 7, 8: return .data(.accountUpdates)
        case 54: return .end(.accountUpdates)
        case 93:
            reader.message = "marketRule"
            return .data(.marketRule(try reader.readRequiredInt("marketRuleId")))
        // Connection and orders.
        case 9:
            reader.message = "nextValidId"
            try reader.skip(1, "version")
            // An id outside 1…2³¹−1 must not reach the allocator or the session info: dropped (and logged).
            return .nextValidID(try checked(try reader.readInt("orderId"), TWSValueRange.orderIDs, "orderId", reader))
        case 15:
            reader.message = "managedAccounts"
            try reader.skip(1, "version")
            let list = try reader.readString("accountsList")
            return .managedAccounts(list.split(separator: ",").map(String.init).filter { !$0.isEmpty })
        case 4:
            return .error(try errorNotice(&reader, serverVersion: serverVersion))
        case 3, 5:
            reader.message = id == 3 ? "orderStatus" : "openOrder"
            let orderID = try checked(try reader.readInt("orderId"), TWSValueRange.javaInt, "orderId", reader)
            return .orderEvent(orderID: orderID, isOpenOrder: id == 5)
        case 11:
            reader.message = "execDetails"
            return .execution(requestID: try reader.readInt("reqId"))
        case 59:
            return .commissionReport
        default:
            return .unrouted
        }
    }

    /// `value` when it lies in `range`, else the decoder's out-of-range error.
    private static func checked(
        _ value: Int, _ range: ClosedRange<Int>, _ field: String, _ reader: TWSFieldReader
    ) throws(TWSDecodingError) -> Int {
        guard range.contains(value) else {
            throw .outOfRange(message: reader.message, field: field, value: String(value),
                              allowed: "\(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    private static func requestID(afterVersion: Bool, _ reader: inout TWSFieldReader) throws(TWSDecodingError) -> Int {
        if afterVersion { try reader.skip(1, "version") }
        return try reader.readInt("reqId")
    }

    /// errMsg (PROTOCOL.md §6.4): a version field below 194; JSON from 166; errorTime from 194.
    static func errorNotice(_ reader: inout TWSFieldReader, serverVersion: Int) throws(TWSDecodingError) -> TWSNotice {
        reader.message = "errMsg"
        if serverVersion < TWSServerVersion.errorTime { try reader.skip(1, "version") }
        let requestID = try reader.readInt("reqId")
        let code = try reader.readInt("errorCode")
        let text = try reader.readString("errorString")
        var json: String?
        if serverVersion >= TWSServerVersion.advancedOrderReject, !reader.isAtEnd {
            json = try reader.readOptionalString("advancedOrderRejectJson")
        }
        var time: Int64?
        if serverVersion >= TWSServerVersion.errorTime, !reader.isAtEnd {
            time = try reader.readOptionalInt64("errorTime")
        }
        return TWSNotice(
            requestID: requestID, code: code, message: text, advancedOrderRejectJSON: json, errorTimeMilliseconds: time
        )
    }
}
