import GatewayCore
import GatewaySimulator
import InteractiveBrokers
import Logging
import TradingModel
import TWSClient
import VirtualTime

/// The bot's world in one process and in simulated time: a `VirtualLoop`, the gateway simulator on its clock, and the
/// simulator's in-process transport. The real client, router, driver, core and journal run against it with every
/// byte through the real codec; time moves only when every task waits, so an hour of trading with its timers takes
/// the CPU time of its work, and a run repeats exactly.
///
/// ```swift
/// let summary = try await VirtualVenue.run(simulator: configuration) { venue in
///     var run = LiveRunnerConfiguration(connection: venue.connection(clientID: 7), symbols: ["SYN000"])
///     venue.attach(&run)
///     run.duration = .seconds(600)
///     return try await LiveRunner.run(strategy: MyStrategy(), configuration: run, logger: logger)
/// }
/// ```
public struct VirtualVenue: Sendable {
    /// The loop everything runs on.
    public let loop: VirtualLoop
    /// The simulated gateway (its control interface: `advance(by:)`, `apply(_:)`, `state()`).
    public let simulator: GatewaySimulator
    /// The replay clock's time when the venue opened.
    public let start: Timestamp

    /// Runs `body` with a venue: the simulator (on the loop's clock, in process; its replay clock and fault script
    /// driven as configured) and the loop, until `body` returns.
    /// - Parameters:
    ///   - configuration: the simulator's data, account, replay clock mode and faults (host and port are unused).
    ///   - logger: the simulator's logger (quiet by default).
    ///   - timeLimit: the simulated time after which the run ends with `VirtualTimeLimitExceeded` (a week by default).
    ///   - body: the test or the sandbox.
    /// - Returns: what `body` returns.
    public static func run<Result: Sendable>(
        simulator configuration: GatewaySimulatorConfiguration, logger: Logger = VirtualVenue.quietLogger,
        timeLimit: Duration = .seconds(86_400 * 7), _ body: @Sendable (VirtualVenue) async throws -> Result
    ) async throws -> Result {
        try await VirtualLoop.run(timeLimit: timeLimit) { loop in
            let simulator = GatewaySimulator(configuration: configuration, logger: logger, clock: loop.clock)
            let venue = VirtualVenue(loop: loop, simulator: simulator, start: await simulator.now())
            return try await withThrowingTaskGroup(of: Result?.self, returning: Result.self) { group in
                group.addTask {
                    try await simulator.runInProcess()
                    return nil
                }
                let result: Result
                do {
                    result = try await body(venue)
                } catch {
                    group.cancelAll()
                    throw error
                }
                group.cancelAll()
                return result
            }
        }
    }

    /// A simulator logger that prints only critical lines.
    public static var quietLogger: Logger {
        var logger = Logger(label: "venue.gateway")
        logger.logLevel = .critical
        return logger
    }

    /// The transport to the simulator.
    public var transport: any TWSTransport { simulator.inProcessTransport }

    /// The session clock of a bot at this venue: the loop's clock, stamped from the replay's start.
    public var clock: SessionClock { SessionClock(loop.clock, startingAt: start) }

    /// Time since the venue opened, on the loop's clock.
    public var elapsed: Duration { loop.clock.elapsed }

    /// A connection configuration for a client of this venue (the address is not used).
    public func connection(clientID: Int) -> TWSConnectionConfiguration {
        var configuration = TWSConnectionConfiguration(host: "127.0.0.1", port: 7497, clientID: clientID)
        configuration.readyTimeout = .seconds(10)
        configuration.requestTimeout = .seconds(10)
        return configuration
    }

    /// Points a bot's configuration at this venue: its transport, its clock, and ticks only when the core has work
    /// (in virtual time an idle second costs a tick and nothing else).
    public func attach(_ configuration: inout LiveRunnerConfiguration) {
        configuration.transport = transport
        configuration.clock = clock
        configuration.ticks = .whenDue
    }

    /// The environment of a client connection at this venue (for `TWSConnection.connect`).
    public func environment(logger: Logger = Logger(label: "venue.client")) -> TWSConnectionEnvironment {
        TWSConnectionEnvironment(transport: transport, clock: loop.clock, logger: logger)
    }

    // MARK: - The simulator's control interface, here for short test code

    /// Applies a fault command to the simulator (`restart 0` returns at once in process).
    public func apply(_ fault: FaultCommand) async { await simulator.apply(fault) }

    /// Moves the replay clock forward (manual mode, or on top of the speed driver).
    public func advance(by span: TimeSpan) async { await simulator.advance(by: span) }

    /// A copy of the simulator's state for assertions.
    public func state() async -> GatewayState { await simulator.state() }

    /// The replay clock's time.
    public func now() async -> Timestamp { await simulator.now() }

    // MARK: - Time

    /// Sleeps on the loop's clock.
    public func sleep(for duration: Duration) async throws {
        try await loop.clock.sleep(for: duration)
    }

    /// Waits on the loop's clock until `condition` holds, looking every `step`, for at most `limit`. (Look at least a
    /// millisecond apart: the bot's own timers, the rate limiter's for one, must get their turn.)
    /// - Returns: whether it held.
    @discardableResult
    public func wait(
        upTo limit: Duration, step: Duration = .milliseconds(10), until condition: @Sendable () async -> Bool
    ) async -> Bool {
        let deadline = elapsed + limit
        while true {
            if await condition() { return true }
            guard elapsed < deadline else { return false }
            // Cancelled (the run it waits on ended), the sleep returns at once and time would never pass.
            do { try await loop.clock.sleep(for: step) } catch { return false }
        }
    }
}
