import Logging
import NIOCore
import TWSProtocol
import Testing

@testable import TWSClient

/// A connection wired to a scripted in-memory peer and a manual clock.
struct InMemoryHarness {
    /// Runs the connection with the clock moving itself through short sleeps (rate limiting), plays the
    /// handshake, runs `body` with the ready connection, then disconnects.
    func withReadyConnection(
        version: Int = 200, nextValidID: Int = 1, _ body: (TWSConnection, ScriptedPeer) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            group.addTask { await clock.autoAdvance() }
            await peer.playHandshake(version: version, nextValidID: nextValidID)
            _ = try await connection.waitUntilReady()
            try await body(connection, peer)
            await connection.disconnect()
            // The run task ends first; the clock driver runs until cancelled.
            try await group.next()
            group.cancelAll()
        }
    }

    /// Runs the connection and returns how it ended (`nil`: clean disconnect).
    func runOutcome() async -> TWSConnectionError? {
        do {
            try await connection.run()
            return nil
        } catch {
            return error
        }
    }

    let clock = ManualClock()
    let peer: ScriptedPeer
    let connection: TWSConnection

    init(configuration: TWSConnectionConfiguration = .init(clientID: 7), refuses: Bool = false) {
        peer = ScriptedPeer(clock: clock)
        var configuration = configuration
        configuration.readyTimeout = .seconds(30)
        let environment = TWSConnectionEnvironment(
            transport: InMemoryTransport(peer: peer, refuses: refuses), clock: clock,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        connection = TWSConnection(configuration: configuration, environment: environment)
    }
}

@Suite struct TWSConnectionHandshakeTests {
    @Test(arguments: [178, 200])
    func handshakeReachesReady(version: Int) async throws {
        let harness = InMemoryHarness()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await harness.connection.run() }
            let startAPI = await harness.peer.playHandshake(version: version, nextValidID: 42, accounts: "DU1,DU2,")
            let session = try await harness.connection.waitUntilReady()
            #expect(session.serverVersion == version)
            #expect(session.accounts == ["DU1", "DU2"])
            #expect(session.nextValidOrderID == 42)
            #expect(session.connectionTime == "20250115 09:30:00 EST")
            #expect(startAPI == ["71", "2", "7", ""])
            #expect(await harness.peer.hello == "v176..226")
            await harness.connection.disconnect()
            try await group.waitForAll()
        }
        #expect(await harness.peer.clientClosed)
        #expect(await harness.connection.state == .disconnected(reason: nil))
    }

    @Test func configuredVersionRangeIsAdvertised() async throws {
        var configuration = TWSConnectionConfiguration(clientID: 1)
        configuration.versions = 178...178
        let harness = InMemoryHarness(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await harness.connection.run() }
            await harness.peer.playHandshake(version: 178)
            _ = try await harness.connection.waitUntilReady()
            #expect(await harness.peer.hello == "v178..178")
            await harness.connection.disconnect()
            try await group.waitForAll()
        }
    }

    @Test func serverVersionBelowTheRangeNamesTheReleaseNeeded() async throws {
        let harness = InMemoryHarness()
        async let outcome = harness.runOutcome()
        await harness.peer.playHandshake(version: 157)
        do {
            let error = try #require(await outcome, "run() should fail")
            #expect(error == .unsupportedServerVersion(serverVersion: 157, advertised: 176...226))
            #expect(error.description.contains("10.19"))
        }
        await #expect(throws: TWSConnectionError.unsupportedServerVersion(serverVersion: 157, advertised: 176...226)) {
            try await harness.connection.waitUntilReady()
        }
    }

    @Test func refusedConnectionExplainsHowToEnableTheAPI() async {
        let harness = InMemoryHarness(configuration: .init(host: "127.0.0.1", port: 7497, clientID: 1), refuses: true)
        do {
            try await TWSConnection.connect(
                harness.connection.configuration,
                environment: .init(
                    transport: InMemoryTransport(peer: harness.peer, refuses: true), clock: harness.clock
                )
            ) { _, _ in }
            Issue.record("connect should fail")
        } catch let error as TWSConnectionError {
            #expect(error.description.contains("not listening at 127.0.0.1:7497"))
            #expect(error.description.contains("Configure → API → Settings → Enable ActiveX and Socket Clients"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func readyTimeoutSaysWhatWasMissing() async throws {
        let harness = InMemoryHarness()
        async let outcome = harness.runOutcome()
        await harness.peer.playHandshakeWithoutNextValidID()
        // The ready timer is the only sleeper once the write queue is empty.
        await harness.clock.waitForSleepers(1)
        harness.clock.advance(by: .seconds(30))
        do {
            let error = try #require(await outcome, "run() should time out")
            #expect(
                error == .timedOut(waitingFor: "nextValidId and managedAccounts after startApi", after: .seconds(30)))
        }
    }

    @Test func clientIDInUseEndsTheConnection() async throws {
        let harness = InMemoryHarness()
        async let outcome = harness.runOutcome()
        await harness.peer.playHandshake(version: 200)
        _ = try await harness.connection.waitUntilReady()
        harness.peer.send([
            "4", "-1", "326", "Unable to connect as the client id is already in use.", "", "1700000000000",
        ])
        do {
            let error = try #require(await outcome, "run() should fail")
            #expect(error == .clientIDInUse(clientID: 7))
        }
    }
}

extension ScriptedPeer {
    /// Answers the hello and then stays silent.
    func playHandshakeWithoutNextValidID() async {
        await waitForHelloPublic()
        send(["200", "20250115 09:30:00 EST"])
        _ = await frame(0)
    }
}

@Suite struct TWSConnectionStreamTests {
    @Test func helloMatchesTheRecordedBytesAndTheFirstBurstMayArriveByteByByte() async throws {
        var configuration = TWSConnectionConfiguration(clientID: 7)
        configuration.versions = 200...200
        let harness = InMemoryHarness(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await harness.connection.run() }
            await harness.peer.waitForHelloPublic()
            #expect(await harness.peer.helloBytes == ServerFrames.handshakeBytes("client_hello_recommended_v200"))
            for byte in ServerFrames.handshakeBytes("server_reply_200_to_official") {
                harness.peer.sendRaw(ByteBuffer(bytes: [byte]))
            }
            _ = await harness.peer.frame(0)
            for byte in ServerFrames.handshakeBytes("stream_initial_burst_v200") {
                harness.peer.sendRaw(ByteBuffer(bytes: [byte]))
            }
            let session = try await harness.connection.waitUntilReady()
            #expect(session.accounts == ["DU1234567"])
            #expect(session.nextValidOrderID == 1)
            await harness.connection.disconnect()
            try await group.waitForAll()
        }
    }
}

@Suite struct TWSConnectionLifecycleTests {
    @Test func cancellingTheRunTaskEndsCleanly() async throws {
        let harness = InMemoryHarness()
        let run = Task { await harness.runOutcome() }
        await harness.peer.playHandshake()
        _ = try await harness.connection.waitUntilReady()
        run.cancel()
        #expect(await run.value == nil)
        #expect(await harness.connection.state == .disconnected(reason: nil))
        #expect(await harness.peer.clientClosed)
    }

    @Test func aConnectionRunsOnce() async throws {
        let harness = InMemoryHarness()
        await harness.connection.disconnect()
        #expect(await harness.connection.state == .disconnected(reason: nil))
        let second = await harness.runOutcome()
        #expect(second == .transport("a TWSConnection runs once; create a new one to reconnect"))
    }
}

/// The pauses of the 326 retry (`TWSClientIDRetry`).
@Suite struct TWSClientIDRetryTests {
    @Test func pausesDoubleToACapAndAddUpToTheLimit() {
        var retry = TWSClientIDRetry(limit: .seconds(2))
        var pauses: [Duration] = []
        while let pause = retry.nextPause() { pauses.append(pause) }
        #expect(Array(pauses.prefix(6)) == [25, 50, 100, 200, 400, 400].map { Duration.milliseconds($0) })
        #expect(pauses.reduce(.zero, +) == .seconds(2))
        #expect(pauses.last == .milliseconds(25), "the last pause is cut to the limit: 25+50+100+200+400×4 = 1 975")
        #expect(retry.waited == .seconds(2))
    }

    @Test func zeroMeansNoRetry() {
        var retry = TWSClientIDRetry(limit: .zero)
        #expect(retry.nextPause() == nil)
    }
}
