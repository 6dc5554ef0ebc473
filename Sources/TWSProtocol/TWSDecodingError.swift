/// Why a frame or a message could not be decoded.
///
/// Every case names the message and, where it applies, the field, so a log line says exactly what was wrong.
/// A decoding error never ends the stream: the caller logs it and goes on with the next frame.
public enum TWSDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A length prefix larger than the 16 MiB − 1 that TWS allows.
    case frameTooLarge(length: Int, maximum: Int)
    /// A required field is missing: the payload ended before it.
    case missingField(message: String, field: String, index: Int)
    /// A field is present but does not parse as its type.
    case malformedField(message: String, field: String, index: Int, value: String)
    /// The message id is not one this codec knows.
    case unknownMessageID(Int)
    /// The payload's first field is not a message id.
    case malformedMessageID(String)
    /// The message needs a newer server version than the one negotiated.
    case unsupportedServerVersion(message: String, required: Int, actual: Int)
    /// A field parsed but lies outside its documented range (`TWSValueRange`), e.g. an order id beyond 2³¹−1.
    case outOfRange(message: String, field: String, value: String, allowed: String)
    /// Fields were left over after the message was fully decoded.
    case trailingFields(message: String, count: Int)
    /// The handshake went wrong (bad hello, bad version reply).
    case handshake(String)

    public var description: String {
        switch self {
        case .frameTooLarge(let length, let maximum):
            return "frame of \(length) bytes exceeds the maximum of \(maximum)"
        case .missingField(let message, let field, let index):
            return "\(message): missing field '\(field)' (#\(index))"
        case .malformedField(let message, let field, let index, let value):
            return "\(message): malformed field '\(field)' (#\(index)): '\(value)'"
        case .unknownMessageID(let id):
            return "unknown message id \(id)"
        case .malformedMessageID(let text):
            return "malformed message id '\(text)'"
        case .unsupportedServerVersion(let message, let required, let actual):
            return "\(message) needs server version \(required), connected at \(actual)"
        case .outOfRange(let message, let field, let value, let allowed):
            return "\(message): field '\(field)' is \(value), outside \(allowed)"
        case .trailingFields(let message, let count):
            return "\(message): \(count) unexpected trailing field(s)"
        case .handshake(let text):
            return "handshake: \(text)"
        }
    }
}
