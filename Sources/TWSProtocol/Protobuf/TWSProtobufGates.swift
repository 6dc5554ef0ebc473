/// Which framing each message takes at a negotiated server version: IB's gate table, as data.
///
/// From server version 201 every frame after the handshake carries a 4-byte big-endian message id; an id above 200
/// marks a protobuf body (the real id is `id − 200`), an id up to 200 a body of NUL-terminated text fields that keep
/// their in-payload version fields. A request goes protobuf once the negotiated version reaches its gate
/// (`requestGate(forMessageID:)`), exactly as the official client's `getServerVersionForMessage` decides; a response
/// is decoded by the framing its id says, whatever the version.
///
/// ```swift
/// TWSProtobufGates.usesProtobuf(requestID: 3, serverVersion: 203)   // true: placeOrder is protobuf from 203
/// ```
public enum TWSProtobufGates {
    /// Added to a message id to mark a protobuf body.
    public static let protobufIDOffset = 200
    /// The first server version whose frames carry a binary message id.
    public static let binaryMessageIDVersion = TWSServerVersion.protobuf

    /// Whether frames at `serverVersion` carry a 4-byte binary message id.
    @inline(__always)
    public static func usesBinaryMessageID(serverVersion: Int) -> Bool { serverVersion >= binaryMessageIDVersion }

    /// The server version from which the official client sends request `id` as protobuf, or `nil` when it never does
    /// through this table (text-only messages, the protobuf-only ones of `protobufOnlyRequests`, and unknown ids).
    ///
    /// Every id of the official client's outgoing list is here (ibapi 10.51.1 `getServerVersionForMessage`);
    /// `TWSProtobufGateTests` checks the table against it at test time.
    public static func requestGate(forMessageID id: Int) -> Int? {
        switch id {
        case 7: return TWSServerVersion.protobuf
        case 3, 4, 58: return TWSServerVersion.protobufPlaceOrder
        case 5, 15, 16, 99: return TWSServerVersion.protobufCompletedOrder
        case 9: return TWSServerVersion.protobufContractData
        case 1, 2, 10, 11, 59: return TWSServerVersion.protobufMarketData
        case 6, 17, 61, 62, 63, 64, 74, 75, 76, 77: return TWSServerVersion.protobufAccountsPositions
        case 20, 25, 50, 51, 87, 88, 89, 90, 96, 97, 98: return TWSServerVersion.protobufHistoricalData
        case 12, 13, 84, 85, 86, 100, 101, 102, 103: return TWSServerVersion.protobufNewsData
        case 22, 23, 24, 92, 93, 94, 95: return TWSServerVersion.protobufScanData
        case 18, 19, 21, 54, 55, 56, 57: return TWSServerVersion.protobufRestMessages1
        case 78, 79, 80, 81, 83, 91, 104: return TWSServerVersion.protobufRestMessages2
        case 8, 14, 49, 65, 66, 67, 68, 69, 70, 71, 82, 105: return TWSServerVersion.protobufRestMessages3
        default: return nil
        }
    }

    /// Requests that exist only as protobuf, with the version that introduced each: cancelContractData (106) and
    /// cancelHistoricalTicks (107) from 215, reqConfig (108) from 219, updateConfig (109) from 221.
    public static let protobufOnlyRequests: [Int: Int] = [
        106: TWSServerVersion.cancelContractData, 107: TWSServerVersion.cancelContractData,
        108: TWSServerVersion.config, 109: TWSServerVersion.updateConfig,
    ]

    /// Requests the official client sends as text at every version (verifyAndAuthRequest 72, verifyAndAuthMessage 73).
    public static let textOnlyRequests: Set<Int> = [72, 73]

    /// Whether request `id` is sent as protobuf at `serverVersion` (the official client's `useProtoBuf`).
    @inline(__always)
    public static func usesProtobuf(requestID id: Int, serverVersion: Int) -> Bool {
        if let gate = requestGate(forMessageID: id) { return gate <= serverVersion }
        if let gate = protobufOnlyRequests[id] { return gate <= serverVersion }
        return false
    }

    /// The server version from which the gateway simulator sends response `id` as protobuf, or `nil` for never: the
    /// family of the requests that ask for it (errors and executions 201, orders 203, open and completed orders
    /// 203/204, contract details 205, market data 206, accounts and positions 207, bars 208, P&L 210, market rules
    /// 212, the rest 213), as IB's servers switch them. A client decodes either framing at any version ≥ 201.
    public static func responseGate(forMessageID id: Int) -> Int? {
        switch id {
        case 4, 11, 55, 59: return TWSServerVersion.protobuf
        case 3, 5, 53: return TWSServerVersion.protobufPlaceOrder
        case 101, 102: return TWSServerVersion.protobufCompletedOrder
        case 10, 52: return TWSServerVersion.protobufContractData
        case 1, 2, 45, 46, 57, 58, 81: return TWSServerVersion.protobufMarketData
        case 6, 7, 8, 15, 54, 61, 62, 63, 64, 74: return TWSServerVersion.protobufAccountsPositions
        case 17, 50, 90, 108: return TWSServerVersion.protobufHistoricalData
        case 94, 95: return TWSServerVersion.protobufScanData
        case 93: return TWSServerVersion.protobufRestMessages2
        case 9, 49, 109: return TWSServerVersion.protobufRestMessages3
        default: return nil
        }
    }

    /// How frames look at a negotiated version, for banners and logs: `text`, `binary ids, text and protobuf`
    /// (201…212: per message) or `binary ids, protobuf` (213 on, where every request we send is protobuf).
    public static func framingDescription(serverVersion: Int) -> String {
        if !usesBinaryMessageID(serverVersion: serverVersion) { return "text" }
        return serverVersion >= TWSServerVersion.protobufRestMessages3
            ? "binary ids, protobuf" : "binary ids, text and protobuf"
    }

    /// Whether the simulator sends response `id` as protobuf at `serverVersion`.
    @inline(__always)
    public static func usesProtobuf(responseID id: Int, serverVersion: Int) -> Bool {
        guard let gate = responseGate(forMessageID: id) else { return false }
        return gate <= serverVersion
    }
}
