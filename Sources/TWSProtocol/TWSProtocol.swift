/// Constants of the TWS API protocol that every other file refers to.
///
/// The module is a pure codec (Foundation + NIOCore only, no I/O, no clock):
/// - `TWSClientHandshake` / `TWSServerHandshake`: the `API\0` hello and version negotiation as state machines.
/// - `TWSFrameDecoder`: cuts a byte stream into payloads (4-byte big-endian length, at most 0xFFFFFF bytes).
/// - `TWSRequest` (client → server) and `TWSResponse` (server → client): every message of PROTOCOL.md §5–6,
///   each with `encode(serverVersion:)` and `decode(payload:serverVersion:)`, version-gated for 176…226: text
///   frames below 201, binary message ids with text or protobuf bodies from 201.
/// - Wire types: `TWSContract`, `TWSOrder`, `TWSOrderState`, `TWSExecution`, `TWSContractDetails`, `TWSBar`, …
public enum TWSProtocolConstants {
    /// The lowest server version this codec speaks.
    public static let minimumServerVersion = 176
    /// The highest server version of the text protocol: from 201 frames carry binary message ids.
    public static let maximumServerVersion = 200
    /// The highest server version the codec can speak when asked to (a configured ceiling above the default):
    /// the official client 10.51's maximum. From 201 frames carry binary message ids and protobuf bodies
    /// (`TWSProtobufGates`).
    public static let highestServerVersion = TWSServerVersion.conditionsIncludeOvernight
    /// The highest server version a client advertises by default (`connection.maxServerVersion`): the highest one
    /// every message we use is implemented for, in both framings (docs/tws-compatibility.md).
    public static let defaultMaximumServerVersion = highestServerVersion
    /// The largest payload TWS accepts: 16 MiB − 1.
    public static let maximumPayloadLength = 0xFF_FFFF
}
