import Foundation
import NIOCore

/// Every server → client message of PROTOCOL.md §6, typed.
///
/// `decode(payload:serverVersion:)` is the client side; it reads fields straight from the payload bytes (no
/// `[String]` split), so the tick path does not allocate. `encode(serverVersion:)` is the simulator side and
/// writes numbers as TWS does (Java spelling).
///
/// ```swift
/// while let payload = try frames.nextPayload() {
///     switch try TWSResponse.decode(payload: payload, serverVersion: version) {
///     case .tickPrice(let tick): ...
///     default: ...
///     }
/// }
/// ```
public enum TWSResponse: Sendable, Equatable {
    /// nextValidId (9).
    case nextValidID(orderID: Int)
    /// managedAccounts (15): comma-separated list (see `accounts`).
    case managedAccounts(accountsList: String)
    /// currentTime (49): epoch seconds.
    case currentTime(Int64)
    /// currentTimeInMillis (109, ≥ 197).
    case currentTimeInMillis(Int64)
    /// errMsg (4).
    case error(TWSErrorMessage)
    /// tickPrice (1).
    case tickPrice(TWSTickPrice)
    /// tickSize (2).
    case tickSize(requestID: Int, tickType: TWSTickType, size: Decimal?)
    /// tickString (46).
    case tickString(requestID: Int, tickType: TWSTickType, value: String)
    /// tickGeneric (45).
    case tickGeneric(requestID: Int, tickType: TWSTickType, value: Double)
    /// tickReqParams (81).
    case tickRequestParameters(requestID: Int, minTick: Double, bboExchange: String, snapshotPermissions: Int)
    /// marketDataType (58).
    case marketDataType(requestID: Int, marketDataType: Int)
    /// tickSnapshotEnd (57).
    case tickSnapshotEnd(requestID: Int)
    /// orderStatus (3).
    indirect case orderStatus(TWSOrderStatus)
    /// openOrder (5).
    indirect case openOrder(TWSOpenOrder)
    /// openOrderEnd (53).
    case openOrderEnd
    /// execDetails (11); requestID -1 for live fills.
    indirect case executionDetails(requestID: Int, contract: TWSContract, execution: TWSExecution)
    /// execDetailsEnd (55).
    case executionDetailsEnd(requestID: Int)
    /// commissionReport (59).
    indirect case commissionReport(TWSCommissionReport)
    /// position (61).
    indirect case position(account: String, contract: TWSContract, position: Decimal?, averageCost: Double)
    /// positionEnd (62).
    case positionEnd
    /// updateAccountValue (6).
    indirect case accountValue(key: String, value: String, currency: String, accountName: String)
    /// updatePortfolio (7).
    indirect case portfolioValue(TWSPortfolioValue)
    /// updateAccountTime (8): `HH:mm`.
    case accountTime(String)
    /// accountDownloadEnd (54).
    case accountDownloadEnd(accountName: String)
    /// accountSummary (63).
    indirect case accountSummary(requestID: Int, account: String, tag: String, value: String, currency: String)
    /// accountSummaryEnd (64).
    case accountSummaryEnd(requestID: Int)
    /// contractDetails (10).
    indirect case contractDetails(requestID: Int, details: TWSContractDetails)
    /// contractDetailsEnd (52).
    case contractDetailsEnd(requestID: Int)
    /// historicalData (17); the dates ride along below 196 only.
    indirect case historicalData(requestID: Int, startDate: String?, endDate: String?, bars: [TWSBar])
    /// historicalDataEnd (108, ≥ 196).
    indirect case historicalDataEnd(requestID: Int, startDate: String, endDate: String)
    /// historicalDataUpdate (90).
    indirect case historicalDataUpdate(requestID: Int, bar: TWSBar)
    /// realTimeBars (50).
    indirect case realTimeBar(requestID: Int, bar: TWSRealTimeBar)
    /// pnl (94); unavailable values are `nil`.
    case pnl(requestID: Int, dailyPnL: Double?, unrealizedPnL: Double?, realizedPnL: Double?)
    /// pnlSingle (95).
    indirect case pnlSingle(TWSPnLSingle)
    /// completedOrder (101).
    indirect case completedOrder(TWSCompletedOrder)
    /// completedOrdersEnd (102).
    case completedOrdersEnd
    /// accountUpdateMultiEnd (74).
    case accountUpdateMultiEnd(requestID: Int)
    /// marketRule (93): a rule's price increments, answering reqMarketRule (no request id: the rule id says which).
    indirect case marketRule(marketRuleID: Int, increments: [TWSPriceIncrement])

    /// The message id on the wire.
    public var messageID: Int {
        switch self {
        case .nextValidID: return 9
        case .managedAccounts: return 15
        case .currentTime: return 49
        case .currentTimeInMillis: return 109
        case .error: return 4
        case .tickPrice: return 1
        case .tickSize: return 2
        case .tickString: return 46
        case .tickGeneric: return 45
        case .tickRequestParameters: return 81
        case .marketDataType: return 58
        case .tickSnapshotEnd: return 57
        case .orderStatus: return 3
        case .openOrder: return 5
        case .openOrderEnd: return 53
        case .executionDetails: return 11
        case .executionDetailsEnd: return 55
        case .commissionReport: return 59
        case .position: return 61
        case .positionEnd: return 62
        case .accountValue: return 6
        case .portfolioValue: return 7
        case .accountTime: return 8
        case .accountDownloadEnd: return 54
        case .accountSummary: return 63
        case .accountSummaryEnd: return 64
        case .contractDetails: return 10
        case .contractDetailsEnd: return 52
        case .historicalData: return 17
        case .historicalDataEnd: return 108
        case .historicalDataUpdate: return 90
        case .realTimeBar: return 50
        case .pnl: return 94
        case .pnlSingle: return 95
        case .completedOrder: return 101
        case .completedOrdersEnd: return 102
        case .accountUpdateMultiEnd: return 74
        case .marketRule: return 93
        }
    }

    /// IB's name of the message, for logs and errors.
    public var messageName: String { Self.messageName(forID: messageID) }

    /// IB's name of a server → client message id.
    public static func messageName(forID id: Int) -> String {
        switch id {
        case 9: return "nextValidId"
        case 15: return "managedAccounts"
        case 49: return "currentTime"
        case 109: return "currentTimeInMillis"
        case 4: return "errMsg"
        case 1: return "tickPrice"
        case 2: return "tickSize"
        case 46: return "tickString"
        case 45: return "tickGeneric"
        case 81: return "tickReqParams"
        case 58: return "marketDataType"
        case 57: return "tickSnapshotEnd"
        case 3: return "orderStatus"
        case 5: return "openOrder"
        case 53: return "openOrderEnd"
        case 11: return "execDetails"
        case 55: return "execDetailsEnd"
        case 59: return "commissionReport"
        case 61: return "position"
        case 62: return "positionEnd"
        case 6: return "updateAccountValue"
        case 7: return "updatePortfolio"
        case 8: return "updateAccountTime"
        case 54: return "accountDownloadEnd"
        case 63: return "accountSummary"
        case 64: return "accountSummaryEnd"
        case 10: return "contractDetails"
        case 52: return "contractDetailsEnd"
        case 17: return "historicalData"
        case 108: return "historicalDataEnd"
        case 90: return "historicalDataUpdate"
        case 50: return "realTimeBars"
        case 94: return "pnl"
        case 95: return "pnlSingle"
        case 101: return "completedOrder"
        case 102: return "completedOrdersEnd"
        case 74: return "accountUpdateMultiEnd"
        case 93: return "marketRule"
        default: return "response"
        }
    }

    /// The accounts of a managedAccounts message (a trailing comma is tolerated); empty for other messages.
    public var accounts: [String] {
        guard case .managedAccounts(let list) = self else { return [] }
        return list.split(separator: ",").map { String($0) }
    }

    // MARK: - Encoding

    /// Encodes the framed message as TWS would send it.
    /// - Parameter serverVersion: the negotiated version.
    /// - Returns: the framed bytes.
    /// - Throws: `TWSEncodingError.unsupportedServerVersion` for currentTimeInMillis below 197 and
    ///   historicalDataEnd below 196.
    public func encode(serverVersion: Int) throws(TWSEncodingError) -> ByteBuffer {
        if TWSProtobufGates.usesProtobuf(responseID: messageID, serverVersion: serverVersion) {
            return TWSFrame.framedProtobuf(messageID: messageID, body: try protobufBody())
        }
        // Encoded in place into its frame, as requests are (no payload buffer copied into a second one).
        var writer = TWSFieldWriter(style: .java, capacity: 64)
        writer.beginFrame()
        try writeMessage(into: &writer, serverVersion: serverVersion)
        return writer.finishFrame()
    }

    /// Encodes the payload only.
    /// - Parameter serverVersion: the negotiated version.
    /// - Returns: the payload.
    /// - Throws: `TWSEncodingError.unsupportedServerVersion`, see `encode(serverVersion:)`.
    public func encodePayload(serverVersion: Int) throws(TWSEncodingError) -> ByteBuffer {
        if TWSProtobufGates.usesProtobuf(responseID: messageID, serverVersion: serverVersion) {
            return TWSFrame.protobufPayload(messageID: messageID, body: try protobufBody())
        }
        var writer = TWSFieldWriter(style: .java, capacity: 64)
        try writeMessage(into: &writer, serverVersion: serverVersion)
        return writer.payload
    }

    /// The message id and body.
    private func writeMessage(into writer: inout TWSFieldWriter, serverVersion: Int) throws(TWSEncodingError) {
        writer.writeMessageID(messageID, serverVersion: serverVersion)
        switch self {
        case .nextValidID, .managedAccounts, .currentTime, .currentTimeInMillis, .error, .completedOrdersEnd:
            try writeSessionBody(into: &writer, serverVersion: serverVersion)
        case .tickPrice, .tickSize, .tickString, .tickGeneric, .tickRequestParameters, .marketDataType,
            .tickSnapshotEnd:
            writeTickBody(into: &writer)
        case .orderStatus, .openOrder, .openOrderEnd, .executionDetails, .executionDetailsEnd, .commissionReport,
            .completedOrder:
            writeOrderBody(into: &writer, serverVersion: serverVersion)
        case .position, .positionEnd, .accountValue, .portfolioValue, .accountTime, .accountDownloadEnd,
            .accountSummary, .accountSummaryEnd, .pnl, .pnlSingle, .accountUpdateMultiEnd:
            writeAccountBody(into: &writer)
        case .contractDetails, .contractDetailsEnd, .historicalData, .historicalDataEnd, .historicalDataUpdate,
            .realTimeBar, .marketRule:
            try writeDataBody(into: &writer, serverVersion: serverVersion)
        }
    }

    // MARK: - Decoding

    /// Decodes a server → client payload (client side).
    /// - Parameters:
    ///   - payload: the frame's payload (after the length prefix).
    ///   - serverVersion: the negotiated version.
    /// - Returns: the typed response.
    /// - Throws: `TWSDecodingError` naming the message and field; `unknownMessageID` for ids outside §6 (skip
    ///   those with a log line).
    public static func decode(payload: ByteBuffer, serverVersion: Int) throws(TWSDecodingError) -> TWSResponse {
        try payload.withUnsafeReadableBytes { bytes throws(TWSDecodingError) in
            try decode(bytes: bytes, serverVersion: serverVersion)
        }
    }

    /// Decodes a server → client payload given as raw bytes (client side), e.g. straight from a receive buffer.
    ///
    /// The bytes are only read during the call. Every read is bounds-checked: any byte sequence either decodes or
    /// throws.
    /// - Parameters:
    ///   - bytes: the frame's payload (after the length prefix).
    ///   - serverVersion: the negotiated version.
    /// - Returns: the typed response.
    /// - Throws: see `decode(payload:serverVersion:)`.
    public static func decode(bytes: UnsafeRawBufferPointer, serverVersion: Int) throws(TWSDecodingError) -> TWSResponse {
        let position: (id: Int, offset: Int)
        if TWSProtobufGates.usesBinaryMessageID(serverVersion: serverVersion) {
            let wireID = try TWSFrame.binaryMessageID(of: bytes)
            if wireID > TWSProtobufGates.protobufIDOffset {
                return try decodeProtobufPayload(wireID: wireID, bytes: bytes)
            }
            position = (wireID, 4)
        } else {
            position = try fieldsStart(of: bytes)
        }
        // The fast path in its delivery form (one specialisation of it for both entry points).
        var fast: TWSResponse?
        if decodeFast(id: position.id, bytes: bytes, position: position.offset, { fast = $0 }) != nil, let fast {
            if let error = fast.rangeError() { throw error }
            return fast
        }
        return try decodeGeneral(id: position.id, bytes: bytes, position: position.offset, serverVersion: serverVersion)
    }

    /// Decodes a payload given as raw bytes and hands the response to `body` (what `TWSFrameDecoder.decodeResponses`
    /// uses): the same result as `decode(bytes:serverVersion:)`, delivered without a generic enum copy or destroy.
    @inline(__always)
    static func decode(
        bytes: UnsafeRawBufferPointer,
        serverVersion: Int,
        into body: (TWSResponse) -> Void
    ) throws(TWSDecodingError) {
        let position: (id: Int, offset: Int)
        if TWSProtobufGates.usesBinaryMessageID(serverVersion: serverVersion) {
            let wireID = try TWSFrame.binaryMessageID(of: bytes)
            if wireID > TWSProtobufGates.protobufIDOffset {
                body(try decodeProtobufPayload(wireID: wireID, bytes: bytes))
                return
            }
            position = (wireID, 4)
        } else {
            position = try fieldsStart(of: bytes)
        }
        var rangeError: TWSDecodingError?
        let delivered: Void? = decodeFast(id: position.id, bytes: bytes, position: position.offset) { response in
            if let error = response.rangeError() { rangeError = error } else { body(response) }
        }
        if let rangeError { throw rangeError }
        if delivered != nil { return }
        body(try decodeGeneral(id: position.id, bytes: bytes, position: position.offset, serverVersion: serverVersion))
    }

    /// Decodes a protobuf payload (`wireID` = id + 200, then the body) and checks its ranges.
    static func decodeProtobufPayload(
        wireID: Int, bytes: UnsafeRawBufferPointer
    ) throws(TWSDecodingError) -> TWSResponse {
        let response = try decodeProtobuf(
            id: wireID - TWSProtobufGates.protobufIDOffset, body: UnsafeRawBufferPointer(rebasing: bytes[4...]))
        if let error = response.rangeError() { throw error }
        return response
    }

    /// Reads the message id (field 0): the id and the offset of field 1. The message id is read before any reader
    /// exists so that the reader is made once, with its message name.
    @inline(__always)
    static func fieldsStart(of bytes: UnsafeRawBufferPointer) throws(TWSDecodingError) -> (id: Int, offset: Int) {
        // One pass for a plain id (same value as `scanInteger` whenever it succeeds); else the checks below.
        var cursor = TWSFieldCursor(bytes: bytes, position: 0)
        if let id = cursor.fusedInt(allowEmpty: false) { return (id, cursor.position) }
        guard let idEnd = TWSFieldReader.fieldEnd(in: bytes, from: 0) else {
            throw .missingField(message: "response", field: "msgId", index: 0)
        }
        let idField = UnsafeRawBufferPointer(rebasing: bytes[0..<idEnd])
        guard let id = TWSFieldReader.scanInteger(idField) else {
            throw .malformedMessageID(String(decoding: idField, as: UTF8.self))
        }
        return (id, idEnd + 1)
    }

    /// The general decoder for message `id` whose fields start at `position` (after the message id): every message,
    /// every error. `decodeFast` handles the common streaming messages first.
    static func decodeGeneral(
        id: Int,
        bytes: UnsafeRawBufferPointer,
        position: Int,
        serverVersion: Int
    ) throws(TWSDecodingError) -> TWSResponse {
        var reader = TWSFieldReader(scopedBytes: bytes, message: messageName(forID: id), index: 1, position: position)
        let response: TWSResponse
        switch id {
        case 1, 2, 46, 45, 81, 58, 57:
            response = try decodeTick(id: id, from: &reader)
        case 9, 15, 49, 109, 4, 102:
            response = try decodeSession(id: id, from: &reader, serverVersion: serverVersion)
        case 3, 5, 53, 11, 55, 59, 101:
            response = try decodeOrders(id: id, from: &reader, serverVersion: serverVersion)
        case 61, 62, 6, 7, 8, 54, 63, 64, 94, 95, 74:
            response = try decodeAccount(id: id, from: &reader)
        case 10, 52, 17, 108, 90, 50, 93:
            response = try decodeData(id: id, from: &reader, serverVersion: serverVersion)
        default:
            throw .unknownMessageID(id)
        }
        try reader.expectEnd()
        if let error = response.rangeError() { throw error }
        return response
    }

    /// Skips a version field.
    static func skipVersion(_ reader: inout TWSFieldReader) throws(TWSDecodingError) {
        try reader.skip(1, "version")
    }
}
