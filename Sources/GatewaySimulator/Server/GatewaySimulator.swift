import GatewayCore
import Logging
import NIOCore
import NIOPosix
import Synchronization
import TradingModel
import TWSClient
import TWSProtocol

/// A TWS-protocol server that behaves like a paper-trading IB Gateway over historical or synthetic data.
///
/// `run()` binds, serves every client until cancelled and drives the replay clock; the other methods are the
/// in-process control interface (tests, drills).
///
/// ```swift
/// let simulator = GatewaySimulator(configuration: .init(port: 0, data: .synthetic(count: 3, seed: 1), clock: .manual))
/// try await withThrowingTaskGroup(of: Void.self) { group in
///     group.addTask { try await simulator.run() }
///     let port = await simulator.listeningPort()
///     // connect clients to 127.0.0.1:port, then:
///     await simulator.advance(by: .seconds(5))
///     await simulator.apply(.dropAllConnections)
///     group.cancelAll()
/// }
/// ```
public final class GatewaySimulator: Sendable {
    /// The configuration.
    public let configuration: GatewaySimulatorConfiguration
    let hub: GatewayHub
    let logger: Logger
    private let port = PortBox()
    let listener: ListenerControl
    let unserved = UnservedSockets()
    /// The simulator's own time (replay pacing, delays, restarts, limits): the wall clock, or a test's.
    let clock: SimulatorClock

    /// Creates a simulator (nothing is bound until `run()`).
    /// - Parameters:
    ///   - configuration: data, account, replay clock mode, faults, limits.
    ///   - logger: where it logs.
    ///   - clock: what its waits and timers run on (`ContinuousClock` by default; a `VirtualLoop`'s clock makes the
    ///     in-process venue run in simulated time, `inProcessTransport`).
    public init(
        configuration: GatewaySimulatorConfiguration, logger: Logger = Logger(label: "ibtrader.gateway"),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.configuration = configuration
        self.logger = logger
        let clock = SimulatorClock(clock)
        self.clock = clock
        listener = ListenerControl(clock: clock)
        let state = GatewayState(data: configuration.data, configuration: configuration.gateway,
                                 start: configuration.start)
        self.hub = GatewayHub(state: state, logger: logger, limits: configuration.limits, retired: configuration.retired, wallTime: {
            clock.seconds()
        })
    }

    // MARK: - Control interface

    /// The bound port, once `run()` has bound (waits until then).
    public func listeningPort() async -> Int { await port.value() }
    /// The replay clock's time.
    public func now() async -> Timestamp { await hub.now }
    /// Moves the replay clock forward (manual mode, or on top of the speed driver).
    public func advance(by span: TimeSpan) async { await hub.advance(by: span) }
    /// Applies a fault (`restart` also takes the listener down for its pause; `restart 0` returns once the listener
    /// is back, or after 2 s, so a caller can connect right away).
    public func apply(_ fault: FaultCommand) async {
        await hub.apply(fault)
        let seconds: Double
        switch fault {
        case .restart(let pause), .freshRestart(let pause): seconds = pause
        default: return
        }
        await listener.close(for: seconds)
        guard seconds == 0, !(await listener.isInProcess) else { return }
        for _ in 0..<200 where !(await listener.isUp) {
            try? await clock.sleep(for: .milliseconds(10))
        }
    }
    /// A copy of the core state (account, orders…) for assertions.
    public func state() async -> GatewayState { await hub.snapshot }
    /// Requests lost on frozen connections so far (`freeze`): a test knows one reached the gateway before it thaws.
    public func lostRequests() async -> Int { await hub.lostRequests }

    // MARK: - Serving

    /// Binds and serves until the task is cancelled. A `restart` fault closes the listener; after its pause the
    /// same port is bound again (state kept), as IB Gateway comes back after its nightly restart.
    /// - Throws: when the address cannot be bound.
    public func run() async throws {
        // One thread of its own for the listener, the connections and the tasks that serve them, as IB Gateway in
        // its own process has: a busy pool in this process (a test suite's CPU-bound tests, a bot's strategy) does
        // not delay the gateway's answers or its timers, and each hop is a same-thread enqueue.
        try await TWSSessionThread.run { thread in try await serve(on: thread.group) }
    }

    private func serve(on eventLoops: MultiThreadedEventLoopGroup) async throws {
        // The first timer of the process sets up the runtime's timer machinery (epoll, timerfd): done before any
        // client can connect, so a connection's watchdog never needs a descriptor once clients have taken them all
        // (at the descriptor limit that set-up trapped).
        try await clock.sleep(for: .milliseconds(1))
        try await withThrowingDiscardingTaskGroup { group in
            addDrivers(to: &group)
            var port = configuration.port
            var first = true
            while true {
                let server = try await bind(port: port, retrying: !first, on: eventLoops)
                port = server.channel.localAddress?.port ?? port
                if first {
                    logger.debug("listening", metadata: ["host": "\(configuration.host)", "port": "\(port)"])
                    await self.port.set(port)
                    first = false
                } else {
                    logger.info("listening again after the restart", metadata: ["port": "\(port)"])
                }
                await listener.attach(server.channel)
                do {
                    try await server.executeThenClose { inbound in
                        for try await child in inbound {
                            group.addTask { await self.serve(child) }
                        }
                    }
                } catch {
                    // A listener closed by the restart fault may end with an error rather than quietly.
                    guard await listener.isDown else { throw error }
                }
                guard await listener.isDown else { return }
                // Polled, so a later `restart 0` (or a longer restart) moves the moment the port opens again.
                while !(await listener.reopenDue()) { try await clock.sleep(for: .milliseconds(10)) }
            }
        }
    }

    /// Binds the listener; after a restart the old port may still be settling, so a few retries are allowed.
    /// Accepted sockets come out raw, with reading off: each is wrapped for async use once `serve` has it. A child
    /// wrapped in its initializer could complete after a restart closed the listener and its stream; NIO then drops
    /// the unread child and traps on its unfinished writer (`RestartRaceTests`).
    private func bind(
        port: Int, retrying: Bool, on eventLoops: MultiThreadedEventLoopGroup
    ) async throws -> NIOAsyncChannel<any Channel, Never> {
        var attempt = 0
        while true {
            do {
                let logger = logger
                return try await ServerBootstrap(group: eventLoops)
                    .serverChannelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(AcceptErrorBackoff(logger: logger))
                        }
                    }
                    .serverChannelOption(.backlog, value: 64)
                    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                    // Nothing is read before `serve` wrapped the socket (the client's bytes wait in the kernel).
                    .childChannelOption(.autoRead, value: false)
                    .bind(host: configuration.host, port: port) { [unserved] channel in
                        // A socket accepted as a restart closed the listener never reaches `serve`: closed here.
                        unserved.add(channel)
                        channel.eventLoop.scheduleTask(in: .seconds(5)) {
                            if unserved.remove(channel) { channel.close(promise: nil) }
                        }
                        return channel.eventLoop.makeSucceededFuture(channel)
                    }
            } catch {
                attempt += 1
                guard retrying, attempt < 50 else { throw error }
                try await clock.sleep(for: .milliseconds(20))
            }
        }
    }

    /// Drives the replay clock and the fault script for the in-process venue (`inProcessTransport`) until cancelled;
    /// nothing is bound. Run it beside the clients, on the same clock.
    public func runInProcess() async throws {
        await listener.serveInProcess()
        try await withThrowingDiscardingTaskGroup { group in
            addDrivers(to: &group)
            // Until cancelled: no timer, so a virtual clock never jumps to it when everything else waits.
            let (forever, _) = AsyncStream.makeStream(of: Never.self)
            for await _ in forever {}
        }
    }

    /// The replay clock's driver (speed mode) and the fault script, as tasks of `group`.
    private func addDrivers(to group: inout ThrowingDiscardingTaskGroup<any Error>) {
        if case .speed(let speed, let tick) = configuration.clock, speed > 0 {
            group.addTask { try await self.driveClock(speed: speed, tick: tick) }
        }
        if let script = configuration.faults {
            group.addTask { try await self.runFaults(script) }
        }
    }

    private func driveClock(speed: Double, tick: Double) async throws {
        let step = TimeSpan(nanoseconds: Int64(tick * speed * 1e9))
        while !Task.isCancelled {
            try await clock.sleep(for: .milliseconds(Int64(tick * 1000)))
            await hub.advance(by: step)
        }
    }

    private func runFaults(_ script: FaultScript) async throws {
        let start = clock.elapsed()
        for entry in script.entries.sorted(by: { $0.at < $1.at }) {
            try await clock.sleep(untilElapsed: start + .milliseconds(Int64(entry.at * 1000)))
            await apply(entry.command)
        }
    }

    /// The wall-clock sleep the writer uses for the delay fault.
    func sleep(seconds: Double) async throws {
        try await clock.sleep(for: .milliseconds(Int64(seconds * 1000)))
    }
}

/// Accepted sockets that `serve` has not taken yet.
final class UnservedSockets: Sendable {
    private let sockets = Mutex<Set<ObjectIdentifier>>([])

    func add(_ channel: any Channel) { _ = sockets.withLock { $0.insert(ObjectIdentifier(channel)) } }

    /// Takes the socket out; `false` when it was not there (already served, or already given up).
    func remove(_ channel: any Channel) -> Bool { sockets.withLock { $0.remove(ObjectIdentifier(channel)) != nil } }
}

/// The bound port, awaited by tests.
actor PortBox {
    private var port: Int?
    private var waiters: [CheckedContinuation<Int, Never>] = []

    func set(_ value: Int) {
        port = value
        for waiter in waiters { waiter.resume(returning: value) }
        waiters.removeAll()
    }

    func value() async -> Int {
        if let port { return port }
        return await withCheckedContinuation { waiters.append($0) }
    }
}

/// The listening socket, so the restart fault can close it and `run()` can bind it again after the pause. The
/// in-process venue has no socket: there the restart is only the pause (`GatewayHub` refuses connections meanwhile).
actor ListenerControl {
    private let clock: SimulatorClock
    private var channel: (any Channel)?
    /// When the pause ends, as elapsed time on the simulator's clock.
    private var reopenAt: Duration?
    /// Serving `inProcessTransport` rather than a socket.
    private(set) var isInProcess = false

    init(clock: SimulatorClock) { self.clock = clock }

    func serveInProcess() { isInProcess = true }

    /// A fresh listener; closed at once when a restart was asked for while binding.
    func attach(_ channel: any Channel) {
        self.channel = channel
        if reopenAt != nil { channel.close(promise: nil) }
    }

    /// Closes the listener (if up); it opens again `seconds` from now, whatever an earlier restart said.
    func close(for seconds: Double) {
        reopenAt = clock.elapsed() + .milliseconds(Int64(seconds * 1000))
        channel?.close(promise: nil)
        channel = nil
    }

    /// Whether a restart keeps the listener down.
    var isDown: Bool { reopenAt != nil }

    /// Whether a listener is bound and no restart is pending.
    var isUp: Bool { channel != nil && reopenAt == nil }

    /// Whether the pause is over (then the listener counts as up again).
    func reopenDue() -> Bool {
        guard let at = reopenAt else { return true }
        guard clock.elapsed() >= at else { return false }
        reopenAt = nil
        return true
    }
}

/// The simulator's clock seen as elapsed time since it was created (any `Clock` whose durations are `Duration`).
struct SimulatorClock: Sendable {
    /// Time since creation.
    let elapsed: @Sendable () -> Duration
    /// Sleeps until an elapsed time.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        self.init(opened: clock)
    }

    private init<C: Clock>(opened clock: C) where C.Duration == Duration {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleepUntil = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    /// Seconds since creation.
    func seconds() -> Double {
        let elapsed = elapsed()
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    func sleep(for duration: Duration) async throws { try await sleepUntil(elapsed() + duration) }

    func sleep(untilElapsed target: Duration) async throws { try await sleepUntil(target) }
}
