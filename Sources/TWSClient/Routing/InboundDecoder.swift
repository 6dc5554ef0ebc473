import Logging
import NIOCore
import TWSProtocol

/// The read loop's decoder: cuts the byte stream into frames and, once the server version is known, decodes each
/// frame once, in place, with the codec's batch path (`TWSFrameDecoder.decodeResponses(appending:…)`), and routes
/// it (`InboundClassifier`). Pure apart from its log lines.
///
/// Before the handshake the server's version reply is not a response: `handshakeReply(appending:)` hands it out
/// raw; `start(serverVersion:)` then decodes whatever arrived behind it in the same chunk.
struct InboundDecoder: Sendable {
    private var frames = TWSFrameDecoder()
    private let logger: Logger
    /// The negotiated version once the handshake reply was handled; frames are decoded from then on.
    private(set) var serverVersion: Int?

    init(logger: Logger) {
        self.logger = logger
    }

    /// Buffers `chunk` and returns the handshake reply (the first frame) once it is complete.
    /// - Throws: `TWSDecodingError.frameTooLarge`: the stream cannot be read on.
    mutating func handshakeReply(appending chunk: ByteBuffer) throws(TWSDecodingError) -> ByteBuffer? {
        frames.append(chunk)
        return try frames.nextPayload()
    }

    /// Switches to decoding at `serverVersion` and decodes the frames buffered behind the handshake reply.
    /// - Throws: `TWSDecodingError.frameTooLarge`.
    mutating func start(serverVersion: Int) throws(TWSDecodingError) -> [InboundFrame] {
        self.serverVersion = serverVersion
        var result: [InboundFrame] = []
        let logger = logger
        try frames.decodeResponses(serverVersion: serverVersion) { response in
            result.append(InboundFrame(
                item: .response(response),
                disposition: InboundClassifier.disposition(of: response, serverVersion: serverVersion)))
        } undecodable: { payload, error in
            if let frame = Self.fallback(payload, error, serverVersion: serverVersion, logger: logger) {
                result.append(frame)
            }
        }
        return result
    }

    /// Decodes every frame `chunk` completes, in order. A frame that does not decode is routed raw by the fields
    /// the classifier reads, or (when even those are unreadable) logged and skipped; the stream goes on.
    /// - Precondition: `start(serverVersion:)` was called.
    /// - Throws: `TWSDecodingError.frameTooLarge`.
    mutating func decode(_ chunk: ByteBuffer, into result: inout [InboundFrame]) throws(TWSDecodingError) {
        guard let serverVersion else { preconditionFailure("InboundDecoder.decode before start(serverVersion:)") }
        let logger = logger
        try frames.decodeResponses(appending: chunk, serverVersion: serverVersion) { response in
            result.append(InboundFrame(
                item: .response(response),
                disposition: InboundClassifier.disposition(of: response, serverVersion: serverVersion)))
        } undecodable: { payload, error in
            if let frame = Self.fallback(payload, error, serverVersion: serverVersion, logger: logger) {
                result.append(frame)
            }
        }
    }

    /// Routes an undecodable payload by its routing fields, or logs and drops it when those are unreadable.
    private static func fallback(
        _ payload: ByteBuffer, _ error: TWSDecodingError, serverVersion: Int, logger: Logger
    ) -> InboundFrame? {
        do {
            let (message, disposition) = try InboundClassifier.classify(payload, serverVersion: serverVersion)
            return InboundFrame(item: .undecodable(message, error), disposition: disposition)
        } catch {
            let fields = TWSText.loggable(TWSFrame.fields(of: payload).joined(separator: "|"))
            logger.warning("skipping malformed frame from TWS: \(TWSText.loggable("\(error)")) [\(fields)]")
            return nil
        }
    }
}
