import InteractiveBrokers
import Logging
import ServiceLifecycle
import TraderConfig
import TradingEngine
import UnixSignals
import LiveSession

/// Runs the bot as a service-lifecycle service: Ctrl-C / SIGTERM stop it gracefully, the same signal again during
/// the stop cuts the drain short.
public enum LiveRunService {
    /// Runs until the duration ends or a signal stops it.
    /// - Returns: what the run did.
    /// - Throws: `TraderError` for a run that could not start or go on (`LiveRunnerError`'s sentence).
    public static func run(
        _ configuration: LiveRunnerConfiguration, strategy: StrategySettings, logger: Logger
    ) async throws -> LiveRunSummary {
        // A built-in strategy (the performance allocator over one included) runs as it always has
        // (`LiveRunner.run(spec:)`); a user's through its runner.
        var service = strategy.spec.map { LiveRunnerService(spec: $0, configuration: configuration, logger: logger) }
            ?? strategy.runner.liveService(configuration, logger)
        service.escalationSignals = [.sigterm, .sigint]
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as LiveRunnerError {
            throw TraderError(error.description)
        }
        guard let summary = service.summary else { throw TraderError("the run ended without a summary") }
        return summary
    }
}
