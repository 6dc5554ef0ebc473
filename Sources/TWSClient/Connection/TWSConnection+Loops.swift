import NIOCore
import TWSProtocol

/// Why one of the connection's loops returned.
enum LoopExit: Sendable, Equatable {
    case readyTimerFinished
    case disconnectRequested
    case cancelled
}

extension TWSConnection {
    /// Connects and serves until `disconnect()`, the peer closing, a fatal error, or cancellation of the
    /// calling task.
    ///
    /// Use it as a long-running service (e.g. a `ServiceGroup` service); `connect(_:environment:_:)` wraps it.
    /// - Throws: `TWSConnectionError`: `refused`, `timedOut`, `unsupportedServerVersion`, `clientIDInUse`,
    ///   `closedByPeer`, `handshakeFailed`, `transport`. A clean `disconnect()` or a cancelled task returns
    ///   normally.
    public nonisolated func run() async throws(TWSConnectionError) {
        guard await begin() else { throw .transport("a TWSConnection runs once; create a new one to reconnect") }
        do {
            try await environment.transport.withConnection(host: configuration.host, port: configuration.port) {
                channel in
                try await self.serve(channel)
            }
            await close(error: nil)
        } catch {
            if Task.isCancelled {
                // Shutdown of the owning task (e.g. a service group): a clean end, not a failure.
                await close(error: nil)
                return
            }
            let connectionError = await connectionError(from: error)
            await close(error: connectionError)
            throw connectionError
        }
    }

    private func begin() -> Bool {
        guard case .idle = phase else { return false }
        phase = .awaitingServerVersion
        publish(.connecting)
        return true
    }

    /// Maps any error out of the transport or the loops to a `TWSConnectionError`.
    private func connectionError(from error: any Error) -> TWSConnectionError {
        if let error = error as? TWSConnectionError { return error }
        // Writes racing a closed socket fail with these; the read loop usually reports the close first.
        if error is CancellationError || error is ChannelError || error is NIOAsyncWriterError {
            return .closedByPeer(during: phaseDescription)
        }
        return .transport("\(error)")
    }

    /// What the connection was doing, for error texts.
    var phaseDescription: String {
        switch phase {
        case .idle: return "connect"
        case .awaitingServerVersion: return "the handshake (waiting for the server version)"
        case .awaitingReady(_, _, let nextValidID, let accounts):
            return "startup (waiting for \(Self.missing(nextValidID, accounts)))"
        case .ready: return "the session"
        case .closed: return "close"
        }
    }

    static func missing(_ nextValidID: Int?, _ accounts: [String]?) -> String {
        switch (nextValidID, accounts) {
        case (nil, nil): return "nextValidId and managedAccounts"
        case (nil, _): return "nextValidId"
        default: return "managedAccounts"
        }
    }

    private nonisolated func serve(_ channel: TWSTransportChannel) async throws {
        try await attach(channel.outbound)
        try await withThrowingTaskGroup(of: LoopExit.self) { group in
            group.addTask { try await self.readLoop(channel.inbound) }
            group.addTask { try await self.writeLoop() }
            group.addTask { try await self.readyTimer() }
            group.addTask { await self.controlLoop() }
            for try await exit in group where exit != .readyTimerFinished { break }
            group.cancelAll()
        }
    }

    /// Writes the hello, then takes `writer` for every later frame.
    private func attach(_ writer: any TWSTransportWriter) throws {
        try writer.write(handshake.start())
        self.writer = writer
    }

    // MARK: - Loops

    /// Reads byte chunks; hands the handshake reply to the actor, then decodes every later frame once, here, off the
    /// actor (`InboundDecoder`), and hands each chunk's routed messages to the actor in one hop. Ends by throwing
    /// when the peer closes.
    private nonisolated func readLoop(
        _ inbound: any AsyncSequence<ByteBuffer, any Error> & Sendable
    ) async throws -> LoopExit {
        var decoder = InboundDecoder(logger: logger)
        var isDropping = false
        for try await chunk in inbound where !isDropping {
            var (frames, reply) = try Self.decode(chunk, with: &decoder)
            if let reply {
                guard let version = try await receiveServerReply(reply) else {
                    isDropping = true  // the connection closed meanwhile: nothing more to route
                    continue
                }
                frames = try Self.start(&decoder, serverVersion: version)
            }
            if !frames.isEmpty { try await receive(frames) }
        }
        throw TWSConnectionError.closedByPeer(during: await phaseDescription)
    }

    /// A chunk's frames once the version is known; before that, the handshake reply when the chunk completed it
    /// (hand it to `receiveServerReply`, then `start` the decoder).
    private static func decode(
        _ chunk: ByteBuffer, with decoder: inout InboundDecoder
    ) throws(TWSConnectionError) -> (frames: [InboundFrame], reply: ByteBuffer?) {
        do {
            guard decoder.serverVersion != nil else { return ([], try decoder.handshakeReply(appending: chunk)) }
            var frames: [InboundFrame] = []
            try decoder.decode(chunk, into: &frames)
            return (frames, nil)
        } catch {
            throw unreadable(error)
        }
    }

    /// The frames that followed the handshake reply in its chunk, once the version is known.
    private static func start(
        _ decoder: inout InboundDecoder, serverVersion: Int
    ) throws(TWSConnectionError) -> [InboundFrame] {
        do {
            return try decoder.start(serverVersion: serverVersion)
        } catch {
            throw unreadable(error)
        }
    }

    private static func unreadable(_ error: TWSDecodingError) -> TWSConnectionError {
        .transport("unreadable byte stream from TWS: \(error)")
    }

    /// Writes what the rate limiter or the pacing held, when they let it go (a frame that may leave at once is
    /// written as it is queued, `writeReady()`); sleeps on the injected clock in between. Ends the connection with
    /// a write's failure, and ends a clean disconnect once everything queued is out.
    private nonisolated func writeLoop() async throws -> LoopExit {
        let (clock, wake) = (self.clock, self.wakeupContinuation)
        // A later release time (the rate limiter's, or a historical request's pacing, which can be minutes away)
        // comes as a wake-up from a timer child, so a message queued meanwhile (an order, a cancel, the stop's last
        // requests) is not held behind the wait. Timers are children (they run on the caller's executor, a virtual
        // clock's loop included); one is armed only when it is earlier than the one armed, and a stale one's
        // wake-up is harmless (the loop looks again).
        return try await withThrowingDiscardingTaskGroup(returning: LoopExit.self) { timers in
            defer { timers.cancelAll() }
            var wakeups = self.wakeups.makeAsyncIterator()
            var armed: Duration?
            while !Task.isCancelled {
                let now = clock.now()
                if let due = armed, due <= now { armed = nil }
                switch try await writeReady() {
                case .drained:
                    return .disconnectRequested
                case .held(let next):
                    if let next, armed.map({ next < $0 }) ?? true {
                        armed = next
                        timers.addTask {
                            guard (try? await clock.sleepUntil(next)) != nil else { return }
                            wake.yield()
                        }
                    }
                }
                if await wakeups.next() == nil { return .cancelled }
            }
            return .cancelled
        }
    }

    /// What is left after `writeReady()`.
    enum OutboundLeft: Sendable {
        /// A clean disconnect may close: everything queued is out.
        case drained
        /// Frames are held until this time (`nil`: nothing is queued, or nothing is due at a known time).
        case held(until: Duration?)
    }

    /// Writes every frame that may leave now, in order.
    /// - Throws: the write failure that ends the connection (this one's or an earlier one's).
    @discardableResult
    func writeReady() throws -> OutboundLeft {
        if let writeFailure { throw writeFailure }
        guard let writer else { return .held(until: nil) }
        let now = clock.now()
        var frames = scheduler.dequeueReady(now: now)
        frames += releasePacedRequests(now: now)
        for frame in frames {
            do { try writer.write(frame) } catch {
                writeFailure = error
                wakeupContinuation.yield()
                throw error
            }
        }
        if isDrained { return .drained }
        var next = scheduler.nextReleaseTime(now: now)
        if let backlogTime = nextPacedRelease(now: now) { next = min(next ?? backlogTime, backlogTime) }
        return .held(until: next)
    }

    /// Fails the connection when it is not ready within `readyTimeout`.
    private nonisolated func readyTimer() async throws -> LoopExit {
        try await clock.sleepUntil(clock.now() + configuration.readyTimeout)
        try await checkReadyTimeout()
        return .readyTimerFinished
    }

    private func checkReadyTimeout() throws(TWSConnectionError) {
        switch phase {
        case .awaitingServerVersion:
            throw .timedOut(
                waitingFor: "the server version reply to the API handshake", after: configuration.readyTimeout)
        case .awaitingReady(_, _, let nextValidID, let accounts):
            throw .timedOut(
                waitingFor: Self.missing(nextValidID, accounts) + " after startApi", after: configuration.readyTimeout)
        default:
            return
        }
    }

    /// Handles disconnect requests and cancellations coming from stream terminations.
    private nonisolated func controlLoop() async -> LoopExit {
        for await event in controls {
            switch event {
            case .disconnect:
                // With messages queued, the write loop ends the connection once they are out.
                if await startDraining() { return .disconnectRequested }
            case .removeListener(let id):
                await removeListener(id)
            case .cancelRoute(let key, let id, let cancel):
                await cancelRoute(key, id: id, cancel: cancel)
            }
        }
        return .cancelled
    }

    // MARK: - Outbound queue

    /// A clean disconnect was asked for: send what is queued, then close.
    /// - Returns: whether nothing is queued, so the connection may close at once.
    private func startDraining() -> Bool {
        isDraining = true
        wakeupContinuation.yield()
        return scheduler.isEmpty
    }

    /// Whether a clean disconnect may close now: everything queued went out (held historical requests are dropped).
    private var isDrained: Bool { isDraining && scheduler.isEmpty }

    /// Queues an encoded frame (cancels go first, but never before the message they cancel) and writes it at once
    /// when the rate limiter lets it go; otherwise the write loop writes it when it may leave.
    func enqueue(
        _ frame: ByteBuffer, priority: OutboundPriority = .normal, dependency: OutboundDependency? = nil
    ) {
        scheduler.enqueue(frame, priority: priority, dependency: dependency)
        // A failed write is the write loop's to report (it ends the connection); the caller's message is lost with
        // the connection, as one queued on a socket that closes is.
        if case .held(let next)? = try? writeReady(), next == nil, scheduler.isEmpty { return }
        wakeupContinuation.yield()
    }

    /// Encodes a request at the negotiated version and queues it.
    func send(_ request: TWSRequest, priority: OutboundPriority = .normal) throws(TWSRequestError) {
        guard let version = negotiatedVersion else { throw .notConnected }
        do {
            enqueue(try request.encode(serverVersion: version), priority: priority, dependency: request.dependency)
        } catch {
            throw .invalidRequest(error.description)
        }
    }

    /// A route's consumer went away (stream dropped, task cancelled, timed out): end it with `cancelled` (so a
    /// waiting caller resumes) and tell TWS, unless the route already ended.
    private func cancelRoute(
        _ key: RouteKey, id: InboundRouter.RouteID, cancel: TWSRequest?
    ) {
        guard router.fail(key, id: id, with: .cancelled) else { return }
        if case .request(let requestID) = key, pacedRequestFinished(requestID: requestID) {
            return  // still held by the pacing planner: TWS never saw it, nothing to cancel
        }
        guard let cancel else { return }
        do {
            try send(cancel, priority: .cancel)
        } catch {
            logger.warning("could not send \(cancel.messageName): \(error)")
        }
    }

    /// The negotiated server version once the handshake is done.
    public var negotiatedVersion: Int? {
        switch phase {
        case .awaitingReady(let version, _, _, _): return version
        case .ready(let session): return session.serverVersion
        default: return nil
        }
    }
}
