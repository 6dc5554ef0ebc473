import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import Testing

/// Cancelling `run()` stops the simulator even while a client stays connected (as `ibtrader gateway` must stop on
/// Ctrl-C with ib_async still attached, and a benchmark must end while its proxy holds the connection).
@Suite(.timeLimit(.minutes(1))) struct SimulatorStopTests {
    @Test func cancellingRunEndsItWithAClientStillConnected() async throws {
        var logger = Logger(label: "test.gateway")
        logger.logLevel = .warning
        let simulator = GatewaySimulator(configuration: GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: testData, clock: .manual), logger: logger)
        let serving = Task { try await simulator.run() }
        let port = await simulator.listeningPort()
        try await withRawClient(port: port, clientID: 4) { session in
            _ = try await FaultInjectionTests.handshakeBurst(session)
            serving.cancel()
            let started = ContinuousClock.now
            _ = await serving.result
            #expect(ContinuousClock.now - started < .seconds(3))
        }
    }
}
