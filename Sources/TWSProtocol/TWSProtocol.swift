/// Constants of the TWS API text protocol that every other file refers to.
public enum TWSProtocolConstants {
    /// The lowest server version this codec speaks.
    public static let minimumServerVersion = 176
    /// The highest server version of the text protocol (201+ carries protobuf).
    public static let maximumServerVersion = 200
    /// The largest payload TWS accepts: 16 MiB − 1.
    public static let maximumPayloadLength = 0xFF_FFFF
}
