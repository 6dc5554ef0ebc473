import NIOCore
import Synchronization
import TWSClient
import TWSProtocol
import TWSTranscript

/// A transport whose peer is a recorded gateway session: each `withConnection` is one leg of the transcript, played
/// by a `TranscriptPlayer` in process on `clock` (a `VirtualLoop`'s in tests), with every byte through the real
/// client and server codecs. After the run, `report` says what matched and what did not.
///
/// ```swift
/// let transcript = try TWSTranscript.load(path: path)
/// let transport = TranscriptTransport(transcript: transcript, clock: loop.clock)
/// try await TWSConnection.connect(configuration, environment: .init(transport: transport, clock: loop.clock)) { … }
/// #expect(transport.report.passed, "\(transport.report)")
/// ```
public final class TranscriptTransport: TWSTransport, Sendable {
    /// What the session amounted to.
    public typealias Report = TranscriptReport

    private let player: Mutex<TranscriptPlayer>
    private let refused = Mutex(0)
    private let clock: any Clock<Duration>

    /// Creates the transport.
    /// - Parameters:
    ///   - transcript: the session to play.
    ///   - options: matching and the ambient responder.
    ///   - clock: the clock of the transcript's `sleep` steps.
    public init(transcript: TWSTranscript, options: TranscriptPlayer.Options = .init(), clock: any Clock<Duration>) {
        player = Mutex(TranscriptPlayer(transcript: transcript, options: options))
        self.clock = clock
    }

    /// The session so far.
    public var report: Report {
        var report = player.withLock { $0.report }
        report.refusedConnections = refused.withLock { $0 }
        return report
    }

    /// Whether the transcript waits for the client's next request (a test's driver waits for this before acting).
    public var awaitsClient: Bool { player.withLock { $0.awaitsClient } }

    /// The transcript line the player is at.
    public var nextLine: TWSTranscript.Line? { player.withLock { $0.nextLine } }

    public func withConnection<Result: Sendable>(
        host: String, port: Int, _ body: @Sendable (TWSTransportChannel) async throws -> Result
    ) async throws -> Result {
        guard let hello = player.withLock({ $0.connect() }) else {
            refused.withLock { $0 += 1 }
            throw TWSConnectionError.refused(host: host, port: port, reason: "the transcript has no connection left")
        }
        let (toServer, server) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        let (toClient, client) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        let close: @Sendable () -> Void = {
            client.finish()
            server.finish()
        }
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                await self.serve(hello, inbound: toServer, send: { _ = client.yield($0) }, close: close)
                close()
                return nil
            }
            let outcome: Swift.Result<Result, any Error>
            do {
                outcome = .success(try await body(TWSTransportChannel(inbound: toClient, outbound: Writer(continuation: server))))
            } catch {
                outcome = .failure(error)
            }
            close()
            try await group.waitForAll()
            return try outcome.get()
        }
    }

    /// One leg: the handshake, then requests in and the transcript's steps out, until either side closes. The
    /// transcript's steps run in a task of their own (their sleeps delay only them); ambient replies go out at once.
    private func serve(
        _ hello: TranscriptPlayer.Hello, inbound: AsyncThrowingStream<ByteBuffer, any Error>,
        send: @escaping @Sendable (ByteBuffer) -> Void, close: @escaping @Sendable () -> Void
    ) async {
        let (script, scripted) = AsyncStream.makeStream(of: TranscriptPlayer.Action.self)
        let clock = self.clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await action in script {
                    switch action {
                    case .send(let bytes), .reply(let bytes): send(bytes)
                    case .sleep(let duration):
                        do { try await clock.sleep(for: duration) } catch { break }
                    case .close:
                        close()
                        return
                    }
                }
            }
            var connection = TranscriptConnection(hello: hello)
            do {
                for try await bytes in inbound {
                    let actions = try player.withLock { player in try connection.receive(bytes, player: &player) }
                    for action in actions {
                        if case .reply(let bytes) = action { send(bytes) } else { scripted.yield(action) }
                    }
                }
            } catch {
                // A closed pipe or a broken byte stream ends the leg; the player records what was left.
            }
            scripted.finish()
            player.withLock { $0.clientClosed() }
            close()
        }
    }

    private struct Writer: TWSTransportWriter {
        let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation

        func write(_ bytes: ByteBuffer) throws {
            guard case .enqueued = continuation.yield(bytes) else { throw TranscriptPipeClosed() }
        }
    }
}

/// A write to a transcript connection that has closed.
struct TranscriptPipeClosed: Error, CustomStringConvertible {
    var description: String { "the transcript's connection is closed" }
}
