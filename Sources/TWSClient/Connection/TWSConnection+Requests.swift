import Logging
import NIOCore
import TWSProtocol

/// How a request leaves: through the rate limiter only, or first through a pacing planner.
enum OutboundPath: Sendable {
    case direct
    case paced(PacingLane, HistoricalPacingRequest, requestID: Int)
}

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

    /// Encodes a request at the negotiated version.
    func encode(_ request: TWSRequest) throws(TWSRequestError) -> ByteBuffer {
        guard let version = negotiatedVersion else { throw .notConnected }
        do {
            return try request.encode(serverVersion: version)
        } catch {
            throw .invalidRequest(error.description)
        }
    }

    /// Queues an encoded frame on its path.
    private func enqueue(_ frame: ByteBuffer, request: TWSRequest, path: OutboundPath) {
        switch path {
        case .direct:
            enqueue(frame, dependency: request.dependency)
        case .paced(let lane, let pacing, let requestID):
            enqueuePaced(PendingPacedRequest(lane: lane, pacing: pacing, requestID: requestID, frame: frame))
        }
    }

    /// Sends `request` and collects everything routed to `key` until its End message (or the first item when
    /// `firstItemCompletes`). If the caller's task is cancelled, the route ends with `cancelled` and `cancel`
    /// (when given) is sent. Direct requests fail with `timedOut` after `configuration.requestTimeout`; paced
    /// historical requests may wait for minutes in the planner, so theirs counts from when they leave it, and is
    /// three times as long (IB's historical farm can take tens of seconds to answer a long query; an End it never
    /// sends must not hold the caller, a warm-up say, for ever).
    func collect(
        _ key: RouteKey, request: TWSRequest, cancel: TWSRequest? = nil, firstItemCompletes: Bool = false,
        path: OutboundPath = .direct
    ) async throws(TWSRequestError) -> RoutedResult<InboundItem> {
        guard let timeout = configuration.requestTimeout else {
            return try await collectUntimed(
                key, request: request, cancel: cancel, firstItemCompletes: firstItemCompletes, path: path)
        }
        let paced: Int? = if case .paced(_, _, let requestID) = path { requestID } else { nil }
        let limit = paced == nil ? timeout : timeout * 3
        let clock = clock
        do {
            return try await withThrowingTaskGroup(of: RoutedResult<InboundItem>?.self) { group in
                group.addTask {
                    try await self.collectUntimed(
                        key, request: request, cancel: cancel, firstItemCompletes: firstItemCompletes, path: path)
                }
                group.addTask {
                    if let paced {
                        // The planner may hold it for minutes: the wait for an answer starts when it leaves.
                        while await self.isPacedWaiting(paced) { try await clock.sleepUntil(clock.now() + .milliseconds(100)) }
                    }
                    try await clock.sleepUntil(clock.now() + limit)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let result = first else {
                    throw TWSRequestError.timedOut(waitingFor: "the answer to \(request.messageName) (\(key))")
                }
                return result
            }
        } catch let error as TWSRequestError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    private func collectUntimed(
        _ key: RouteKey, request: TWSRequest, cancel: TWSRequest?, firstItemCompletes: Bool, path: OutboundPath
    ) async throws(TWSRequestError) -> RoutedResult<InboundItem> {
        _ = try await readySession()
        let frame = try encode(request)
        let id = router.makeRouteID()
        let controls = controlContinuation
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let route = InboundRouter.Route.collect(
                        continuation: continuation, completesOnFirstItem: firstItemCompletes
                    )
                    router.register(key, id: id, route: route)
                    enqueue(frame, request: request, path: path)
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
        options: SubscriptionOptions = SubscriptionOptions(),
        transform: @escaping @Sendable (TWSResponse) -> Value?
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<Value>, any Error> {
        try await streamed { receiver throws(TWSRequestError) in
            try await subscribe(
                key, request: request, cancel: cancel, options: options, into: receiver, transform: transform)
        }
    }

    /// The stream form of a subscription served into a receiver: its values yield into the stream, and dropping the
    /// stream cancels the subscription.
    func streamed<Value: Sendable>(
        _ open: (TWSReceiver<SubscriptionItem<Value>>) async throws(TWSRequestError) -> TWSSubscription
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<Value>, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SubscriptionItem<Value>.self)
        let subscription = try await open(.yielding(into: continuation))
        continuation.onTermination = { termination in
            // `.finished` means the server or the connection ended it: nothing to cancel.
            if case .cancelled = termination { subscription.cancel() }
        }
        return stream
    }

    /// Sends `request` and hands everything routed to `key` to `receiver` as it is read, turned into values by
    /// `transform` (`nil` skips a message). `cancel()` on the result sends `cancel` (unless the route already ended)
    /// and ends the receiver with `TWSRequestError.cancelled`.
    func subscribe<Value: Sendable>(
        _ key: RouteKey,
        request: TWSRequest,
        cancel: TWSRequest?,
        options: SubscriptionOptions = SubscriptionOptions(),
        into receiver: TWSReceiver<SubscriptionItem<Value>>,
        transform: @escaping @Sendable (TWSResponse) -> Value?
    ) async throws(TWSRequestError) -> TWSSubscription {
        _ = try await readySession()
        let frame = try encode(request)
        let id = router.makeRouteID()
        let controls = controlContinuation
        let logger = logger
        let sink = StreamSink<InboundItem>.wrapping(receiver) { item in
            Self.response(item, logger: logger).flatMap(transform)
        }
        router.register(key, id: id, route: .stream(sink, finishesOnEnd: options.finishesOnEnd))
        enqueue(frame, request: request, path: options.path)
        return TWSSubscription { controls.yield(.cancelRoute(key: key, id: id, cancel: cancel)) }
    }

    /// The responses a one-shot request collected, skipping (and logging) any that did not decode.
    func decodeAll(_ result: RoutedResult<InboundItem>) -> [TWSResponse] {
        result.items.compactMap { Self.response($0, logger: logger) }
    }

    /// The response of a routed message (decoded by the read loop); an undecodable one is logged and skipped here,
    /// at its consumer, never fatal.
    static func response(_ item: InboundItem, logger: Logger) -> TWSResponse? {
        switch item {
        case .response(let response):
            return response
        case .undecodable(let message, let error):
            logger.warning("skipping undecodable TWS message \(message.messageID): \(error)")
            return nil
        }
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
        for response in decodeAll(result) {
            if case .currentTime(let time) = response { return time }
        }
        throw .invalidRequest("the currentTime answer could not be decoded")
    }

    /// The server's current time in epoch milliseconds (reqCurrentTimeInMillis, server version 197 or newer).
    /// - Throws: `TWSRequestError.invalidRequest` below server version 197.
    public func currentTimeInMillis() async throws(TWSRequestError) -> Int64 {
        let result = try await collect(.currentTimeInMillis, request: .currentTimeInMillis, firstItemCompletes: true)
        for response in decodeAll(result) {
            if case .currentTimeInMillis(let time) = response { return time }
        }
        throw .invalidRequest("the currentTimeInMillis answer could not be decoded")
    }

    /// Sets the market data type for later market data requests (reqMarketDataType).
    /// - Throws: `TWSRequestError.notConnected`.
    public func setMarketDataType(_ type: TWSMarketDataType) async throws(TWSRequestError) {
        _ = try await readySession()
        try send(.marketDataType(type.rawValue))
    }
}

/// How a subscription is routed.
struct SubscriptionOptions: Sendable {
    /// Whether the End message finishes the stream (snapshots, one-off downloads).
    var finishesOnEnd = false
    /// The outbound path (historical data and real-time bars go through pacing planners).
    var path: OutboundPath = .direct
}

