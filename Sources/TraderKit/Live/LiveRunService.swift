import Foundation
import InteractiveBrokers
import Logging
import ServiceLifecycle
import Synchronization
import TraderConfig
import TradingEngine
import UnixSignals
import LiveSession
import OperatorSurface

/// Runs the bot as a service-lifecycle service: Ctrl-C / SIGTERM stop it gracefully, the same signal again during
/// the stop cuts the drain short.
public enum LiveRunService {
    /// Runs until the duration ends or a signal stops it, with the dashboard and the alerts of `surface` beside it.
    /// - Returns: what the run did.
    /// - Throws: `TraderError` for a run that could not start or go on (`LiveRunnerError`'s sentence).
    public static func run(
        _ configuration: LiveRunnerConfiguration, strategy: StrategySettings, logger: Logger,
        surface: OperatorSetup? = nil
    ) async throws -> LiveRunSummary {
        var configuration = configuration
        var logger = logger
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if surface?.dashboard != nil || surface?.alerts != nil { configuration.operatorLink = OperatorLink() }
        if let alerts = surface?.alerts, let link = configuration.operatorLink {
            link.forwardAlerts { alerts.post($0) }
            let names = alerts.channels.map(\.name).joined(separator: ", ")
            logger.notice("alerts go to \(names)")
            services.append(.init(service: alerts, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore))
        }
        if let dashboard = surface?.dashboard, let link = configuration.operatorLink {
            // Against the simulator the log's lines carry the data's time, the page's one clock (issue 83).
            let tail = dashboard.simulatedBroker
                ? LogTail(capacity: 300, clock: Self.dataClock(link)) : LogTail(capacity: 300) { Self.clockText() }
            let level = logger.logLevel
            let console = logger.handler
            logger = Logger(label: logger.label) { _ in MultiplexLogHandler([console, tail.handler(level: level)]) }
            logger.logLevel = level
            let server = DashboardServer(settings: dashboard, link: link, log: tail, reloadRisk: surface?.reloadRisk)
            let metrics = server.metrics
            configuration.latencyObserver = { metrics.observe($0, seconds: $1) }
            services.append(.init(service: DashboardService(server: server, logger: logger), successTerminationBehavior: .ignore))
        }
        if let second = surface?.dailyReportSecond, let journal = configuration.journal?.path {
            var post: (@Sendable (OperatorAlert) -> Void)?
            if let center = surface?.alerts { post = { center.post($0) } }
            let report = DailyReportService(journalPath: journal, secondOfDay: second, post: post, logger: logger)
            services.append(.init(service: report, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore))
        }
        // A built-in strategy (the performance allocator over one included) runs as it always has
        // (`LiveRunner.run(spec:)`); a user's through its runner.
        var service = strategy.spec.map { LiveRunnerService(spec: $0, configuration: configuration, logger: logger) }
            ?? strategy.runner.liveService(configuration, logger)
        service.escalationSignals = [.sigterm, .sigint]
        // The group stops its services last first: the run first, at once on the signal, while the dashboard still
        // shows the stop (then closes its event streams) and the alerts center still takes the run's last alerts.
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                // A run that fails (at start: an account, a gateway too old) also stops the others gracefully: a
                // cancelled dashboard logs its server's teardown as errors.
                services: services + [
                    .init(service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                          failureTerminationBehavior: .gracefullyShutdownGroup)
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as LiveRunnerError {
            throw TraderError(error.description)
        } catch is ServiceGroupError {
            // A service that ended out of turn during the stop (a second signal, a dashboard that failed): the run's
            // own outcome is what the operator needs, not the group's.
            guard let summary = service.summary else {
                throw TraderError("the stop was cut short before the run had written its summary; the journal has what was done")
            }
            logger.notice("the stop was cut short; the run had ended (\(summary.stopReason))")
            return summary
        }
        guard let summary = service.summary else { throw TraderError("the run ended without a summary") }
        return summary
    }

    /// The wall clock as `HH:MM:SS` (UTC), for the dashboard's log lines.
    /// The data's clock for the log's lines: `--:--:--` until the session first runs (before its warm-up ends its data
    /// time is the machine's), then the data time's `HH:MM:SS`.
    static func dataClock(_ link: OperatorLink) -> @Sendable () -> String {
        let started = Mutex(false)
        return {
            let status = link.status
            let running = started.withLock { seen in
                seen = seen || status?.phase == "running"
                return seen
            }
            return running ? dataClockText(status?.dataTime) : "--:--:--"
        }
    }

    /// `16:11:00` of a data time `2011-01-18T16:11:00Z`; `--:--:--` before the first bar.
    static func dataClockText(_ dataTime: String?) -> String {
        guard let dataTime, let t = dataTime.firstIndex(of: "T") else { return "--:--:--" }
        return String(dataTime[dataTime.index(after: t)...].prefix(8))
    }

    static func clockText() -> String {
        let seconds = Int(Date().timeIntervalSince1970) % 86_400
        return String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }
}
