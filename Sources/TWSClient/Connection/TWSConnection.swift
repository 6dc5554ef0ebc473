import Logging
import NIOCore
import Synchronization
import TWSProtocol

/// What a connection uses from the outside world: the byte transport, the clock and the logger.
public struct TWSConnectionEnvironment: Sendable {
    /// The byte transport; TCP over SwiftNIO by default.
    public var transport: any TWSTransport
    /// The clock for rate limiting, pacing and timeouts; `ContinuousClock` by default.
    public var clock: any Clock<Duration>
    /// Where the connection logs skipped frames, notices and state changes.
    public var logger: Logger

    /// Creates an environment; every part has a production default.
    public init(
        transport: any TWSTransport = TWSNIOTransport(),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "TWSClient")
    ) {
        self.transport = transport
        self.clock = clock
        self.logger = logger
    }
}

/// One connection to TWS / IB Gateway: handshake, outbound rate limiting, request routing and typed requests.
///
/// The connection is an actor around pure state (`OutboundScheduler`, `HistoricalPacing`, `RequestRouter`,
/// `OrderIDAllocator`); `run()` does the I/O in one task group: a read loop, a write loop driven by the rate
/// limiter, a readiness timer and a control loop (disconnects and subscription cancels). Use it scoped:
///
/// ```swift
/// let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: 7497, clientID: 7)
/// try await TWSConnection.connect(configuration) { connection, session in
///     print("server version \(session.serverVersion), accounts \(session.accounts)")
///     print(try await connection.currentTime())
/// }
/// ```
///
/// or as a long-running service: call `run()` in a task of your task group and `waitUntilReady()` elsewhere.
/// A connection is used once; reconnect with a new one.
public actor TWSConnection {
    /// Where the connection stands.
    enum Phase: Sendable {
        case idle
        case awaitingServerVersion
        case awaitingReady(serverVersion: Int, connectionTime: String, nextValidID: Int?, accounts: [String]?)
        case ready(TWSSessionInfo)
        case closed(TWSConnectionError?)
    }

    /// Events for the control loop; sent from `onTermination` and cancellation handlers, which cannot await.
    enum ControlEvent: Sendable {
        case disconnect
        case removeListener(Int)
        case cancelRoute(key: RouteKey, id: InboundRouter.RouteID, cancel: TWSRequest?)
    }

    /// The configuration in use.
    public let configuration: TWSConnectionConfiguration
    let environment: TWSConnectionEnvironment
    let clock: ElapsedClock
    let logger: Logger

    var phase: Phase = .idle
    /// Set by `disconnect()`: the write loop sends what is queued, then the connection closes.
    var isDraining = false
    var handshake: TWSClientHandshake
    var readyWaiters: [CheckedContinuation<TWSSessionInfo, any Error>] = []
    var scheduler: OutboundScheduler<ByteBuffer>
    var pacing: HistoricalPacing
    var pacedBacklog: [PendingPacedRequest] = []
    /// Paced requests that could not leave at once (`budgets`).
    var pacingWaits = 0
    var realTimeBarPacing: HistoricalPacing
    var router = InboundRouter()
    /// Order ids: seeded by nextValidId, above every id seen (`OrderIDAllocator`).
    var orderIDs = OrderIDAllocator()
    /// Request ids start far above order ids, so an errMsg's id names a request or an order, never both.
    var requestIDs = RequestIDAllocator(firstID: 100_000_000)
    /// Who hears order events, state changes and notices (`listen(_:)`), in the order they began to listen: whoever
    /// hears first acts first, so the order must not change from run to run.
    var listeners: [(id: Int, receiver: TWSReceiver<TWSConnectionEvent>)] = []
    /// Order ids this connection placed, modified or cancelled lately (bounded): errMsgs about them are order events
    /// only, not logged here (`publishOrderNotice`).
    var recentOrderIDs = RecentOrderIDs()
    var nextListenerID = 0
    /// The data farms' last states, as TWS reported them (2103–2108, 2157, 2158).
    public internal(set) var farms = TWSFarmBoard()
    /// IB's latest warning that the gateway's build will be desupported (2172): TWS sends it once, at connect, often
    /// before a listener begins, so each new listener is handed it after `.listening` (`listen(_:)`).
    public internal(set) var desupportNotice: TWSNotice?
    /// That warning read: its date and builds (`nil` when TWS sent none).
    public var desupportWarning: TWSDesupportWarning? { desupportNotice.flatMap(TWSDesupportWarning.init) }
    var executionJoiner = ExecutionJoiner()
    /// The latest published state; `connecting` until the connection is ready or closed.
    public private(set) var state: TWSConnectionState = .connecting

    /// Where frames are written once the transport is open (`nil` before): a frame that may leave is written as it
    /// is queued, from the connection's isolation.
    var writer: (any TWSTransportWriter)?
    /// The first write that failed (the write loop ends the connection with it).
    var writeFailure: (any Error)?
    /// Wakes the write loop when a message is held (rate limit, pacing), a write failed, or a drain may end.
    let wakeups: AsyncStream<Void>
    let wakeupContinuation: AsyncStream<Void>.Continuation
    /// Feeds the control loop.
    let controls: AsyncStream<ControlEvent>
    let controlContinuation: AsyncStream<ControlEvent>.Continuation

    /// Creates a connection; nothing happens until `run()` (or use `connect(_:environment:_:)`).
    /// - Parameters:
    ///   - configuration: host, port, client id, versions, limits.
    ///   - environment: transport, clock and logger.
    public init(configuration: TWSConnectionConfiguration, environment: TWSConnectionEnvironment = .init()) {
        self.configuration = configuration
        self.environment = environment
        self.clock = ElapsedClock(environment.clock)
        self.logger = environment.logger
        self.handshake = TWSClientHandshake(
            configuration: .init(
                clientID: configuration.clientID, versions: configuration.versions,
                connectOptions: configuration.connectOptions
            ))
        self.scheduler = OutboundScheduler(limit: configuration.rateLimit)
        self.pacing = HistoricalPacing(limits: configuration.historicalPacing)
        self.realTimeBarPacing = HistoricalPacing(limits: configuration.realTimeBarPacing)
        (wakeups, wakeupContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (controls, controlContinuation) = AsyncStream.makeStream(of: ControlEvent.self)
    }

    // MARK: - Scoped use

    /// Connects, waits until the connection is ready, runs `body`, and disconnects.
    /// - Parameters:
    ///   - configuration: host, port, client id, versions, limits.
    ///   - environment: transport, clock and logger (production defaults).
    ///   - body: works with the ready connection and its session information.
    /// - Returns: what `body` returns.
    /// - Throws: `TWSConnectionError` when the connection fails (refused, timed out, wrong version, client id in
    ///   use, closed by the peer), else what `body` throws.
    public static func connect<Result: Sendable>(
        _ configuration: TWSConnectionConfiguration,
        environment: TWSConnectionEnvironment = .init(),
        _ body: (TWSConnection, TWSSessionInfo) async throws -> Result
    ) async throws -> Result {
        var retry = TWSClientIDRetry(limit: configuration.clientIDInUseRetry)
        while true {
            let connection = TWSConnection(configuration: configuration, environment: environment)
            let attempt = try await withThrowingTaskGroup(of: Void.self, returning: ScopedAttempt<Result>.self) { group in
                group.addTask { try await connection.run() }
                let outcome: Swift.Result<Result, any Error>
                do {
                    let session: TWSSessionInfo
                    do {
                        session = try await connection.waitUntilReady()
                    } catch TWSConnectionError.clientIDInUse(let clientID) {
                        // Before the session was ready: `body` never ran, so connecting again is safe. (A 326 that
                        // `body` itself throws is its failure, never a reason to run it again.)
                        await connection.disconnect()
                        try? await group.waitForAll()
                        return .clientIDInUse(clientID)
                    }
                    outcome = .success(try await body(connection, session))
                } catch {
                    outcome = .failure(error)
                }
                await connection.disconnect()
                var runError: (any Error)?
                do { try await group.waitForAll() } catch { runError = error }
                switch outcome {
                case .success(let result): return .done(result)
                case .failure(let error): throw runError ?? error
                }
            }
            switch attempt {
            case .done(let result):
                return result
            case .clientIDInUse(let clientID):
                guard let pause = retry.nextPause() else { throw TWSConnectionError.clientIDInUse(clientID: clientID) }
                environment.logger.notice(
                    "client id \(clientID) is in use (326); connecting again in \(pause) in case its last session is still closing")
                try await environment.clock.sleep(for: pause)
            }
        }
    }

    /// One connection of `connect`: what `body` returned, or a 326 before the session was ready.
    private enum ScopedAttempt<Result: Sendable>: Sendable {
        case done(Result)
        case clientIDInUse(Int)
    }

    // MARK: - Lifecycle

    /// Waits until the handshake is done and nextValidId and managedAccounts arrived.
    /// - Returns: the session information.
    /// - Throws: the `TWSConnectionError` that ended the connection.
    public func waitUntilReady() async throws(TWSConnectionError) -> TWSSessionInfo {
        switch phase {
        case .ready(let session): return session
        case .closed(let error): throw error ?? .closedByPeer(during: "connect")
        default: break
        }
        do {
            return try await withCheckedThrowingContinuation { readyWaiters.append($0) }
        } catch let error as TWSConnectionError {
            throw error
        } catch {
            throw .closedByPeer(during: "connect")
        }
    }

    /// The session once ready, `nil` before and after.
    public var session: TWSSessionInfo? {
        if case .ready(let session) = phase { return session }
        return nil
    }

    /// Closes the connection cleanly: messages already queued (e.g. a just-placed order) are still sent at the
    /// paced rate, then pending requests fail with `connectionClosed`, streams end and `run()` returns.
    public func disconnect() {
        controlContinuation.yield(.disconnect)
        if case .idle = phase { close(error: nil) }
    }

    /// Hears, in the order they happen, every order event, state change and notice from now on: first
    /// `.listening` with the state and the farms as they stand (a listener that begins there misses nothing), then
    /// IB's desupport warning (2172) when TWS sent one on this connection before, last `end` with the error that
    /// closed the connection. The receiver runs on the connection's isolation as each message is read
    /// (`TWSReceiver`).
    /// - Returns: the listening; `cancel()` stops it.
    @discardableResult
    public func listen(_ receiver: TWSReceiver<TWSConnectionEvent>) -> TWSSubscription {
        receiver.receive(.listening(state, farms: farms.reports))
        if let desupportNotice { receiver.receive(.notice(desupportNotice)) }
        if case .closed = phase {
            receiver.end(TWSRequestError.notConnected)
            return TWSSubscription {}
        }
        let id = nextListenerID
        nextListenerID += 1
        listeners.append((id, receiver))
        let controls = controlContinuation
        return TWSSubscription { controls.yield(.removeListener(id)) }
    }

    /// The connection state as a stream: the current state first, then every change. Ends after `disconnected`.
    public func stateChanges() -> AsyncStream<TWSConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: TWSConnectionState.self)
        let listening = listen(
            TWSReceiver(
                receive: { event in
                    switch event {
                    case .listening(let state, _), .state(let state): continuation.yield(state)
                    case .order, .notice: break
                    }
                },
                end: { _ in continuation.finish() }))
        continuation.onTermination = { _ in listening.cancel() }
        return stream
    }

    func removeListener(_ id: Int) {
        listeners.removeAll { $0.id == id }
    }

    /// Notices not tied to a request of this client (data farm status 2104/2106/2158, 2107/2108, rate warnings,
    /// connectivity 1100/1101/1102): every one from now on, and first the desupport warning (2172) TWS sent before.
    /// Ends when the connection closes.
    public func notices() -> AsyncStream<TWSNotice> {
        let (stream, continuation) = AsyncStream.makeStream(of: TWSNotice.self)
        let listening = listen(
            TWSReceiver(
                receive: { if case .notice(let notice) = $0 { continuation.yield(notice) } },
                end: { _ in continuation.finish() }))
        continuation.onTermination = { _ in listening.cancel() }
        return stream
    }

    /// Hands an event to every listener.
    func publish(event: TWSConnectionEvent) {
        for listener in listeners { listener.receiver.receive(event) }
    }

    /// Hands a connection-level notice to the listeners.
    func publish(notice: TWSNotice) {
        publish(event: .notice(notice))
    }

    func publish(_ newState: TWSConnectionState) {
        guard newState != state else { return }
        state = newState
        logger.info("TWS connection \(newState)")
        publish(event: .state(newState))
    }

    /// Ends everything: fails pending requests, ends streams, publishes `disconnected`.
    func close(error: TWSConnectionError?) {
        if case .closed = phase { return }
        phase = .closed(error)
        let reason = error?.description
        router.failAll(with: .connectionClosed(reason: reason))
        for waiter in readyWaiters { waiter.resume(throwing: error ?? .closedByPeer(during: "connect")) }
        readyWaiters = []
        publish(.disconnected(reason: reason))
        let ended = listeners
        listeners = []
        for listener in ended { listener.receiver.end(TWSRequestError.connectionClosed(reason: reason)) }
        wakeupContinuation.finish()
        controlContinuation.finish()
    }
}
