import Foundation
import Logging
import ServiceLifecycle
import Storage
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol
import UnixSignals

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers

/// Buys 1 SYN000 at a limit far below the market whenever it has no open order: during warm-up the kill switch
/// denies it, live it rests at the broker until the run stops.
private struct RestingBuyer: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        let id = InstrumentID(0)
        guard case .bar(id, _) = event, !context.hasOpenOrders(for: id) else { return [] }
        return [.submit(OrderRequest(instrument: id, side: .buy, quantity: Quantity(1), type: .limit(Price(1))))]
    }
}

private func serviceLogger() -> Logger {
    var logger = Logger(label: "test.service")
    logger.logLevel = .warning
    return logger
}

/// The live runner as a `Service` in a `ServiceGroup`, against the in-process simulator (manual replay clock).
@Suite("Live runner as a Service")
struct LiveRunnerServiceTests {
    /// A simulator one hour into a session, with `body` given the simulator and the runner's configuration.
    private func withRunnerSetup(
        cancelOnExit: Bool, _ body: @Sendable (GatewaySimulator, LiveRunnerConfiguration, OrderJournal) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("service-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path)
        var logger = Logger(label: "test.gateway")
        logger.logLevel = .warning
        let simulator = GatewaySimulator(
            configuration: GatewaySimulatorConfiguration(
                host: "127.0.0.1", port: 0, data: simulatorData, gateway: GatewayConfiguration(),
                start: simulatorData.defaultStart + .seconds(3600), clock: .manual), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await simulator.run() }
            let port = await simulator.listeningPort()
            var configuration = LiveRunnerConfiguration(
                connection: connectionConfiguration(port, clientID: 41), symbols: ["SYN000", "SYN001", "SYN002"],
                engine: EngineConfig(initialCash: Money(100_000)))
            configuration.journal = journal
            configuration.session.warmupDuration = "600 S"
            configuration.session.cancelOnExit = cancelOnExit
            do { try await body(simulator, configuration, journal) } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }

    /// Replays 5-second steps, 5 ms apart, until the strategy's limit order works at the simulator. (Real sockets
    /// and signals, so the wall clock: with only a yield between steps the replay could run through its 500 steps
    /// before a loaded machine let the bot take the bars.)
    private func replayUntilOrderRests(_ simulator: GatewaySimulator) async throws {
        while await simulator.state().activeSubscriptions.realTimeBars < 3 { try await Task.sleep(for: .milliseconds(2)) }
        for _ in 0..<2_000 {
            if await !Self.working(simulator).isEmpty { return }
            await simulator.advance(by: .seconds(5))
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("the limit order never reached the simulator")
    }

    private static func working(_ simulator: GatewaySimulator) async -> [String] {
        await simulator.state().orders.values.map(\.status).filter { $0 == "Submitted" || $0 == "PreSubmitted" }
    }

    private static func lifecycle(_ journal: OrderJournal) throws -> [String] {
        // The data time beside the wall clock's event time is not what these tests are about.
        try journal.events(kind: .lifecycle).map { $0.message.components(separatedBy: " [data time ").first ?? "" }
    }

    @Test("graceful shutdown of the group stops the runner: open orders cancelled or kept per orders.cancelOnExit", arguments: [true, false])
    func gracefulShutdown(cancelOnExit: Bool) async throws {
        try await withRunnerSetup(cancelOnExit: cancelOnExit) { simulator, configuration, journal in
            let service = LiveRunnerService(strategy: RestingBuyer(), configuration: configuration, logger: serviceLogger())
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                    logger: serviceLogger()))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await replayUntilOrderRests(simulator)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            let summary = try #require(service.summary)
            #expect(summary.stopReason == "graceful shutdown")
            #expect(summary.commands >= 1)
            let working = await Self.working(simulator)
            #expect(working.count == (cancelOnExit ? 0 : 1), "\(working)")
            // The broker's view over a fresh connection with the runner's client id.
            let open = try await TWSConnection.connect(configuration.connection) { connection, _ in
                try await connection.openOrders()
            }
            #expect(open.count == (cancelOnExit ? 0 : 1))
            #expect(try Self.lifecycle(journal).last == "stopped: graceful shutdown")
            #expect(try journal.latestPositions() != nil, "the stop records a position snapshot")
        }
    }

    @Test("the first signal stops gracefully; a second one during the drain cuts it short and is journaled")
    func secondSignalEscalates() async throws {
        try await withRunnerSetup(cancelOnExit: true) { simulator, configuration, journal in
            var configuration = configuration
            // Without the fast stop the drain would last a minute, longer than the watchdog below.
            configuration.session.stopDrain = .seconds(60)
            var service = LiveRunnerService(strategy: RestingBuyer(), configuration: configuration, logger: serviceLogger())
            // SIGUSR2 stands in for Ctrl-C: nothing else in the test process uses it.
            service.escalationSignals = [.sigusr2]
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                    gracefulShutdownSignals: [.sigusr2], logger: serviceLogger()))
            let finished = try await withThrowingTaskGroup(of: Bool.self) { tasks in
                tasks.addTask {
                    try await group.run()
                    return true
                }
                tasks.addTask {
                    try await Task.sleep(for: .seconds(40))  // a bound on the signalled stop, which runs in wall time
                    return false
                }
                try await replayUntilOrderRests(simulator)
                kill(getpid(), SIGUSR2)
                // The stop has begun once the order is cancelled at the simulator; the drain then runs.
                let deadline = ContinuousClock.now + .seconds(30)
                while await !Self.working(simulator).isEmpty, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                kill(getpid(), SIGUSR2)
                let first = try await tasks.next() ?? false
                tasks.cancelAll()
                return first
            }
            #expect(finished, "the second signal did not end the drain")
            let events = try Self.lifecycle(journal)
            #expect(events.contains { $0.hasPrefix("fast stop: second") }, "\(events)")
            #expect(events.last == "stopped: graceful shutdown", "\(events)")
        }
    }
}
