import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import SimulatedVenue
import Synchronization
import Testing
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

private final class SubscriptionFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// Issue 21's acceptance: a SIGTERM (the runner's stop) during the warm-up of a 65-symbol universe ends the run
/// within 5 s. IB allows 60 historical requests per 10 minutes, so the last warm-up requests wait in the client's
/// pacing queue for minutes: the stop must not wait for them.
@Suite("Stopping a large universe")
struct LargeUniverseStopTests {
    @Test("a stop during a 65-symbol warm-up, with requests waiting for IB's pacing, ends the run within 5 s")
    func stopDuringPacedWarmUp() async throws {
        let data = MarketDataSet.synthetic(count: 65, seed: 3)
        let gateway = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: data, gateway: GatewayConfiguration(),
            start: data.defaultStart + .seconds(3600), clock: .manual)
        // The in-process venue on virtual time: the pacing window, the stop's drain and the 5 s are all on its clock,
        // so the bound is issue 21's own (a stop that waited for the paced requests would take minutes).
        try await VirtualVenue.run(simulator: gateway) { venue in
            var configuration = LiveRunnerConfiguration(
                connection: venue.clientConnection(51),
                symbols: data.instruments.map { Symbol($0.symbol) }, engine: EngineConfig(initialCash: Money(100_000)))
            venue.attach(&configuration)
            configuration.session.warmupDuration = "1800 S"
            configuration.session.resilience.resetSchedule = nil
            let subscribed = SubscriptionFlag()
            configuration.observer = { if case .subscribed = $0 { subscribed.set() } }
            let logger = { var logger = Logger(label: "test.live"); logger.logLevel = .critical; return logger }()
            let runConfiguration = configuration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask {
                    try await LiveRunner.run(
                        strategy: MomentumRotation(), configuration: runConfiguration, logger: logger, stop: stop)
                }
                // Qualification (65 contracts) and the first 60 warm-up requests take a moment; the last 5 wait for
                // the pacing window (minutes).
                try await venue.sleep(for: .seconds(4))
                let stopAt = venue.elapsed
                stopper.yield("SIGTERM")
                let summary = try #require(try await group.next() ?? nil)
                let stopping = venue.elapsed - stopAt
                #expect(stopping < .seconds(5), "the stop took \(stopping)")
                #expect(summary.stopReason.contains("SIGTERM"), "\(summary.stopReason)")
                // Still warming up when stopped: the last requests were waiting for the pacing window.
                #expect(!subscribed.isSet, "stopped during the warm-up, \(venue.elapsed) after the start")
            }
        }
    }
}
