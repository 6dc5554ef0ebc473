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
