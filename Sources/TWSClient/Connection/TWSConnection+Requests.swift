import NIOCore
import TWSProtocol

extension TWSConnection {
    // MARK: - Generic request shapes

    /// Waits for readiness (or fails fast when closed) and returns the session.
    func readySession() async throws(TWSRequestError) -> TWSSessionInfo {
        switch phase {
        case .ready(let session): return session
        case .closed: throw .notConnected
        default: break
        }
        do {
            return try await waitUntilReady()
        } catch {
            throw .notConnected
        }
    }

    /// Sends `request` and collects everything routed to `key` until its End message (or the first item when
    /// `firstItemCompletes`). If the caller's task is cancelled, the route ends with `cancelled` and `cancel`
    /// (when given) is sent.
    func collect(
        _ key: RouteKey, request: TWSRequest, cancel: TWSRequest? = nil, firstItemCompletes: Bool = false
    ) async throws(TWSRequestError) -> RoutedResult<TWSInboundMessage> {
        _ = try await readySession()
        guard let version = negotiatedVersion else { throw .notConnected }
        let frame: ByteBuffer
        do { frame = try request.encode(serverVersion: version) } catch { throw .invalidRequest(error.description) }
        let id = router.makeRouteID()
        let controls = controlContinuation
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    router.register(key, id: id, route: .collect(continuation: continuation, completesOnFirstItem: firstItemCompletes))
                    enqueue(frame)
                }
            } onCancel: {
                controls.yield(.cancelRoute(key: key, id: id, cancel: cancel))
            }
        } catch let error as TWSRequestError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// Sends `request` and streams everything routed to `key`, turned into values by `transform` (`nil` skips a
    /// message). When the consumer stops, `cancel` is sent (unless the stream already ended).
    func subscribe<Value: Sendable>(
        _ key: RouteKey,
        request: TWSRequest,
        cancel: TWSRequest?,
        finishesOnEnd: Bool = false,
        transform: @escaping @Sendable (TWSInboundMessage) -> Value?
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<Value>, any Error> {
        _ = try await readySession()
        guard let version = negotiatedVersion else { throw .notConnected }
        let frame: ByteBuffer
        do { frame = try request.encode(serverVersion: version) } catch { throw .invalidRequest(error.description) }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionItem<Value>.self)
        let id = router.makeRouteID()
        let controls = controlContinuation
        continuation.onTermination = { termination in
            // `.finished` means the server or the connection ended it: nothing to cancel.
            if case .cancelled = termination { controls.yield(.cancelRoute(key: key, id: id, cancel: cancel)) }
        }
        router.register(key, id: id, route: .stream(.wrapping(continuation, transform: transform), finishesOnEnd: finishesOnEnd))
        enqueue(frame)
        return stream
    }

    /// Takes a fresh request id.
    func nextRequestID() -> Int {
        requestIDs.next()
    }

    // MARK: - Session

    /// The server's current time (reqCurrentTime), in epoch seconds.
    /// - Throws: `TWSRequestError`.
    public func currentTime() async throws(TWSRequestError) -> Int64 {
        let result = try await collect(.currentTime, request: .currentTime, firstItemCompletes: true)
        guard let message = result.items.first else { throw .connectionClosed(reason: nil) }
        var reader = TWSFieldReader(payload: message.payload, message: "currentTime")
        do {
            try reader.skip(2, "msgId, version")
            return try reader.readInt64("time")
        } catch {
            throw .invalidRequest("currentTime answer could not be decoded: \(error)")
        }
    }

    /// Sets the market data type for later requests (reqMarketDataType): 1 live, 2 frozen, 3 delayed,
    /// 4 delayed-frozen.
    /// - Throws: `TWSRequestError.notConnected`.
    public func setMarketDataType(_ type: TWSMarketDataType) async throws(TWSRequestError) {
        _ = try await readySession()
        try send(.marketDataType(type.rawValue))
    }
}

/// The market data type of reqMarketDataType.
public enum TWSMarketDataType: Int, Sendable, Equatable {
    /// Live data (needs a subscription).
    case live = 1
    /// The last live values, frozen outside trading hours.
    case frozen = 2
    /// Delayed data (free, 15–20 minutes late).
    case delayed = 3
    /// Delayed data, frozen outside trading hours.
    case delayedFrozen = 4
}
