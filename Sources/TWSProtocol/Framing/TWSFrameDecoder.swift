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
        if buffer.readableBytes == 0 && buffer.readerIndex > 0 { buffer.clear() }
        buffer.writeImmutableBuffer(bytes)
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
        guard let length = try nextPayloadLength() else { return nil }
        buffer.moveReaderIndex(forwardBy: 4)
        guard let payload = buffer.readSlice(length: length) else { return nil }
        compactIfWorthIt()
        return payload
    }

    /// Decodes the next complete frame in place (no payload slice is made), or returns `nil` when more bytes are
    /// needed. This is `nextPayload()` followed by `TWSResponse.decode(payload:serverVersion:)`, without the
    /// slice's reference-count traffic.
    ///
    /// The frame is consumed even when its payload does not decode: after a `TWSDecodingError` other than
    /// `frameTooLarge`, the next call goes on with the following frame (log the error and continue).
    /// - Parameter serverVersion: the negotiated version.
    /// - Returns: the typed response, or `nil` when no complete frame is buffered.
    /// - Throws: `TWSDecodingError.frameTooLarge` (see `nextPayload()`), or the payload's decoding error.
    public mutating func nextResponse(serverVersion: Int) throws(TWSDecodingError) -> TWSResponse? {
        guard let length = try nextPayloadLength() else { return nil }
        let result: Result<TWSResponse, TWSDecodingError> = buffer.withUnsafeReadableBytes { bytes in
            // nextPayloadLength() checked that 4 + length bytes are readable.
            let payload = UnsafeRawBufferPointer(rebasing: bytes[4..<4 + length])
            do throws(TWSDecodingError) {
                return .success(try TWSResponse.decode(bytes: payload, serverVersion: serverVersion))
            } catch {
                return .failure(error)
            }
        }
        buffer.moveReaderIndex(forwardBy: 4 + length)
        compactIfWorthIt()
        return try result.get()
    }

    /// Decodes every complete buffered frame in place, in order, handing each response to `body`; the bytes of an
    /// incomplete last frame stay buffered. This is the cheapest way to drain the decoder after `append(_:)`: the
    /// buffer is opened once for all frames, no payload slice is made.
    ///
    /// When a payload does not decode, the responses before it have been handed to `body`, the bad frame is
    /// consumed and its error thrown: call again to go on with the frames after it (log the error and continue).
    ///
    /// ```swift
    /// decoder.append(chunk)
    /// try decoder.decodeResponses(serverVersion: version) { response in handle(response) }
    /// ```
    /// - Parameters:
    ///   - serverVersion: the negotiated version.
    ///   - body: called with each decoded response.
    /// - Returns: the number of responses handed to `body`.
    /// - Throws: `TWSDecodingError.frameTooLarge` (see `nextPayload()`), or the first payload's decoding error.
    @discardableResult
    public mutating func decodeResponses(
        serverVersion: Int,
        _ body: (TWSResponse) -> Void
    ) throws(TWSDecodingError) -> Int {
        try drain(serverVersion: serverVersion, body, undecodable: { _, _ in false })
    }

    /// `decodeResponses(serverVersion:_:)`, or with `undecodable` returning `true`, going on past bad frames.
    private mutating func drain(
        serverVersion: Int,
        _ body: (TWSResponse) -> Void,
        undecodable: (UnsafeRawBufferPointer, TWSDecodingError) -> Bool
    ) throws(TWSDecodingError) -> Int {
        if let failure { throw failure }
        let maximum = maximumPayloadLength
        let outcome = buffer.withUnsafeReadableBytes { bytes in
            Self.decodeFrames(in: bytes, maximum: maximum, serverVersion: serverVersion, body, undecodable: undecodable)
        }
        if let error = outcome.error, case .frameTooLarge = error {
            failure = error
            buffer.clear()
            throw error
        }
        buffer.moveReaderIndex(forwardBy: outcome.consumed)
        compactIfWorthIt()
        if let error = outcome.error { throw error }
        return outcome.count
    }

    /// Appends a received chunk and decodes every complete frame: the same responses, errors and state as
    /// `append(chunk)` followed by `decodeResponses(serverVersion:_:)`, with less copying. Frames that lie wholly
    /// inside `chunk` are decoded in the chunk's own memory; only the bytes of frames split across chunks are copied
    /// into the decoder's buffer (instead of the whole chunk).
    ///
    /// When a payload does not decode, the responses before it have been handed to `body`, the bad frame is consumed,
    /// the rest of the chunk is buffered and the error thrown: call `decodeResponses(serverVersion:_:)` to go on.
    ///
    /// ```swift
    /// // In a channel handler's channelRead:
    /// try decoder.decodeResponses(appending: chunk, serverVersion: version) { response in handle(response) }
    /// ```
    /// - Parameters:
    ///   - chunk: the received bytes.
    ///   - serverVersion: the negotiated version.
    ///   - body: called with each decoded response.
    /// - Returns: the number of responses handed to `body`.
    /// - Throws: `TWSDecodingError.frameTooLarge` (see `nextPayload()`), or the first payload's decoding error.
    @discardableResult
    public mutating func decodeResponses(
        appending chunk: ByteBuffer,
        serverVersion: Int,
        _ body: (TWSResponse) -> Void
    ) throws(TWSDecodingError) -> Int {
        try drain(appending: chunk, serverVersion: serverVersion, body, undecodable: { _, _ in false })
    }

    /// `decodeResponses(appending:serverVersion:_:)`, but a frame whose payload does not decode is handed to
    /// `undecodable` (a copy of its payload, and the error) and decoding goes on with the next frame: what a client
    /// read loop wants (log the bad message, or route it by the fields it can read, and keep the stream going).
    ///
    /// ```swift
    /// try decoder.decodeResponses(appending: chunk, serverVersion: version) { response in
    ///     handle(response)
    /// } undecodable: { payload, error in
    ///     logger.warning("skipping undecodable message: \(error)")
    /// }
    /// ```
    /// - Parameters:
    ///   - chunk: the received bytes.
    ///   - serverVersion: the negotiated version.
    ///   - body: called with each decoded response, in order.
    ///   - undecodable: called, in order with `body`, with the payload and error of each frame that does not decode.
    /// - Returns: the number of responses handed to `body`.
    /// - Throws: only `TWSDecodingError.frameTooLarge` (see `nextPayload()`).
    @discardableResult
    public mutating func decodeResponses(
        appending chunk: ByteBuffer,
        serverVersion: Int,
        _ body: (TWSResponse) -> Void,
        undecodable: (ByteBuffer, TWSDecodingError) -> Void
    ) throws(TWSDecodingError) -> Int {
        try drain(appending: chunk, serverVersion: serverVersion, body) { bytes, error in
            undecodable(Self.payloadCopy(bytes), error)
            return true
        }
    }

    /// `decodeResponses(serverVersion:_:)`, handing each frame that does not decode to `undecodable` and going on
    /// (see `decodeResponses(appending:serverVersion:_:undecodable:)`).
    /// - Throws: only `TWSDecodingError.frameTooLarge`.
    @discardableResult
    public mutating func decodeResponses(
        serverVersion: Int,
        _ body: (TWSResponse) -> Void,
        undecodable: (ByteBuffer, TWSDecodingError) -> Void
    ) throws(TWSDecodingError) -> Int {
        try drain(serverVersion: serverVersion, body) { bytes, error in
            undecodable(Self.payloadCopy(bytes), error)
            return true
        }
    }

    /// A bad frame's payload, copied out of the receive buffer (a rare path).
    private static func payloadCopy(_ bytes: UnsafeRawBufferPointer) -> ByteBuffer {
        var payload = ByteBufferAllocator().buffer(capacity: bytes.count)
        payload.writeBytes(bytes)
        return payload
    }

    /// The appending drain; `undecodable` returning `true` goes on past a bad frame instead of throwing its error.
    private mutating func drain(
        appending chunk: ByteBuffer,
        serverVersion: Int,
        _ body: (TWSResponse) -> Void,
        undecodable: (UnsafeRawBufferPointer, TWSDecodingError) -> Bool
    ) throws(TWSDecodingError) -> Int {
        if let failure { throw failure }
        var chunk = chunk
        // 1. Move just enough bytes into the buffer for it to end at a frame boundary (a split frame completed).
        while buffer.readableBytes > 0 && chunk.readableBytes > 0 {
            let missing = bytesMissingForFrameBoundary()
            guard missing > 0, var part = chunk.readSlice(length: Swift.min(missing, chunk.readableBytes)) else { break }
            buffer.writeBuffer(&part)
        }
        // 2. Decode what the buffer holds.
        var count = 0
        do throws(TWSDecodingError) {
            count = try drain(serverVersion: serverVersion, body, undecodable: undecodable)
        } catch {
            if !hasFailed { buffer.writeBuffer(&chunk) }
            throw error
        }
        // 3. The rest of the chunk: in place when the buffer is empty, else (chunk exhausted or more frames pending
        //    after an incomplete one) appended.
        if buffer.readableBytes == 0 && chunk.readableBytes > 0 {
            let maximum = maximumPayloadLength
            let outcome = chunk.withUnsafeReadableBytes { bytes in
                Self.decodeFrames(in: bytes, maximum: maximum, serverVersion: serverVersion, body,
                                  undecodable: undecodable)
            }
            count += outcome.count
            if let error = outcome.error, case .frameTooLarge = error {
                failure = error
                buffer.clear()
                throw error
            }
            chunk.moveReaderIndex(forwardBy: outcome.consumed)
            buffer.clear()
            buffer.writeBuffer(&chunk)  // the tail: a split frame, or the frames after a bad one
            if let error = outcome.error { throw error }
        } else {
            buffer.writeBuffer(&chunk)
        }
        return count
    }

    /// How many more bytes the buffer needs to end at a frame boundary: 0 when it does (or when a length is above
    /// the maximum: decoding then reports it).
    private func bytesMissingForFrameBoundary() -> Int {
        var offset = buffer.readerIndex
        let end = buffer.writerIndex
        while true {
            let rest = end - offset
            if rest == 0 { return 0 }
            if rest < 4 { return 4 - rest }
            guard let length = buffer.getInteger(at: offset, endianness: .big, as: UInt32.self),
                  Int(length) <= maximumPayloadLength
            else { return 0 }
            if rest < 4 + Int(length) { return 4 + Int(length) - rest }
            offset += 4 + Int(length)
        }
    }

    /// Decodes the complete frames at the start of `bytes`, handing each response to `body`: the bytes consumed
    /// (complete frames, including a bad one), the responses delivered, and the first error. Stops at an incomplete
    /// frame, a decoding error or a length above `maximum` (not consumed). Every read is checked against `bytes.count`.
    private static func decodeFrames(
        in bytes: UnsafeRawBufferPointer,
        maximum: Int,
        serverVersion: Int,
        _ body: (TWSResponse) -> Void,
        undecodable: (UnsafeRawBufferPointer, TWSDecodingError) -> Bool
    ) -> (consumed: Int, count: Int, error: TWSDecodingError?) {
        var consumed = 0
        var count = 0
        while bytes.count - consumed >= 4 {
            // In bounds: consumed + 4 <= bytes.count.
            let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: consumed, as: UInt32.self)))
            if length > maximum { return (consumed, count, .frameTooLarge(length: length, maximum: maximum)) }
            let start = consumed + 4
            guard bytes.count - start >= length else { break }
            consumed = start + length
            do throws(TWSDecodingError) {
                try TWSResponse.decode(bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<consumed]),
                                       serverVersion: serverVersion, into: body)
                count += 1
            } catch {
                let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<consumed])
                if !undecodable(payload, error) { return (consumed, count, error) }
            }
        }
        return (consumed, count, nil)
    }

    /// The length of the next frame's payload when the whole frame is buffered, else `nil`.
    /// - Throws: `TWSDecodingError.frameTooLarge` (and fails the decoder) for a length above the maximum.
    @inline(__always)
    private mutating func nextPayloadLength() throws(TWSDecodingError) -> Int? {
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
        return Int(length)
    }

    /// Drops consumed bytes once they outweigh the unread ones (amortised: at most one copy per 64 KiB consumed).
    @inline(__always)
    private mutating func compactIfWorthIt() {
        if buffer.readerIndex > 65_536 && buffer.readerIndex > buffer.readableBytes {
            buffer.discardReadBytes()
        }
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
