import GatewayCore
import GatewaySimulator
import Logging

/// A simulator (manual clock, synthetic SYN000…) for the manual commands, with a chosen account code.
func withManualSimulator<Result: Sendable>(
    account: String = "DU1234567", loginZone: TWSLoginZone = .utc,
    _ body: @Sendable (GatewaySimulator, Int) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "test.gateway")
    logger.logLevel = .warning
    var gateway = GatewayConfiguration(accounts: [account])
    gateway.loginZone = loginZone
    let simulator = GatewaySimulator(
        configuration: GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: MarketDataSet.synthetic(count: 3, seed: 7),
            gateway: gateway, clock: .manual), logger: logger)
    return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
        group.addTask { try await simulator.run() }
        let port = await simulator.listeningPort()
        do {
            let result = try await body(simulator, port)
            group.cancelAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}
