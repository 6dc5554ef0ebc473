import NIOCore

/// Cuts a TCP byte stream into message payloads (PROTOCOL.md §2.3): a 4-byte big-endian length, then the payload.
///
/// The decoder is pure and incremental: feed it whatever chunks the socket delivers, then pull complete payloads
/// until it returns `nil`. Returned payloads are slices of the internal buffer (no copy).
///
/// A length above `maximumPayloadLength` cannot be resynchronised (there are no other frame markers), so the
/// decoder throws `TWSDecodingError.frameTooLarge`, stays failed (every later call throws the same error) and
/// keeps no bytes until `reset()` is called — the caller is expected to close the connection.
///
/// ```swift
/// var decoder = TWSFrameDecoder()
/// decoder.append(chunk)
/// while let payload = try decoder.nextPayload() {
///     let response = try TWSResponse.decode(payload: payload, serverVersion: 200)
/// }
/// ```
public struct TWSFrameDecoder: Sendable {
    /// The largest payload accepted.
    public let maximumPayloadLength: Int
    private var buffer: ByteBuffer
    private var failure: TWSDecodingError?

    /// Creates a decoder.
    /// - Parameter maximumPayloadLength: the largest payload accepted; TWS's limit by default.
    public init(maximumPayloadLength: Int = TWSProtocolConstants.maximumPayloadLength) {
        self.maximumPayloadLength = maximumPayloadLength
        self.buffer = ByteBufferAllocator().buffer(capacity: 0)
    }

    /// The number of bytes received but not yet returned as payloads.
    public var bufferedByteCount: Int { buffer.readableBytes }

    /// Whether the decoder has failed and must be reset.
    public var hasFailed: Bool { failure != nil }

    /// Appends received bytes. Bytes appended after a failure are dropped.
    public mutating func append(_ bytes: ByteBuffer) {
        guard failure == nil else { return }
        var bytes = bytes
        if buffer.readableBytes == 0 && buffer.readerIndex > 0 { buffer.clear() }
        buffer.writeBuffer(&bytes)
    }

    /// Appends received bytes.
    public mutating func append<Bytes: Sequence>(contentsOf bytes: Bytes) where Bytes.Element == UInt8 {
        guard failure == nil else { return }
        if buffer.readableBytes == 0 && buffer.readerIndex > 0 { buffer.clear() }
        buffer.writeBytes(bytes)
    }

    /// Returns the next complete payload, or `nil` when more bytes are needed.
    /// - Throws: `TWSDecodingError.frameTooLarge` for a length prefix above the maximum (and again on every call
    ///   until `reset()`).
    public mutating func nextPayload() throws(TWSDecodingError) -> ByteBuffer? {
        if let failure { throw failure }
        guard let length = buffer.getInteger(at: buffer.readerIndex, endianness: .big, as: UInt32.self) else {
            return nil
        }
        if Int(length) > maximumPayloadLength {
            let error = TWSDecodingError.frameTooLarge(length: Int(length), maximum: maximumPayloadLength)
            failure = error
            buffer.clear()
            throw error
        }
        guard buffer.readableBytes >= 4 + Int(length) else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        guard let payload = buffer.readSlice(length: Int(length)) else { return nil }
        if buffer.readerIndex > 65_536 && buffer.readerIndex > buffer.readableBytes {
            buffer.discardReadBytes()
        }
        return payload
    }

    /// Returns every complete payload currently buffered.
    /// - Throws: `TWSDecodingError.frameTooLarge`, see `nextPayload()`.
    public mutating func allPayloads() throws(TWSDecodingError) -> [ByteBuffer] {
        var payloads: [ByteBuffer] = []
        while let payload = try nextPayload() { payloads.append(payload) }
        return payloads
    }

    /// Drops every buffered byte and clears a failure, e.g. for a new connection.
    public mutating func reset() {
        buffer.clear()
        failure = nil
    }
}
