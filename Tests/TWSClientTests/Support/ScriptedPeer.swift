import NIOCore
import Synchronization
import TWSProtocol

@testable import TWSClient

/// The server end of an in-memory connection: records what the client writes (hello, then frames as field lists)
/// and plays server frames on demand.
actor ScriptedPeer {
    /// Bytes to the client.
    nonisolated let toClient: AsyncThrowingStream<ByteBuffer, any Error>
    private nonisolated let toClientContinuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    nonisolated let clock: ManualClock?
    /// Writes the client made so far, counted as it makes them (before the peer takes the bytes).
    nonisolated var writesMade: Int { writes.load(ordering: .relaxed) }
    nonisolated let writes = Atomic<Int>(0)

    private var pending = ByteBufferAllocator().buffer(capacity: 0)
    private var decoder = TWSFrameDecoder()
    /// The hello's version text, e.g. `v176..200`.
    private(set) var hello: String?
    /// The hello's bytes (`API\0`, length, text).
    private(set) var helloBytes: [UInt8] = []
    /// Every frame the client sent after the hello, as fields.
    private(set) var frames: [[String]] = []
    /// The server version the peer answered; requests are decoded at it.
    private(set) var serverVersion = 200
    /// The decoded requests, in order (`nil` where a frame did not decode).
    private(set) var requests: [TWSRequest?] = []
    /// The clock time of each frame, when a clock was given.
    private(set) var frameTimes: [Duration] = []
    private(set) var clientClosed = false
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(clock: ManualClock? = nil) {
        (toClient, toClientContinuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        self.clock = clock
    }

    // MARK: - Client → server

    /// Takes bytes the client wrote at `time` (the clock's, when there is one).
    func receive(_ bytes: ByteBuffer, at time: Duration) {
        var bytes = bytes
        if hello == nil {
            pending.writeBuffer(&bytes)
            guard pending.readableBytes >= 8,
                let length = pending.getInteger(at: pending.readerIndex + 4, as: UInt32.self),
                pending.readableBytes >= 8 + Int(length)
            else { return }
            helloBytes = pending.getBytes(at: pending.readerIndex, length: 8 + Int(length)) ?? []
            pending.moveReaderIndex(forwardBy: 8)
            hello = pending.readString(length: Int(length))
            bytes = pending
        }
        decoder.append(bytes)
        while let payload = try? decoder.nextPayload() {
            frames.append(TWSFrame.fields(of: payload))
            requests.append(try? TWSRequest.decode(payload: payload, serverVersion: serverVersion))
            frameTimes.append(time)
        }
        resumeWaiters()
    }

    func clientDidClose() {
        clientClosed = true
        resumeWaiters()
    }

    private func resumeWaiters() {
        let ready = waiters.filter { frames.count >= $0.count || clientClosed }
        waiters.removeAll { frames.count >= $0.count || clientClosed }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Waits until the client has sent `count` frames (or closed).
    func waitForFrames(_ count: Int) async {
        if frames.count >= count || clientClosed { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    /// The frame at `index` once it arrived.
    func frame(_ index: Int) async -> [String] {
        await waitForFrames(index + 1)
        return index < frames.count ? frames[index] : []
    }

    /// The request at `index` once it arrived.
    func request(_ index: Int) async -> TWSRequest? {
        await waitForFrames(index + 1)
        return index < requests.count ? requests[index] : nil
    }

    /// Waits for the client to close its side.
    func waitForClose() async {
        await waitForFrames(Int.max)
    }

    // MARK: - Server → client

    /// Sends one frame made of `fields`.
    nonisolated func send(_ fields: [String]) {
        toClientContinuation.yield(TWSFrame.framed(TWSFrame.payload(fields: fields)))
    }

    /// Sends raw bytes (e.g. several frames cut at odd places).
    nonisolated func sendRaw(_ bytes: ByteBuffer) {
        toClientContinuation.yield(bytes)
    }

    /// Closes the server side: the client sees end of stream.
    nonisolated func close() {
        toClientContinuation.finish()
    }

    /// Plays the handshake: waits for the hello, answers `version`, waits for startApi, sends nextValidId and
    /// managedAccounts.
    /// - Returns: the startApi fields.
    @discardableResult
    func playHandshake(version: Int = 200, nextValidID: Int = 1, accounts: String = "DU123456") async -> [String] {
        await waitForHello()
        serverVersion = version
        send(["\(version)", "20250115 09:30:00 EST"])
        let startAPI = await frame(0)
        send(["15", "1", accounts])
        send(["9", "1", "\(nextValidID)"])
        return startAPI
    }

    private var helloWaiters: [CheckedContinuation<Void, Never>] = []

    /// Waits until the client's hello arrived.
    func waitForHelloPublic() async { await waitForHello() }

    private func waitForHello() async {
        if hello != nil { return }
        await withCheckedContinuation { helloWaiters.append($0) }
    }

    func noteHello() {
        for waiter in helloWaiters { waiter.resume() }
        helloWaiters = []
    }
}

/// A transport whose other end is a `ScriptedPeer`.
struct InMemoryTransport: TWSTransport {
    let peer: ScriptedPeer
    var refuses = false

    func withConnection<Result: Sendable>(
        host: String, port: Int, _ body: @Sendable (TWSTransportChannel) async throws -> Result
    ) async throws -> Result {
        if refuses { throw TWSConnectionError.refused(host: host, port: port, reason: "connection refused") }
        // The client writes without waiting (`TWSTransportWriter`); the peer takes the bytes in order, stamped with
        // the clock's time of the write.
        let (written, feed) = AsyncStream.makeStream(of: (ByteBuffer, Duration).self)
        let channel = TWSTransportChannel(
            inbound: peer.toClient, outbound: Writer(feed: feed, clock: peer.clock, peer: peer))
        let peer = self.peer
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask {
                for await (bytes, time) in written {
                    await peer.receive(bytes, at: time)
                    await peer.noteHello()
                    peer.clock?.notify()
                }
            }
            let outcome: Swift.Result<Result, any Error>
            do { outcome = .success(try await body(channel)) } catch { outcome = .failure(error) }
            feed.finish()
            try await group.waitForAll()
            await peer.clientDidClose()
            return try outcome.get()
        }
    }

    private struct Writer: TWSTransportWriter {
        let feed: AsyncStream<(ByteBuffer, Duration)>.Continuation
        let clock: ManualClock?
        let peer: ScriptedPeer

        func write(_ bytes: ByteBuffer) throws {
            peer.writes.add(1, ordering: .relaxed)
            feed.yield((bytes, clock?.now.offset ?? .zero))
        }
    }
}
