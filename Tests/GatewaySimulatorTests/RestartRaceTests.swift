import Foundation
import GatewayCore
import GatewaySimulator
import Synchronization
import TWSProtocol
import Testing

/// Clients connecting while restart faults take the listener down and up: the gateway never traps, and serves
/// afterwards (a connection accepted as the listener closed used to bring the process down).
@Suite(.timeLimit(.minutes(1))) struct RestartRaceTests {
    /// The clients connect for as long as the restarts go on (at least 20 times each), not a fixed number of times:
    /// a socket accepted as the listener closed is closed by the gateway after 5 s, so a fixed count of 150 per
    /// client took over 60 s on a loaded CI machine. Bounded by the work the race needs, not by how fast we are.
    @Test func connectionsRacingRestartsNeverTrapTheGateway() async throws {
        let restarting = RestartsInProgress()
        try await withSimulator { simulator, port in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<4 {
                    group.addTask {
                        var attempts = 0
                        while restarting.value || attempts < 20 {
                            attempts += 1
                            _ = try? await withRawClient(port: port, clientID: 10 + client) { session in
                                try await FaultInjectionTests.handshakeBurst(session)
                            }
                        }
                    }
                }
                group.addTask {
                    defer { restarting.finish() }
                    // A race on a real listener (a kept real-socket test): restarts a few ms apart, in wall time.
                    for _ in 0..<60 {
                        await simulator.apply(.restart(seconds: 0))
                        try await Task.sleep(for: .milliseconds(3))
                    }
                }
                try await group.waitForAll()
            }
            var burst: [TWSResponse] = []
            for _ in 0..<1_000 where burst.isEmpty {
                burst = (try? await withRawClient(port: port, clientID: 1) { session in
                    try await FaultInjectionTests.handshakeBurst(session)
                }) ?? []
                if burst.isEmpty { try await Task.sleep(for: .milliseconds(10)) }  // the real listener reopens in wall time
            }
            #expect(!burst.isEmpty, "the gateway serves after the restarts")
        }
    }
}

/// Whether the restart task is still taking the listener down and up.
private final class RestartsInProgress: Sendable {
    private let running = Mutex(true)
    var value: Bool { running.withLock { $0 } }
    func finish() { running.withLock { $0 = false } }
}
