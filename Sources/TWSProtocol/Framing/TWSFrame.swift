import NIOCore

/// Helpers to frame payloads and to split a payload into its text fields (for tests, logs and tools; the codec
/// itself reads fields with `TWSFieldReader`).
public enum TWSFrame {
    /// Prefixes a payload with its 4-byte big-endian length.
    /// - Parameter payload: the NUL-terminated fields.
    /// - Returns: the framed bytes.
    public static func framed(_ payload: ByteBuffer) -> ByteBuffer {
        var frame = ByteBufferAllocator().buffer(capacity: payload.readableBytes + 4)
        frame.writeInteger(UInt32(payload.readableBytes), endianness: .big)
        frame.writeImmutableBuffer(payload)
        return frame
    }

    /// Builds a payload from text fields (each followed by NUL).
    /// - Parameter fields: the fields, message id first.
    /// - Returns: the payload (no length prefix).
    public static func payload(fields: [String]) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: fields.reduce(0) { $0 + $1.utf8.count + 1 })
        for field in fields {
            buffer.writeString(field)
            buffer.writeInteger(UInt8(0))
        }
        return buffer
    }

    /// Splits a payload on NUL and drops the final empty element (PROTOCOL.md §2.3).
    /// - Parameter payload: the payload bytes.
    /// - Returns: the text fields; a trailing unterminated fragment is returned as a last field.
    public static func fields(of payload: ByteBuffer) -> [String] {
        var out: [String] = []
        var start = payload.readableBytesView.startIndex
        let view = payload.readableBytesView
        for index in view.indices where view[index] == 0 {
            out.append(String(decoding: view[start..<index], as: UTF8.self))
            start = index + 1
        }
        if start < view.endIndex { out.append(String(decoding: view[start...], as: UTF8.self)) }
        return out
    }
}
