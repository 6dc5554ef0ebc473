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

    // MARK: - Binary message ids (server version ≥ 201)

    /// A protobuf frame: length, the 4-byte id `messageID + 200`, the body (which may be empty).
    public static func framedProtobuf(messageID: Int, body: [UInt8]) -> ByteBuffer {
        var frame = ByteBufferAllocator().buffer(capacity: body.count + 8)
        frame.writeInteger(UInt32(body.count + 4), endianness: .big)
        frame.writeInteger(UInt32(messageID + TWSProtobufGates.protobufIDOffset), endianness: .big)
        frame.writeBytes(body)
        return frame
    }

    /// A protobuf payload (no length prefix): the 4-byte id `messageID + 200`, then the body.
    public static func protobufPayload(messageID: Int, body: [UInt8]) -> ByteBuffer {
        var payload = ByteBufferAllocator().buffer(capacity: body.count + 4)
        payload.writeInteger(UInt32(messageID + TWSProtobufGates.protobufIDOffset), endianness: .big)
        payload.writeBytes(body)
        return payload
    }

    /// The 4-byte big-endian message id at the start of a payload (server version ≥ 201).
    /// - Throws: `missingField` when the payload is shorter than 4 bytes, `malformedMessageID` for an id beyond
    ///   the protocol's ids (text ids ≤ 200, protobuf ids 201…455).
    public static func binaryMessageID(of bytes: UnsafeRawBufferPointer) throws(TWSDecodingError) -> Int {
        guard bytes.count >= 4 else { throw .missingField(message: "message", field: "msgId", index: 0) }
        let id = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard id > 0, id <= 2 * TWSProtobufGates.protobufIDOffset + 55 else { throw .malformedMessageID("\(id)") }
        return id
    }

    /// The message id of a payload at a server version: the text id field below 201, the binary id from 201 (a
    /// protobuf id less 200), and whether the body is protobuf; `nil` when unreadable.
    public static func messageID(of payload: ByteBuffer, serverVersion: Int) -> (id: Int, isProtobuf: Bool)? {
        if TWSProtobufGates.usesBinaryMessageID(serverVersion: serverVersion) {
            let wireID = payload.withUnsafeReadableBytes { bytes in try? binaryMessageID(of: bytes) }
            guard let wireID else { return nil }
            return wireID > TWSProtobufGates.protobufIDOffset
                ? (wireID - TWSProtobufGates.protobufIDOffset, true) : (wireID, false)
        }
        var reader = TWSFieldReader(payload: payload)
        guard let id = try? reader.readMessageID() else { return nil }
        return (id, false)
    }
}
