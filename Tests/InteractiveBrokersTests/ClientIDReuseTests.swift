import Foundation
import GatewayCore
import GatewaySimulator
import SimulatedVenue
import Synchronization
import Testing
import TWSClient
import TWSProtocol

/// 326 (client id in use) before the session is ready: `TWSConnection.connect` connects again on a fresh connection
/// for `clientIDInUseRetry`, so a session whose id is freed meanwhile (the previous one still closing) gets it, and
/// one really held elsewhere is still refused. At the in-process venue, so the retry's pauses run on its clock.
@Suite(.timeLimit(.minutes(1))) struct ClientIDReuseTests {
    static func configuration(_ venue: VirtualVenue, clientID: Int, retry: Duration) -> TWSConnectionConfiguration {
        var configuration = venue.connection(clientID: clientID)
        configuration.clientIDInUseRetry = retry
        return configuration
    }

    /// Runs `body` while another session holds `clientID` at the venue; `release` ends that session.
    static func whileHeld<Result: Sendable>(
        clientID: Int, _ body: @Sendable (VirtualVenue, @escaping @Sendable () -> Void) async throws -> Result
    ) async throws -> Result {
        try await withSessionVenue { venue in
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
                group.addTask {
                    try await TWSConnection.connect(
                        configuration(venue, clientID: clientID, retry: .zero), environment: venue.environment()
                    ) { _, _ in
                        for await _ in released { break }
                    }
                }
                let held = await venue.wait(upTo: .seconds(10)) {
                    await venue.state().connectedClientIDs.contains(clientID)
                }
                try #require(held, "the first session never held \(clientID)")
                let result = try await body(venue) { release.finish() }
                release.finish()
                try await group.waitForAll()
                return result
            }
        }
    }

    @Test func anIDHeldByAnotherSessionIsRefusedOnceTheRetryHasPassed() async throws {
        try await Self.whileHeld(clientID: 61) { venue, _ in
            let ran = Mutex(0)
            let start = venue.elapsed
            await #expect(throws: TWSConnectionError.clientIDInUse(clientID: 61)) {
                try await TWSConnection.connect(
                    Self.configuration(venue, clientID: 61, retry: .milliseconds(300)), environment: venue.environment()
                ) { _, _ in
                    ran.withLock { $0 += 1 }
                }
            }
            #expect(venue.elapsed - start >= .milliseconds(300), "the pauses add up to the retry window")
            #expect(ran.withLock { $0 } == 0)
            await #expect(throws: TWSConnectionError.clientIDInUse(clientID: 61)) {
                try await TWSConnection.connect(
                    Self.configuration(venue, clientID: 61, retry: .zero), environment: venue.environment()) { _, _ in }
            }
        }
    }

    @Test func anIDFreedWithinTheRetryConnectsAndTheBodyRunsOnce() async throws {
        try await Self.whileHeld(clientID: 62) { venue, release in
            let ran = Mutex(0)
            async let accounts = TWSConnection.connect(
                Self.configuration(venue, clientID: 62, retry: .seconds(10)), environment: venue.environment()
            ) { _, session in
                ran.withLock { $0 += 1 }
                return session.accounts
            }
            try await venue.sleep(for: .milliseconds(150))  // at least one 326 and pause meanwhile
            release()
            #expect(try await accounts == ["DU1234567"])
            #expect(ran.withLock { $0 } == 1)
        }
    }
}
