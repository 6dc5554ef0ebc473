import Foundation
import LiveSession
import Logging
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// Everything `LiveRunner` needs to know about one run.
public struct LiveRunnerConfiguration: Sendable {
    /// Where TWS / the gateway listens, and the client id.
    public var connection: TWSConnectionConfiguration
    /// The account to trade (default: the login's only account; a login with several needs one named).
    public var account: String?
    /// A live (non-`DU…`) account is traded only when this names it (`--confirm-live` or `--live` + confirmation).
    public var confirmedLiveAccount: String?
    /// The universe, in instrument order.
    public var symbols: [Symbol]
    /// Cash, settlement and risk rules of the engine.
    public var engine: EngineConfig
    /// Warm-up bar size (historicalBars); should match the live 5-second bars.
    public var warmupBarSize: String = "5 secs"
    /// Warm-up duration (historicalBars); empty for none.
    public var warmupDuration: String = "3600 S"
    /// What the bars show (`TRADES`, `MIDPOINT`, …).
    public var whatToShow: String = "TRADES"
    /// Market data type requested after connecting (`nil`: leave TWS's default).
    public var marketDataType: TWSMarketDataType?
    /// Orders may fill outside regular trading hours.
    public var outsideRegularTradingHours = false
    /// Orders may work in IB's overnight session too (`orders.includeOvernight`; server version 189 and later).
    public var includeOvernight = false
    /// At exit, cancel the open orders (`true`) or leave them working at the broker.
    public var cancelOnExit = true
    /// The order-efficiency limit on new entries (`nil`: counted and logged only).
    public var orderEfficiency: OrderEfficiencyLimit?
    /// How long a fill waits for its commission report.
    public var commissionWait: TimeSpan? = .seconds(5)
    /// Interval of the portfolio summary in the log.
    public var summaryInterval: Duration = .seconds(30)
    /// How entries are worked, and the time limit of orders sent without one (`orders.entry`, `orders.timeout`, …;
    /// applied by `run(spec:)` and `StrategyRunner.liveService`).
    public var execution: ExecutionStyle?
    /// The built-in strategy traded, for the session log (`ibtrader replay` rebuilds it); set by `run(spec:)`.
    public var strategyRecord: SessionStrategy?
    /// Bound on the run (`nil`: until stopped).
    public var duration: Duration?
    /// How long, after stop, the broker's answers (fills in flight, cancellations) are still applied to the engine.
    public var stopDrain: Duration = .milliseconds(500)
    /// Reconnect after a lost connection (`false`: stop instead).
    public var reconnect = true
    /// The first reconnect delay; doubles per failed attempt.
    public var reconnectDelay: Duration = .seconds(1)
    /// The longest reconnect delay (attempts go on forever).
    public var maxReconnectDelay: Duration = .seconds(60)
    /// How long the first connection waits for TWS / IB Gateway to answer, retrying with the reconnect backoff
    /// (`nil`: the run ends at the first refusal).
    public var gatewayWait: Duration?
    /// The order journal (`nil`: none; intents are then not durable).
    public var journal: OrderJournal?
    /// orderRef namespace. The default (`IBT:`) means: a run namespace allocated at start — `IBT:R<run>:` with a
    /// journal (`OrderJournal.beginRun`), else `IBT:T<epoch ms>-<pid>:`; any other prefix is used as given.
    public var reference = OrderReference()
    /// At start, which intents journaled but never sent by an earlier run are still sent (else abandoned).
    public var resendPolicy = ResendPolicy()
    /// At start, what to do with orders of ours open at the broker that no journal intent knows.
    public var unknownOrders = UnknownOrderPolicy.adopt
    /// At start, take every position the broker holds in the universe as the bot's (`true`), or only those its
    /// journal shows it opened (`false`): the rest is listed and never traded (`orders.adoptExternalPositions`).
    public var adoptExternalPositions = false
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
    /// Told of milestones (subscribed, reconnected), e.g. for a status display or a test.
    public var observer: (@Sendable (LiveRunnerMilestone) -> Void)?
    /// The operator's line to the run (dashboard, `ibtrader ctl`): status out, controls in.
    public var operatorLink: OperatorLink?
    /// Outage handling: 1100 grace period, IB's reset window, bar back-fill, delayed data (`Connectivity/`).
    public var resilience = ResilienceSettings()
    /// Quotes (reqMktData) beside the bars: `auto` as the strategy asks (`Strategy.usesQuotes`), `on`, `off`.
    public var quotes = QuoteSubscriptionMode.auto
    /// Watch each instrument's trading-halt status (a reqMktData line each, `data.watchHalts`): a halted symbol's
    /// entries are refused and its exits held until it resumes.
    public var watchHalts = false
    /// A what-if preview before each entry, refusing one whose initial margin after it would exceed this
    /// percentage of the equity with loan (`risk.whatIf`); `nil`: none.
    public var whatIfMaxMarginPercent: Double?
    /// The engine's positions against the broker's: how often, and whether a difference pauses entries
    /// (`health.positionCheck`, `health.positionMismatch`; `nil`: never).
    public var positionCheck: PositionCheckSettings? = PositionCheckSettings()
    /// Sectors by symbol for the sector limit (`universe.sectors`; others from their contract details).
    public var sectors: [Symbol: String] = [:]
    /// Told of every engine event the run handles (warm-up bars included), after its commands went to the broker,
    /// with the engine's orders in flight (`OrderManager.inFlightCount`: a resting, acknowledged limit does not count);
    /// for the backtest parity test and the latency benchmark (`nil`: no cost).
    public var engineEventObserver: (@Sendable (EngineEvent, _ ordersInFlight: Int) -> Void)?
    /// Told each latency the runner measures (bar → order, journal writes): `/metrics`' histograms.
    public var latencyObserver: (@Sendable (LatencyKind, _ seconds: Double) -> Void)?
    /// Creates a configuration.
    public init(connection: TWSConnectionConfiguration, symbols: [Symbol], engine: EngineConfig = EngineConfig()) {
        self.connection = connection
        self.symbols = symbols
        self.engine = engine
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
