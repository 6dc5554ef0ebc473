import Hummingbird
import InteractiveBrokers
import Logging
import ServiceLifecycle

/// The dashboard as a service beside the live run: it stops with the run's group, after the run (the page follows
/// the stop), closing its event streams. A port that cannot be bound is a critical log line, not the end of the run:
/// trading goes on without the dashboard.
public struct DashboardService: Service {
    let server: DashboardServer
    let logger: Logger

    /// Creates the service.
    public init(server: DashboardServer, logger: Logger) {
        self.server = server
        self.logger = logger
    }

    public func run() async throws {
        let settings = server.settings
        let logger = self.logger
        var quiet = logger
        quiet.logLevel = .warning
        let app = server.application(logger: quiet) { port in
            logger.notice(
                "dashboard: http://\(settings.bind):\(port)/ (metrics /metrics, health /healthz and /readyz); controls need the token \(settings.tokenSource)")
            if !settings.isLoopback {
                logger.warning("the dashboard listens on \(settings.bind), reachable from other machines; every request needs the token")
            }
        }
        let streams = server.eventStreams
        do {
            // The open event streams end first, or the server's stop would wait for their clients to leave.
            try await withGracefulShutdownHandler {
                try await app.run()
            } onGracefulShutdown: {
                streams.close()
            }
        } catch {
            logger.critical(
                "ALERT: the dashboard did not start on \(settings.bind):\(settings.port) (dashboard.port): \(error); trading goes on without it")
        }
    }
}
