import Foundation
import GatewaySimulator
import Synchronization
import Testing
import TWSClient
import TWSProtocol

/// 326 (client id in use) before the session is ready: `TWSConnection.connect` connects again on a fresh socket for
/// `clientIDInUseRetry`, so a session whose id is freed meanwhile (the previous one still closing) gets it, and one
/// really held elsewhere is still refused.
@Suite(.timeLimit(.minutes(1))) struct ClientIDReuseTests {
    static func configuration(_ port: Int, clientID: Int, retry: Duration) -> TWSConnectionConfiguration {
        var configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: clientID)
        configuration.readyTimeout = .seconds(10)
        configuration.clientIDInUseRetry = retry
        return configuration
    }

    /// Runs `body` while another session holds `clientID` at the simulator; `release` ends that session.
    static func whileHeld<Result: Sendable>(
        clientID: Int, _ body: @Sendable (GatewaySimulator, Int, @escaping @Sendable () -> Void) async throws -> Result
    ) async throws -> Result {
        try await withSimulator { simulator, port in
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
                group.addTask {
                    try await TWSConnection.connect(configuration(port, clientID: clientID, retry: .zero)) { _, _ in
                        for await _ in released { break }
                    }
                }
                while await !simulator.state().connectedClientIDs.contains(clientID) {
                    try await Task.sleep(for: .milliseconds(2))
                }
                let result = try await body(simulator, port) { release.finish() }
                release.finish()
                try await group.waitForAll()
                return result
            }
        }
    }

    @Test func anIDHeldByAnotherSessionIsRefusedOnceTheRetryHasPassed() async throws {
        try await Self.whileHeld(clientID: 61) { _, port, _ in
            let ran = Mutex(0)
            let start = ContinuousClock.now
            await #expect(throws: TWSConnectionError.clientIDInUse(clientID: 61)) {
                try await TWSConnection.connect(Self.configuration(port, clientID: 61, retry: .milliseconds(300))) { _, _ in
                    ran.withLock { $0 += 1 }
                }
            }
            #expect(ContinuousClock.now - start >= .milliseconds(300), "the pauses add up to the retry window")
            #expect(ran.withLock { $0 } == 0)
            await #expect(throws: TWSConnectionError.clientIDInUse(clientID: 61)) {
                try await TWSConnection.connect(Self.configuration(port, clientID: 61, retry: .zero)) { _, _ in }
            }
        }
    }

    @Test func anIDFreedWithinTheRetryConnectsAndTheBodyRunsOnce() async throws {
        try await Self.whileHeld(clientID: 62) { _, port, release in
            let ran = Mutex(0)
            async let accounts = TWSConnection.connect(Self.configuration(port, clientID: 62, retry: .seconds(10))) {
                _, session in
                ran.withLock { $0 += 1 }
                return session.accounts
            }
            try await Task.sleep(for: .milliseconds(150))  // at least one 326 and pause meanwhile
            release()
            #expect(try await accounts == ["DU1234567"])
            #expect(ran.withLock { $0 } == 1)
        }
    }
}
