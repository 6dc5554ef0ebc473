import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization
import TWSProtocol
import Testing

@testable import TWSClient

/// `TWSBusyPollThread` and its transport: the session's tasks run on the one spinning thread, the socket is read
/// and written there, and the connection behaves over it exactly as over NIO (`TWSLoopbackTests`).
@Suite struct TWSBusyPollTests {
    private static let quiet = TWSConnectionEnvironment(
        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    )

    private static var onBusyThread: Bool { TWSBusyPollThread.isCurrentThreadBusyPolling }

    /// Polls `condition` every 5 ms for up to `limit`. The idle-work tests wait for a count, not a fixed time: with
    /// the whole suite running on two cores the thread can be off its core for tens of milliseconds, while the fault
    /// they guard against (turns counted as activity) gives no run at all.
    private static func waitUntil(
        _ limit: Duration = .seconds(5), _ condition: () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition() && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func childTasksDefaultActorsAndTimersRunOnTheThread() async throws {
        let outcome = try await TWSBusyPollThread.run { _ in
            let probe = ThreadProbe()
            return await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
                group.addTask { Self.onBusyThread }
                group.addTask { await probe.onBusyThread() }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(2))  // resumed from the timer's thread
                    return Self.onBusyThread
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(outcome == [true, true, true])
        #expect(!Self.onBusyThread)
    }

    @Test func aJobEnqueuedAfterTheThreadStoppedStillRuns() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        // A task that prefers the thread, resumed only after the thread is gone.
        let waiter = try await TWSBusyPollThread.run { thread in
            Task(executorPreference: thread) { await stream.first { _ in true } }
        }
        continuation.yield(7)
        #expect(await waiter.value == 7)
    }

    @Test func idleWorkRunsInQuietMomentsUntilCleared() async throws {
        let runs = Mutex<[ContinuousClock.Instant]>([])
        let (during, after) = try await TWSBusyPollThread.run { thread in
            thread.setIdleWork(every: .microseconds(500)) {
                #expect(TWSBusyPollThread.isCurrentThreadBusyPolling)
                runs.withLock { $0.append(.now) }
            }
            try await Self.waitUntil { runs.withLock { $0.count } >= 5 }
            thread.clearIdleWork()
            let during = runs.withLock { $0 }
            try await Task.sleep(for: .milliseconds(10))
            return (during, runs.withLock { $0.count })
        }
        #expect(during.count >= 5, "idle work ran \(during.count) times in 5 s at a 0.5 ms interval")
        // Never sooner than the interval after the previous run.
        let gaps = zip(during.dropFirst(), during).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= .microseconds(490) }, "shortest gap \(gaps.min().map { "\($0)" } ?? "-")")
        #expect(after == during.count)
    }

    @Test func pinningReportsItsOutcome() async throws {
        let pinned = try await TWSBusyPollThread.run(cpu: 0) { $0.pinned }
        #if os(Linux)
            #expect(pinned == true)
        #else
            #expect(pinned == false)
        #endif
        let impossible = try await TWSBusyPollThread.run(cpu: 1023) { $0.pinned }
        #expect(impossible == false)
        #expect(try await TWSBusyPollThread.run { $0.pinned } == nil)
    }

    @Test(arguments: [178, 200])
    func handshakeAndCurrentTimeOverTheBusyPollTransport(version: Int) async throws {
        let server = LoopbackTWSServer(version: version)
        let (session, time) = try await TWSBusyPollThread.run { thread in
            let environment = TWSConnectionEnvironment(transport: thread.transport, logger: Self.quiet.logger)
            return try await server.run { port in
                let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: 3)
                return try await TWSConnection.connect(configuration, environment: environment) { connection, session in
                    (session, try await connection.currentTime())
                }
            }
        }
        #expect(session.serverVersion == version)
        #expect(session.accounts == ["DU1234567"])
        #expect(session.nextValidOrderID == 500)
        #expect(time == 1_736_951_400)
    }

    @Test func refusedConnectionIsTyped() async throws {
        let port = try await LoopbackTWSServer.closedPort()
        let outcome = try await TWSBusyPollThread.run { thread -> TWSConnectionError? in
            let environment = TWSConnectionEnvironment(transport: thread.transport, logger: Self.quiet.logger)
            let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: 3)
            do {
                try await TWSConnection.connect(configuration, environment: environment) { _, _ in }
                return nil
            } catch {
                return error as? TWSConnectionError
            }
        }
        guard case .refused(let host, let refusedPort, let reason) = outcome else {
            Issue.record("expected refused, got \(String(describing: outcome))")
            return
        }
        #expect(host == "127.0.0.1")
        #expect(refusedPort == port)
        #expect(reason.lowercased().contains("refused"))
    }

    @Test func anUnknownHostIsRefusedWithTheLookupFailure() async throws {
        let outcome = try await TWSBusyPollThread.run { thread -> (any Error)? in
            do {
                _ = try await thread.transport.withConnection(host: "no-such-host.invalid", port: 7497) { _ in 0 }
                return nil
            } catch {
                return error
            }
        }
        guard case .refused(_, _, let reason) = outcome as? TWSConnectionError else {
            Issue.record("expected refused, got \(String(describing: outcome))")
            return
        }
        #expect(reason.contains("name lookup failed"))
    }

    @Test func peerClosingIsDetected() async throws {
        let server = LoopbackTWSServer(version: 200, closeAfterStartup: true)
        let outcome = try await TWSBusyPollThread.run { thread in
            let environment = TWSConnectionEnvironment(transport: thread.transport, logger: Self.quiet.logger)
            return try await server.run { (port: Int) async throws -> TWSConnectionError? in
                let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: 3)
                let connection = TWSConnection(configuration: configuration, environment: environment)
                do {
                    try await connection.run()
                    return nil
                } catch {
                    return error as? TWSConnectionError
                }
            }
        }
        #expect(outcome == .closedByPeer(during: "the session"))
    }

    /// 4 MiB written in 64 KiB writes to a server that reads nothing for its first 100 ms (with a small receive
    /// buffer): the kernel's send buffer fills, the rest waits in the socket's backlog and goes out from the poll,
    /// and every byte comes back in order.
    @Test func aLargeTransferKeepsEveryByteInOrder() async throws {
        let total = 4 << 20
        let echoed = try await EchoServer.run { port in
            try await TWSBusyPollThread.run { thread in
                try await thread.transport.withConnection(host: "127.0.0.1", port: port) { channel in
                    try await PatternCheck.write(total, to: channel.outbound)
                    var check = PatternCheck()
                    for try await chunk in channel.inbound {
                        check.consume(chunk)
                        if check.received >= total { break }
                    }
                    let writer = channel.outbound as? BusyPollSocket.Writer
                    return (check.received, check.inOrder, writer?.socket.deferredWrites.load(ordering: .relaxed) ?? 0)
                }
            }
        }
        #expect(echoed.0 == total)
        #expect(echoed.1)
        #expect(echoed.2 > 0, "the kernel's send buffer never filled: the backlog was not exercised")
    }
}

extension TWSBusyPollTests {
    /// The busy transport stamps each read with its return and the kernel's receive time (`SO_TIMESTAMPNS`, Linux),
    /// and each write around `send(2)`, in one time base: received ≤ read ≤ now, write start ≤ write end.
    @Test func readsAndWritesAreStampedInOneTimeBase() async throws {
        let stamps = try await EchoServer.run { port in
            try await TWSBusyPollThread.run { thread in
                try await thread.transport.withConnection(host: "127.0.0.1", port: port) { channel in
                    let clock = try #require(channel.wireClock)
                    let before = TWSWireClock.now()
                    try await channel.outbound.write(ByteBuffer(bytes: [1, 2, 3, 4]))
                    let sent = (clock.lastSendStarted, clock.lastSendEnded)
                    var received = 0
                    for try await chunk in channel.inbound {
                        received += chunk.readableBytes
                        if received >= 4 { break }
                    }
                    return (before, sent, clock.takeReceived(), clock.takeReceived(), TWSWireClock.now())
                }
            }
        }
        let (before, sent, first, second, after) = stamps
        #expect(before <= sent.0 && sent.0 <= sent.1 && sent.1 <= after)
        #expect(sent.1 <= first.read && first.read <= after, "the echo is read after it was sent")
        #if os(Linux)
            #expect(sent.0 <= first.arrived && first.arrived <= first.read, "the kernel received it before the read")
        #endif
        #expect(second == (0, 0), "a stamp is taken once")
    }
}

/// The connection reading the busy socket itself (`TWSDirectReader`): no byte is read twice or lost, the write
/// backlog still drains, and the thread's idle work still finds quiet moments while a connection is open.
extension TWSBusyPollTests {
    /// As `aLargeTransferKeepsEveryByteInOrder`, read with `readNow` after `takeOverReads`: the thread's polls then
    /// only flush, and the stream gets nothing.
    @Test func directReadsKeepEveryByteInOrder() async throws {
        let total = 4 << 20
        let echoed = try await EchoServer.run { port in
            try await TWSBusyPollThread.run { thread in
                try await thread.transport.withConnection(host: "127.0.0.1", port: port) { channel in
                    let reader = try #require(channel.directReader)
                    reader.takeOverReads()
                    try await PatternCheck.write(total, to: channel.outbound)
                    var check = PatternCheck()
                    var emptyReads = 0
                    while check.received < total {
                        switch reader.readNow() {
                        case .nothing:
                            emptyReads += 1
                            await Task.yield()  // the thread's poll flushes the backlog meanwhile
                        case .chunk(let chunk):
                            check.consume(chunk)
                        case .ended, .failed:
                            return (check.received, check.inOrder, 0, emptyReads)
                        }
                    }
                    let writer = channel.outbound as? BusyPollSocket.Writer
                    let deferred = writer?.socket.deferredWrites.load(ordering: .relaxed) ?? 0
                    return (check.received, check.inOrder, deferred, emptyReads)
                }
            }
        }
        #expect(echoed.0 == total)
        #expect(echoed.1)
        #expect(echoed.2 > 0, "the kernel's send buffer never filled: the backlog was not exercised")
        #expect(echoed.3 > 0)
    }

    /// A connection open on the thread reads its socket on every turn; those turns are not activity, so the idle
    /// work (`latency.keepWarm`'s rehearsal) still runs at its interval.
    @Test func idleWorkRunsWhileAConnectionReadsDirectly() async throws {
        let server = LoopbackTWSServer(version: 200)
        let runs = Mutex(0)
        let (during, time) = try await TWSBusyPollThread.run { thread in
            let environment = TWSConnectionEnvironment(transport: thread.transport, logger: Self.quiet.logger)
            return try await server.run { port in
                let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: 3)
                return try await TWSConnection.connect(configuration, environment: environment) { connection, _ in
                    thread.setIdleWork(every: .microseconds(500)) { runs.withLock { $0 += 1 } }
                    try await Self.waitUntil { runs.withLock { $0 } >= 5 }
                    thread.clearIdleWork()
                    return (runs.withLock { $0 }, try await connection.currentTime())
                }
            }
        }
        #expect(during >= 5, "idle work ran \(during) times in 5 s at a 0.5 ms interval")
        #expect(time == 1_736_951_400, "the connection still answers")
    }
}

extension TWSBusyPollTests {
    /// The busy transport used from a task that does not run on the thread (no executor preference): the connection
    /// reads the stream the thread's polls fill, as before direct reads, instead of spinning on a shared thread.
    @Test func aConnectionOffTheThreadReadsTheStream() async throws {
        let server = LoopbackTWSServer(version: 200)
        let time = try await TWSBusyPollThread.run { thread in
            let environment = TWSConnectionEnvironment(transport: thread.transport, logger: Self.quiet.logger)
            return try await server.run { port in
                try await Task.detached {
                    #expect(!TWSBusyPollThread.isCurrentThreadBusyPolling)
                    let configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: 3)
                    return try await TWSConnection.connect(configuration, environment: environment) { connection, _ in
                        try await connection.currentTime()
                    }
                }.value
            }
        }
        #expect(time == 1_736_951_400)
    }
}

/// Checks an echoed stream whose byte k is k % 251.
private struct PatternCheck {
    private(set) var received = 0
    private(set) var inOrder = true

    /// Writes the stream's first `total` bytes (a multiple of 64 KiB) in 64 KiB writes.
    static func write(_ total: Int, to outbound: any TWSTransportWriter) async throws {
        let pattern = (0..<(65_536 + 251)).map { UInt8($0 % 251) }
        var offset = 0
        while offset < total {
            let start = offset % 251
            try await outbound.write(ByteBuffer(bytes: pattern[start..<start + 65_536]))
            offset += 65_536
        }
    }

    mutating func consume(_ chunk: ByteBuffer) {
        chunk.withUnsafeReadableBytes { bytes in
            var expected = received % 251
            for byte in bytes {
                if byte != UInt8(expected) { inOrder = false }
                expected = expected == 250 ? 0 : expected + 1
            }
        }
        received += chunk.readableBytes
    }
}

private actor ThreadProbe {
    func onBusyThread() -> Bool { TWSBusyPollThread.isCurrentThreadBusyPolling }
}

/// A loopback echo server (NIO).
private enum EchoServer {
    private final class Echo: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        func channelActive(context: ChannelHandlerContext) {
            // Reading starts late, so the client's writes pile up first.
            let channel = context.channel
            context.eventLoop.scheduleTask(in: .milliseconds(100)) {
                channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
            }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.writeAndFlush(data, promise: nil)
        }
    }

    static func run<Result: Sendable>(_ body: @Sendable (Int) async throws -> Result) async throws -> Result {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(.socketOption(.so_rcvbuf), value: 16_384)
            .childChannelInitializer { $0.pipeline.addHandler(Echo()) }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = server.localAddress?.port ?? 0
        do {
            let result = try await body(port)
            try await server.close()
            return result
        } catch {
            try? await server.close()
            throw error
        }
    }
}
