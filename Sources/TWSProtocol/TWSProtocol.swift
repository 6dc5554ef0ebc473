/// Constants of the TWS API text protocol that every other file refers to.
///
/// The module is a pure codec (Foundation + NIOCore only, no I/O, no clock):
/// - `TWSClientHandshake` / `TWSServerHandshake`: the `API\0` hello and version negotiation as state machines.
/// - `TWSFrameDecoder`: cuts a byte stream into payloads (4-byte big-endian length, at most 0xFFFFFF bytes).
/// - `TWSRequest` (client → server) and `TWSResponse` (server → client): every message of PROTOCOL.md §5–6,
///   each with `encode(serverVersion:)` and `decode(payload:serverVersion:)`, version-gated for 176…200.
/// - Wire types: `TWSContract`, `TWSOrder`, `TWSOrderState`, `TWSExecution`, `TWSContractDetails`, `TWSBar`, …
public enum TWSProtocolConstants {
    /// The lowest server version this codec speaks.
    public static let minimumServerVersion = 176
    /// The highest server version of the text protocol (201+ carries protobuf).
    public static let maximumServerVersion = 200
    /// The largest payload TWS accepts: 16 MiB − 1.
    public static let maximumPayloadLength = 0xFF_FFFF
}
