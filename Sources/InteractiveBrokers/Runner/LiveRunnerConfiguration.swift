import Foundation
import LiveSession
import Logging
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// Everything `LiveRunner` needs to know about one run: what its core decides with (`session`), and the driver's own
/// half (where TWS listens, the journal file, the clock, observers, the crash hook).
public struct LiveRunnerConfiguration: Sendable {
    /// Where TWS / the gateway listens, and the client id.
    public var connection: TWSConnectionConfiguration
    /// What the session core decides with: the universe, the engine, the account, orders, reconnects, outage
    /// handling, quotes, checks. Recorded at the head of the session log, so `ibtrader replay` decides alike. The run
    /// fills in the strategy's name, the process and whether it keeps a journal when it starts.
    public var session: SessionSettings
    /// How entries are worked, and the time limit of orders sent without one (`orders.entry`, `orders.timeout`, …;
    /// applied by `run(spec:)` and `StrategyRunner.liveService`).
    public var execution: ExecutionStyle?
    /// The built-in strategy traded, for the session log (`ibtrader replay` rebuilds it); set by `run(spec:)`.
    public var strategyRecord: SessionStrategy?
    /// Bound on the run (`nil`: until stopped).
    public var duration: Duration?
    /// The order journal (`nil`: none; intents are then not durable).
    public var journal: OrderJournal?
    /// A bar store the warm-up and back-fill read first (`data.store`): IB is asked only for the bars after its last,
    /// and those are added to it (`StoredHistory`).
    public var barStore: BarStore?
    /// The session's one clock (`SessionClock.wall`; a `VirtualLoop`'s for tests and `ibtrader sandbox`).
    public var clock = SessionClock.wall
    /// When the session ticks: every second of its clock (live), or only when the core has work (virtual time, where
    /// a simulated night of idle seconds would otherwise be 57,600 ticks).
    public var ticks = TickCadence.everySecond
    /// How the session reaches the gateway: `nil` is TCP, on a session thread of its own (`TWSSessionThread`); a
    /// transport given here (the simulator's `inProcessTransport`) runs the session on the caller's executor.
    public var transport: (any TWSTransport)?
    /// Test only: where the process exits abruptly (`IBTRADER_CRASH_AT`, see `CrashPoint`).
    public var crashPoint: CrashPoint?
    /// Test only: asked after each input once its actions are carried out; a reason stops the run there, before any
    /// later input, as a stop request would (`.stop(reason)`). How a test stops a run at a chosen point of its input
    /// sequence, e.g. between an order's fill and its protective stop.
    public var stopAfter: (@Sendable (SessionInput, [SessionAction]) -> String?)?
    /// Told of milestones (subscribed, reconnected), e.g. for a status display or a test.
    public var observer: (@Sendable (LiveRunnerMilestone) -> Void)?
    /// Told of connectivity milestones (pause, resume, resynchronization, back-fill, a stuck loop), e.g. for a test.
    public var connectivityObserver: (@Sendable (ConnectivityMilestone) -> Void)?
    /// The operator's line to the run (dashboard, `ibtrader ctl`): status out, controls in.
    public var operatorLink: OperatorLink?
    /// The event-loop watchdog (`health.stuckLoopTimeout`): no input taken for this long logs a critical ALERT
    /// (`StuckLoopDetector`, `LoopWatchdog`, a thread watching in wall time); `.zero` turns it off.
    public var stuckLoopTimeout: Duration = .seconds(30)
    /// Told of every engine event the run handles (warm-up bars included), after its commands went to the broker,
    /// with the engine's orders in flight (`OrderManager.inFlightCount`: a resting, acknowledged limit does not count);
    /// for the backtest parity test and the latency benchmark (`nil`: no cost).
    public var engineEventObserver: (@Sendable (EngineEvent, _ ordersInFlight: Int) -> Void)?
    /// Told each latency the runner measures (bar → order, journal writes): `/metrics`' histograms.
    public var latencyObserver: (@Sendable (LatencyKind, _ seconds: Double) -> Void)?

    /// Creates a configuration with the session's defaults for a run.
    public init(connection: TWSConnectionConfiguration, symbols: [Symbol], engine: EngineConfig = EngineConfig()) {
        self.connection = connection
        session = SessionSettings(symbols: symbols, engine: engine, strategyName: "")
        // A run's own defaults where a session log from before these settings decodes `nil` as the old behaviour.
        session.adoptExternalPositions = false
        session.watchHalts = false
    }
}

/// When a session's clock ticks (`LiveRunnerConfiguration.ticks`).
public enum TickCadence: Sendable, Equatable {
    /// Every second, whatever happens: the wall clock's cadence, live and in paper trading.
    case everySecond
    /// When the core has work (`LiveSessionCore.nextTickDue(after:)`) and a second after every other input, as the
    /// wall clock's tick would come: the same decisions in a fraction of the ticks, for virtual time.
    case whenDue
}
