import Foundation
import LiveSession
import Logging
import ServiceLifecycle
import Storage
import Synchronization
import TradingEngine
import TradingModel
import UnixSignals

/// A live run as a swift-service-lifecycle `Service`, for a `ServiceGroup` with
/// `gracefulShutdownSignals: [.sigterm, .sigint]`.
///
/// Graceful shutdown is the runner's stop: kill switch (no new entries), open orders cancelled or left working
/// (`cancelOnExit`), the broker's answers drained for `stopDrain`, the executions, positions and a `lifecycle` event
/// journaled, then the connection closed; `run()` then returns normally. A second stop request — `escalate(_:)`, or a
/// second of `escalationSignals` — cuts the drain short (a fast stop); the journal is still written.
///
/// ```swift
/// let service = LiveRunnerService(spec: spec, configuration: configuration, logger: logger)
/// let group = ServiceGroup(configuration: ServiceGroupConfiguration(
///     services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
///     gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// try await group.run()
/// let summary = service.summary
/// ```
public struct LiveRunnerService: Service {
    /// Signals that, the second time one arrives, cut the stop short (the first is the group's graceful shutdown).
    public var escalationSignals: [UnixSignal] = []

    private let logger: Logger
    private let journal: OrderJournal?
    private let runner: @Sendable (AsyncStream<String>) async throws -> LiveRunSummary
    private let stops: AsyncStream<String>
    private let stopper: AsyncStream<String>.Continuation
    private let outcome = Outcome()

    /// A run of a built-in strategy.
    public init(spec: StrategySpec, configuration: LiveRunnerConfiguration, logger: Logger) {
        self.init(configuration: configuration, logger: logger) { stop in
            try await LiveRunner.run(spec: spec, configuration: configuration, logger: logger, stop: stop)
        }
    }

    /// A run of any strategy.
    public init<S: Strategy>(strategy: S, configuration: LiveRunnerConfiguration, logger: Logger) {
        self.init(configuration: configuration, logger: logger) { stop in
            try await LiveRunner.run(strategy: strategy, configuration: configuration, logger: logger, stop: stop)
        }
    }

    private init(
        configuration: LiveRunnerConfiguration, logger: Logger,
        runner: @escaping @Sendable (AsyncStream<String>) async throws -> LiveRunSummary
    ) {
        self.logger = logger
        journal = configuration.journal
        self.runner = runner
        (stops, stopper) = AsyncStream.makeStream(of: String.self)
    }

    /// What the run did, once `run()` has returned.
    public var summary: LiveRunSummary? { outcome.summary.withLock { $0 } }

    /// A stop request: the first stops the run gracefully, a later one cuts the stop short.
    /// - Parameter reason: logged, and journaled for a fast stop.
    public func requestStop(_ reason: String) {
        let count = outcome.stopRequests.withLock { count in
            count += 1
            return count
        }
        if count > 1 {
            logger.notice("fast stop: \(reason); the drain is cut short, the journal is still written")
            let now = Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
            do { try journal?.recordEvent(.lifecycle, "fast stop: \(reason)", at: now) } catch {
                logger.error("journal: \(error)")
            }
        }
        stopper.yield(reason)
    }

    /// Runs until the strategy's run ends: graceful shutdown, `duration`, or a fatal error (thrown).
    public func run() async throws {
        let signals = escalationSignals
        let summary = try await withThrowingTaskGroup(of: Void.self, returning: LiveRunSummary.self) { group in
            if !signals.isEmpty {
                group.addTask {
                    // The group sees the first signal too and shuts down gracefully; the second one escalates.
                    var seen = 0
                    for await signal in await UnixSignalsSequence(trapping: signals) {
                        seen += 1
                        if seen > 1 { requestStop("second \(signal)") }
                    }
                }
            }
            let summary = try await withGracefulShutdownHandler {
                try await runner(stops)
            } onGracefulShutdown: {
                requestStop("graceful shutdown")
            }
            group.cancelAll()
            return summary
        }
        outcome.summary.withLock { $0 = summary }
        logger.notice("stopped (\(summary.stopReason)); disconnected")
    }

    /// Shared between copies of the service (a `Service` is a value; the group holds one copy, the caller another).
    private final class Outcome: Sendable {
        let summary = Mutex<LiveRunSummary?>(nil)
        let stopRequests = Mutex(0)
    }
}

extension LiveRunnerService: CustomStringConvertible {
    /// How service-lifecycle's log names the run.
    public var description: String { "live run" }
}
