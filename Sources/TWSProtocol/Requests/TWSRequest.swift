import NIOCore

/// Every client → server message of PROTOCOL.md §5, typed.
///
/// `encode(serverVersion:)` writes a framed message as IB's official client does (Python number spelling), so
/// the bytes equal the recorded vectors. `decode(payload:serverVersion:)` is the server side (gateway
/// simulator): it accepts the official client's and ib_async's spellings alike (PROTOCOL.md §10).
///
/// ```swift
/// let frame = try TWSRequest.marketData(TWSMarketDataRequest(requestID: 20, contract: aapl))
///     .encode(serverVersion: session.serverVersion)
/// ```
public enum TWSRequest: Sendable, Equatable {
    /// startApi (71).
    case startAPI(clientID: Int, optionalCapabilities: String)
    /// reqIds (8); TWS ignores the count.
    case requestIDs(count: Int)
    /// reqCurrentTime (49).
    case currentTime
    /// reqCurrentTimeInMillis (105, ≥ 197).
    case currentTimeInMillis
    /// reqManagedAccts (17).
    case managedAccounts
    /// reqContractDetails (9).
    case contractDetails(requestID: Int, contract: TWSContract)
    /// reqMktData (1).
    case marketData(TWSMarketDataRequest)
    /// cancelMktData (2).
    case cancelMarketData(requestID: Int)
    /// reqMarketDataType (59): 1 live, 2 frozen, 3 delayed, 4 delayed-frozen.
    case marketDataType(Int)
    /// reqRealTimeBars (50).
    case realTimeBars(TWSRealTimeBarsRequest)
    /// cancelRealTimeBars (51).
    case cancelRealTimeBars(requestID: Int)
    /// reqHistoricalData (20).
    case historicalData(TWSHistoricalDataRequest)
    /// cancelHistoricalData (25).
    case cancelHistoricalData(requestID: Int)
    /// placeOrder (3).
    indirect case placeOrder(orderID: Int, contract: TWSContract, order: TWSOrder)
    /// cancelOrder (4).
    case cancelOrder(orderID: Int, TWSOrderCancel)
    /// reqOpenOrders (5).
    case openOrders
    /// reqAllOpenOrders (16).
    case allOpenOrders
    /// reqAutoOpenOrders (15).
    case autoOpenOrders(autoBind: Bool)
    /// reqPositions (61).
    case positions
    /// cancelPositions (64).
    case cancelPositions
    /// reqAccountUpdates (6).
    case accountUpdates(subscribe: Bool, accountCode: String)
    /// reqAccountSummary (62).
    case accountSummary(requestID: Int, group: String, tags: String)
    /// cancelAccountSummary (63).
    case cancelAccountSummary(requestID: Int)
    /// reqExecutions (7).
    case executions(requestID: Int, filter: TWSExecutionFilter)
    /// reqPnL (92).
    case pnl(requestID: Int, account: String, modelCode: String)
    /// cancelPnL (93).
    case cancelPnL(requestID: Int)
    /// reqPnLSingle (94).
    case pnlSingle(requestID: Int, account: String, modelCode: String, contractID: Int)
    /// cancelPnLSingle (95).
    case cancelPnLSingle(requestID: Int)
    /// reqGlobalCancel (58).
    case globalCancel(TWSOrderCancel)
    /// reqCompletedOrders (99).
    case completedOrders(apiOnly: Bool)
    /// reqAccountUpdatesMulti (76).
    case accountUpdatesMulti(requestID: Int, account: String, modelCode: String, ledgerAndNLV: Bool)
    /// reqMarketRule (91): the price increments of a rule id of the contract details' `marketRuleIds`; answered by
    /// marketRule (93), which carries the rule id and no request id.
    case marketRule(marketRuleID: Int)

    /// The message id on the wire.
    public var messageID: Int {
        switch self {
        case .startAPI: return 71
        case .requestIDs: return 8
        case .currentTime: return 49
        case .currentTimeInMillis: return 105
        case .managedAccounts: return 17
        case .contractDetails: return 9
        case .marketData: return 1
        case .cancelMarketData: return 2
        case .marketDataType: return 59
        case .realTimeBars: return 50
        case .cancelRealTimeBars: return 51
        case .historicalData: return 20
        case .cancelHistoricalData: return 25
        case .placeOrder: return Self.placeOrderMessageID
        case .cancelOrder: return 4
        case .openOrders: return 5
        case .allOpenOrders: return 16
        case .autoOpenOrders: return 15
        case .positions: return 61
        case .cancelPositions: return 64
        case .accountUpdates: return 6
        case .accountSummary: return 62
        case .cancelAccountSummary: return 63
        case .executions: return 7
        case .pnl: return 92
        case .cancelPnL: return 93
        case .pnlSingle: return 94
        case .cancelPnLSingle: return 95
        case .globalCancel: return 58
        case .completedOrders: return 99
        case .accountUpdatesMulti: return 76
        case .marketRule: return 91
        }
    }

    /// IB's name of the message (as in PROTOCOL.md), for logs and errors.
    public var messageName: String { Self.messageName(forID: messageID) }

    /// IB's name of a client → server message id.
    public static func messageName(forID id: Int) -> String {
        switch id {
        case 71: return "startApi"
        case 8: return "reqIds"
        case 49: return "reqCurrentTime"
        case 105: return "reqCurrentTimeInMillis"
        case 17: return "reqManagedAccts"
        case 9: return "reqContractDetails"
        case 1: return "reqMktData"
        case 2: return "cancelMktData"
        case 59: return "reqMarketDataType"
        case 50: return "reqRealTimeBars"
        case 51: return "cancelRealTimeBars"
        case 20: return "reqHistoricalData"
        case 25: return "cancelHistoricalData"
        case 3: return "placeOrder"
        case 4: return "cancelOrder"
        case 5: return "reqOpenOrders"
        case 16: return "reqAllOpenOrders"
        case 15: return "reqAutoOpenOrders"
        case 61: return "reqPositions"
        case 64: return "cancelPositions"
        case 6: return "reqAccountUpdates"
        case 62: return "reqAccountSummary"
        case 63: return "cancelAccountSummary"
        case 7: return "reqExecutions"
        case 92: return "reqPnL"
        case 93: return "cancelPnL"
        case 94: return "reqPnLSingle"
        case 95: return "cancelPnLSingle"
        case 58: return "reqGlobalCancel"
        case 99: return "reqCompletedOrders"
        case 76: return "reqAccountUpdatesMulti"
        case 91: return "reqMarketRule"
        default: return "request(\(id))"
        }
    }

    // MARK: - Encoding

    /// Encodes the framed message (4-byte length + payload) for a negotiated server version: below 201 the text
    /// frame, from 201 a binary message id and a text or protobuf body as `TWSProtobufGates` says.
    /// - Parameter serverVersion: the negotiated version (176…226; layouts of 157… are written where known).
    /// - Returns: the framed bytes.
    /// - Throws: `TWSEncodingError.unsupportedServerVersion` for a message the server version lacks
    ///   (reqCurrentTimeInMillis below 197, reqExecutions' day filters below 200).
    public func encode(serverVersion: Int) throws(TWSEncodingError) -> ByteBuffer {
        try checkOrder(serverVersion: serverVersion)
        if TWSProtobufGates.usesProtobuf(requestID: messageID, serverVersion: serverVersion) {
            return TWSFrame.framedProtobuf(messageID: messageID, body: try protobufBody())
        }
        // Encoded in place into its frame, with room for a placeOrder (≈ 300–500 bytes) from the start, so the
        // order path neither grows nor copies the buffer.
        var writer = TWSFieldWriter(style: .python, capacity: isPlaceOrder ? 1024 : 64)
        writer.beginFrame()
        writer.writeMessageID(messageID, serverVersion: serverVersion)
        try writeBody(into: &writer, serverVersion: serverVersion)
        return writer.finishFrame()
    }

    /// What a server would refuse or never see in an order, refused here, before it is sent: from 225 an order
    /// without a time in force (10052); below 189 `includeOvernight`, which that server's placeOrder has no field for
    /// (the order would go out without it, RTH and extended hours only).
    func checkOrder(serverVersion: Int) throws(TWSEncodingError) {
        guard case .placeOrder(_, _, let order) = self else { return }
        try Self.checkOrder(order, serverVersion: serverVersion)
    }

    /// `checkOrder(serverVersion:)` for an order alone (the placement path's).
    static func checkOrder(_ order: TWSOrder, serverVersion: Int) throws(TWSEncodingError) {
        let messageName = "placeOrder"
        if serverVersion >= TWSServerVersion.oddLotBidAskQuotes, order.timeInForce.isEmpty {
            throw .unrepresentable(message: messageName, field: "tif", value: "(none: required from server version 225)")
        }
        if serverVersion < TWSServerVersion.includeOvernight, order.includeOvernight {
            throw .unsupportedServerVersion(
                message: "an order with includeOvernight (IB's overnight session)", required: TWSServerVersion.includeOvernight,
                actual: serverVersion)
        }
    }

    var isPlaceOrder: Bool {
        if case .placeOrder = self { return true }
        return false
    }

    /// Encodes the payload only (no length prefix).
    /// - Parameter serverVersion: the negotiated version.
    /// - Returns: the payload.
    /// - Throws: `TWSEncodingError.unsupportedServerVersion`, see `encode(serverVersion:)`.
    public func encodePayload(serverVersion: Int) throws(TWSEncodingError) -> ByteBuffer {
        try checkOrder(serverVersion: serverVersion)
        if TWSProtobufGates.usesProtobuf(requestID: messageID, serverVersion: serverVersion) {
            return TWSFrame.protobufPayload(messageID: messageID, body: try protobufBody())
        }
        var writer = TWSFieldWriter(style: .python, capacity: 64)
        writer.writeMessageID(messageID, serverVersion: serverVersion)
        try writeBody(into: &writer, serverVersion: serverVersion)
        return writer.payload
    }

    private func writeBody(into writer: inout TWSFieldWriter, serverVersion version: Int) throws(TWSEncodingError) {
        switch self {
        case .startAPI, .requestIDs, .currentTime, .currentTimeInMillis, .managedAccounts:
            try writeSessionBody(into: &writer, serverVersion: version)
        case .contractDetails, .marketData, .cancelMarketData, .marketDataType, .realTimeBars, .cancelRealTimeBars,
            .historicalData, .cancelHistoricalData, .marketRule:
            writeMarketDataBody(into: &writer, serverVersion: version)
        case .placeOrder, .cancelOrder, .openOrders, .allOpenOrders, .autoOpenOrders, .globalCancel, .completedOrders,
            .executions:
            try writeOrderBody(into: &writer, serverVersion: version)
        case .positions, .cancelPositions, .accountUpdates, .accountSummary, .cancelAccountSummary, .pnl, .cancelPnL,
            .pnlSingle, .cancelPnLSingle, .accountUpdatesMulti:
            writeAccountBody(into: &writer)
        }
    }

    // MARK: - Decoding

    /// Decodes a client → server payload (server side).
    /// - Parameters:
    ///   - payload: the frame's payload (after the length prefix).
    ///   - serverVersion: the negotiated version.
    /// - Returns: the typed request.
    /// - Throws: `TWSDecodingError` naming the message and field; `unknownMessageID` for ids outside §5.
    public static func decode(payload: ByteBuffer, serverVersion: Int) throws(TWSDecodingError) -> TWSRequest {
        try payload.withUnsafeReadableBytes { bytes throws(TWSDecodingError) in
            try decode(bytes: bytes, serverVersion: serverVersion)
        }
    }

    /// Decodes a client → server payload given as raw bytes, only read during the call (server side).
    /// - Throws: see `decode(payload:serverVersion:)`.
    static func decode(bytes: UnsafeRawBufferPointer, serverVersion: Int) throws(TWSDecodingError) -> TWSRequest {
        var reader = TWSFieldReader(scopedBytes: bytes, message: "request")
        let id: Int
        if TWSProtobufGates.usesBinaryMessageID(serverVersion: serverVersion) {
            let wireID = try TWSFrame.binaryMessageID(of: bytes)
            if wireID > TWSProtobufGates.protobufIDOffset {
                let protobufID = wireID - TWSProtobufGates.protobufIDOffset
                let request = try decodeProtobuf(
                    id: protobufID, body: UnsafeRawBufferPointer(rebasing: bytes[4...]))
                if let error = request.rangeError() { throw error }
                return request
            }
            id = wireID
            reader = TWSFieldReader(scopedBytes: bytes, message: "request", index: 1, position: 4)
        } else {
            id = try reader.readMessageID()
        }
        reader.message = messageName(forID: id)
        let request: TWSRequest
        switch id {
        case 71, 8, 49, 105, 17:
            request = try decodeSession(id: id, from: &reader, serverVersion: serverVersion)
        case 9, 1, 2, 59, 50, 51, 20, 25, 91:
            request = try decodeMarketData(id: id, from: &reader, serverVersion: serverVersion)
        case 3, 4, 5, 16, 15, 58, 99, 7:
            request = try decodeOrders(id: id, from: &reader, serverVersion: serverVersion)
        case 61, 64, 6, 62, 63, 92, 93, 94, 95, 76:
            request = try decodeAccount(id: id, from: &reader)
        default:
            throw .unknownMessageID(id)
        }
        try reader.expectEnd()
        if let error = request.rangeError() { throw error }
        return request
    }

    /// Reads and checks a version field whose value is fixed.
    static func skipVersion(_ reader: inout TWSFieldReader) throws(TWSDecodingError) {
        try reader.skip(1, "version")
    }
}

/// Why a message could not be encoded.
public enum TWSEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message (or one of its options) needs a newer server version.
    case unsupportedServerVersion(message: String, required: Int, actual: Int)
    /// A value the protobuf wire cannot carry (a contract multiplier that is not a number).
    case unrepresentable(message: String, field: String, value: String)

    public var description: String {
        switch self {
        case .unsupportedServerVersion(let message, let required, let actual):
            return "\(message) needs server version \(required), connected at \(actual)"
        case .unrepresentable(let message, let field, let value):
            return "\(message): \(field) '\(value)' cannot be sent in protobuf"
        }
    }
}
