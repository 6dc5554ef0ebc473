import Foundation
import GatewayCore
import GatewaySimulator
import SimulatedVenue
import Logging
import TradingModel
import TWSClient
import TWSProtocol
import TWSTestSupport

@testable import InteractiveBrokers
@testable import LiveSession

/// A small deterministic universe at the simulator: SYN000…SYN002, daily bars 2021–2023.
let simulatorData = MarketDataSet.synthetic(count: 3, seed: 7)
let syn0 = InstrumentID(0)
let syn1 = InstrumentID(1)
let simulatorBook = ContractBook(universe: Universe(symbols: ["SYN000", "SYN001"]))
/// The time stamped on status reports in these tests (no wall clock).
let fixedTime = Timestamp(seconds: 1_700_000_000)

/// Runs a simulator on a free loopback port with a manual clock for the duration of `body`.
func withSimulator<Result: Sendable>(
    _ body: @Sendable (GatewaySimulator, Int) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "test.gateway")
    logger.logLevel = .warning
    let simulator = GatewaySimulator(
        configuration: GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: simulatorData, gateway: GatewayConfiguration(), clock: .manual,
            faults: nil), logger: logger)
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

/// A connection configuration for the simulator.
/// `IBTRADER_TEST_MAX_SERVER_VERSION=200` runs these end-to-end tests on the text protocol (the default, 226, runs
/// them over protobuf).
func connectionConfiguration(_ port: Int, clientID: Int = 21) -> TWSConnectionConfiguration {
    var configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: port, clientID: clientID)
    if let text = ProcessInfo.processInfo.environment["IBTRADER_TEST_MAX_SERVER_VERSION"], let maximum = Int(text) {
        configuration.versions = configuration.versions.lowerBound...maximum
    }
    configuration.readyTimeout = .seconds(10)
    configuration.requestTimeout = .seconds(10)
    return configuration
}

extension VirtualVenue {
    /// A client's connection to the venue, with `IBTRADER_TEST_MAX_SERVER_VERSION` applied as `connectionConfiguration`
    /// applies it (so the end-to-end tests run on text at 200 when asked).
    func clientConnection(_ clientID: Int) -> TWSConnectionConfiguration {
        var configuration = connection(clientID: clientID)
        if let text = ProcessInfo.processInfo.environment["IBTRADER_TEST_MAX_SERVER_VERSION"], let maximum = Int(text) {
            configuration.versions = configuration.versions.lowerBound...maximum
        }
        return configuration
    }
}

/// The simulator's executions over a fresh connection with `clientID`, right after a run that used the same id.
/// The simulator frees the id once it has seen the run's socket close, which on a loaded machine can trail the
/// run's return: a 326 (client id in use) is retried for up to 5 s. (For the kept real-socket tests; at a venue,
/// `executionsAfterRun(_:clientID:)`.)
func executionsAfterRun(port: Int, clientID: Int) async throws -> [TWSExecutionReport] {
    for attempt in 0..<100 {
        do {
            return try await TWSConnection.connect(connectionConfiguration(port, clientID: clientID)) { c, _ in
                try await c.executions()
            }
        } catch let error as TWSConnectionError {
            guard case .clientIDInUse = error, attempt < 99 else { throw error }
            try await Task.sleep(for: .milliseconds(50))  // the socket's close reaches the simulator in wall time
        }
    }
    return []
}

/// The simulator's executions over a fresh connection with `clientID` at `venue`, right after a run that used it.
func executionsAfterRun(_ venue: VirtualVenue, clientID: Int) async throws -> [TWSExecutionReport] {
    try await TWSConnection.connect(venue.clientConnection(clientID), environment: venue.environment()) { c, _ in
        try await c.executions()
    }
}

/// A simulator, a ready connection and a running broker over it.
struct BrokerHarness: Sendable {
    var simulator: GatewaySimulator
    var connection: TWSConnection
    var broker: IBBroker
    var events: AsyncStream<IBBrokerEvent>
}

/// Runs `body` with a broker connected to a fresh simulator.
func withBroker(
    commissionWait: TimeSpan? = .seconds(3600), _ body: @Sendable (BrokerHarness) async throws -> Void
) async throws {
    try await withSimulator { simulator, port in
        try await TWSConnection.connect(connectionConfiguration(port)) { connection, _ in
            let broker = IBBroker(
                connection: connection, contracts: simulatorBook,
                configuration: IBBrokerConfiguration(commissionWait: commissionWait), clock: { fixedTime })
            let events = await broker.start()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try? await broker.run() }
                try await body(
                    BrokerHarness(simulator: simulator, connection: connection, broker: broker, events: events))
                group.cancelAll()
            }
        }
    }
}

/// Reads broker events until `done` accepts one; returns all read.
func read(
    _ iterator: inout AsyncStream<IBBrokerEvent>.Iterator, until done: (IBBrokerEvent) -> Bool
) async -> [IBBrokerEvent] {
    var seen: [IBBrokerEvent] = []
    while let event = await iterator.next() {
        seen.append(event)
        if done(event) { break }
    }
    return seen
}

extension IBBrokerEvent {
    /// The report, if this is one.
    var report: ExecutionReport? { if case .report(let r) = self { r } else { nil } }
    /// The fill, if this is one.
    var fill: Fill? { if case .report(.filled(let f)) = self { f } else { nil } }
}

/// Whether an event is a report of this kind for this order.
func isReport(_ event: IBBrokerEvent, _ id: Int64, _ kind: String) -> Bool {
    guard let report = event.report, report.orderID == OrderID(id) else { return false }
    switch (report, kind) {
    case (.accepted, "accepted"), (.filled, "filled"), (.canceled, "canceled"), (.replaced, "replaced"),
        (.rejected, "rejected"), (.expired, "expired"), (.modifyRejected, "modifyRejected"):
        return true
    default:
        return false
    }
}
