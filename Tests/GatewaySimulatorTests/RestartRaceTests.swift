import Foundation
import GatewaySimulator
import TWSProtocol
import Testing

/// Clients connecting while restart faults take the listener down and up: the gateway never traps, and serves
/// afterwards (a connection accepted as the listener closed used to bring the process down).
@Suite(.timeLimit(.minutes(1))) struct RestartRaceTests {
    @Test func connectionsRacingRestartsNeverTrapTheGateway() async throws {
        try await withSimulator { simulator, port in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in 0..<4 {
                    group.addTask {
                        for _ in 0..<150 {
                            _ = try? await withRawClient(port: port, clientID: 10 + client) { session in
                                try await FaultInjectionTests.handshakeBurst(session)
                            }
                        }
                    }
                }
                group.addTask {
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
                if burst.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(!burst.isEmpty, "the gateway serves after the restarts")
        }
    }
}
