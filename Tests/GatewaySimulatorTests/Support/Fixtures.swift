import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import TWSProtocol
import TWSTestSupport
import TradingModel

/// A small deterministic universe: 3 synthetic symbols (SYN000…SYN002), 2021–2023 daily bars.
let testData = MarketDataSet.synthetic(count: 3, seed: 7)

/// A stock contract by symbol, as clients send it.
func stock(_ symbol: String) -> TWSContract {
    var c = TWSContract()
    c.symbol = symbol
    c.securityType = "STK"
    c.exchange = "SMART"
    c.currency = "USD"
    return c
}

/// A wire order.
func wireOrder(
    _ action: String, _ quantity: Decimal, _ type: String = "MKT", limit: Double? = nil, aux: Double? = nil
) -> TWSOrder {
    var o = TWSOrder()
    o.action = action
    o.totalQuantity = quantity
    o.orderType = type
    o.limitPrice = limit
    o.auxPrice = aux
    o.timeInForce = "DAY"
    return o
}

/// The responses sent to one connection, in order.
func sent(_ actions: [GatewayAction], to connection: ConnectionID = 1) -> [TWSResponse] {
    actions.compactMap { action in
        if case .send(let c, let r) = action, c == connection { return r }
        return nil
    }
}

/// Names of the messages, for sequence assertions.
func names(_ responses: [TWSResponse]) -> [String] { responses.map(\.messageName) }

/// Error codes among the responses.
func errorCodes(_ responses: [TWSResponse]) -> [Int] {
    responses.compactMap { if case .error(let e) = $0 { return e.code } else { return nil } }
}

/// Runs a simulator on a free loopback port for the duration of `body`.
func withSimulator<Result: Sendable>(
    clock: ReplayClockMode = .manual, data: MarketDataSet = testData,
    gateway: GatewayConfiguration = GatewayConfiguration(), faults: FaultScript? = nil,
    limits: GatewayLimits = GatewayLimits(),
    _ body: @Sendable (GatewaySimulator, Int) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "test.gateway")
    logger.logLevel = .warning
    let simulator = GatewaySimulator(configuration: GatewaySimulatorConfiguration(
        host: "127.0.0.1", port: 0, data: data, gateway: gateway, clock: clock, faults: faults, limits: limits),
        logger: logger)
    // On a thread of its own: a real socket on the wall clock must not wait for the pool (`onOwnThread`).
    return try await onOwnThread {
        try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { try await simulator.run() }
            let port = await simulator.listeningPort()
            let result: Result
            do {
                result = try await body(simulator, port)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
            return result
        }
    }
}
