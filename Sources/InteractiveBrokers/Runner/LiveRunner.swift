import Foundation
import LiveSession
import Logging
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// The engine driven by TWS: the same `EngineCore` as a backtest, with wall-clock data from real-time bars and
/// orders through the `OrderDesk`.
///
/// The decisions are the pure `LiveSessionCore`'s; `SessionDriver` carries them out (the socket, the journal, the
/// feeds, the timers). Start-up: connect → pick the account (a live account only when confirmed) → qualify the
/// contracts → the broker's open orders (all clients), completed orders, executions and positions → warm up the
/// strategy on historical bars (kill switch engaged, so nothing is sent) → reconcile with the journal and carry the
/// plan out (positions and open orders adopted, unsent intents sent once or abandoned) → subscribe 5-second bars →
/// bars and broker reports into the engine, its commands to the broker, in arrival order. Stop (duration, `stop`
/// stream, a failed feed): kill switch (no new entries), cancel open orders if configured, record the broker's
/// executions and positions, disconnect.
public enum LiveRunner {
    /// Runs a built-in strategy.
    public static func run(
        spec: StrategySpec, configuration: LiveRunnerConfiguration, logger: Logger,
        stop: AsyncStream<String>? = nil
    ) async throws -> LiveRunSummary {
        var configuration = configuration
        configuration.strategyRecord = SessionStrategy(spec: spec, execution: configuration.execution)
        var inner = configuration
        if let style = configuration.execution {
            logger.notice("execution: \(style.summary)")
            inner.execution = nil
        }
        let run = spec.visit(Start(configuration: inner, logger: logger, stop: stop), style: configuration.execution)
        return try await run()
    }

    /// The run of the strategy a spec names (its execution style already applied).
    private struct Start: StrategyVisitor {
        let configuration: LiveRunnerConfiguration
        let logger: Logger
        let stop: AsyncStream<String>?

        func visit<S: Strategy>(_ strategy: S) -> @Sendable () async throws -> LiveRunSummary {
            { [configuration, logger, stop] in
                try await LiveRunner.run(strategy: strategy, configuration: configuration, logger: logger, stop: stop)
            }
        }
    }

    /// Runs a strategy until the duration ends or `stop` yields. A lost connection is re-established with capped
    /// exponential backoff (`reconnectDelay` doubling up to `maxReconnectDelay`), then the broker is re-attached and
    /// resynchronized (missed executions, open orders) and the bars resubscribed.
    public static func run<S: Strategy>(
        strategy: S, configuration: LiveRunnerConfiguration, logger: Logger, stop: AsyncStream<String>? = nil
    ) async throws -> LiveRunSummary {
        if let transport = configuration.transport {
            // In process (the simulator's venue): on the caller's executor, a `VirtualLoop` in tests and the sandbox.
            var driver = SessionDriver(
                strategy: strategy, configuration: configuration, venue: .transport(transport), logger: logger)
            return try await driver.run(stop: stop)
        }
        // The driver's tasks and the connection share one event loop as their executor, so the hops between them
        // are same-thread enqueues (`TWSSessionThread`).
        return try await TWSSessionThread.run { thread in
            var driver = SessionDriver(
                strategy: strategy, configuration: configuration, venue: .transport(thread.transport), logger: logger)
            return try await driver.run(stop: stop)
        }
    }

    /// Carries out one manual order or cancel in a ticket session (`SessionTicket`) on a connection the caller opened
    /// and keeps: the session core's start-up, risk check, order desk and journal, with no strategy and no bars.
    /// - Parameters:
    ///   - ticket: the order.
    ///   - settings: the session's settings (its one symbol, the account rule, the orderRef prefix).
    ///   - journal: the order journal (`nil`: the order is not journaled).
    ///   - connection: a ready connection; it stays open.
    ///   - info: its session.
    ///   - clock: the session's clock (the acknowledgement's timeout runs on it).
    /// - Returns: the session's summary: how the order ended (`ticket`), or what the cancel did (`cancel`).
    /// - Throws: `LiveRunnerError`: the account rule, an unknown or ambiguous contract, a price off the tick, a
    ///   failed request.
    public static func runTicket(
        _ ticket: SessionTicket, settings: SessionSettings, journal: OrderJournal?, on connection: TWSConnection,
        info: TWSSessionInfo, clock: SessionClock, logger: Logger
    ) async throws(LiveRunnerError) -> LiveRunSummary {
        var configuration = LiveRunnerConfiguration(
            connection: await connection.configuration, symbols: settings.symbols, engine: settings.engine)
        configuration.session = settings
        configuration.journal = journal
        configuration.clock = clock
        configuration.ticks = .whenDue
        configuration.stuckLoopTimeout = .zero
        var driver = SessionDriver(
            strategy: TicketStrategy(), configuration: configuration, venue: .connection(connection, info), logger: logger,
            ticket: ticket)
        do { return try await driver.run(stop: nil) } catch let error as LiveRunnerError { throw error } catch {
            throw .startup("\(error)")
        }
    }
}
