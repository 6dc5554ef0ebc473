import TWSProtocol
import TradingEngine
import TradingModel

/// What the session core knows of its run: plain values, so the core can be re-run offline (`ibtrader replay`).
///
/// A run's configuration holds these as they are (`LiveRunnerConfiguration.session`) beside the driver's own half
/// (where TWS listens, the journal file, the clock, observers, the crash hook); the run fills in `strategyName`,
/// `processID` and `journaled` when it starts.
public struct SessionSettings: Sendable, Equatable, Codable {
    /// The universe, in instrument order.
    public var symbols: [Symbol]
    /// Cash, settlement and risk rules of the engine.
    public var engine: EngineConfig
    /// The account to trade (default: the login's only account; a login with several needs one named).
    public var account: String?
    /// A live (non-`DU…`) account is traded only when this names it.
    public var confirmedLiveAccount: String?
    /// Warm-up (and back-fill) bar size and duration; empty duration: no warm-up.
    public var warmupBarSize = "5 secs"
    public var warmupDuration = "3600 S"
    /// What the bars show (`TRADES`, `MIDPOINT`, …); a currency pair's show `MIDPOINT` for `TRADES`
    /// (`whatToShow(for:)`).
    public var whatToShow = "TRADES"
    /// Market data type requested after connecting (`nil`: TWS's default).
    public var marketDataType: TWSMarketDataType?
    /// Orders may fill outside regular trading hours.
    public var outsideRegularTradingHours = false
    /// Orders may work in IB's overnight session too (`orders.includeOvernight`; server version 189 and later).
    public var includeOvernight = false
    /// At exit, cancel the open orders (`true`) or leave them working at the broker. The protection of held positions
    /// stays either way.
    public var cancelOnExit = true
    /// At exit, cancel every order and close every position at market (`orders.flattenOnExit`), instead of leaving the
    /// positions at the broker with their protection. `nil` (a session log from before the setting): `false`.
    public var flattenOnExit: Bool?
    /// The order-efficiency limit on new entries (`nil`: counted and logged only).
    public var orderEfficiency: OrderEfficiencyLimit?
    /// How long a fill waits for its commission report.
    public var commissionWait: TimeSpan? = .seconds(5)
    /// Interval of the portfolio summary and of the execution sync.
    public var summaryInterval: TimeSpan = .seconds(30)
    /// How often the summary is logged, when less often than `summaryInterval` (the sandbox: an hour of the bot's
    /// time, not 30 s of it, which printed 5,760 lines in a two-day run). `nil`: every summary. Optional so session
    /// logs written before it still decode.
    public var summaryLogInterval: TimeSpan?

    /// The time between two logged summaries: `summaryLogInterval`, never more often than a summary runs.
    var summaryLogEvery: TimeSpan { max(summaryInterval, summaryLogInterval ?? .zero) }
    /// How long, after stop, the broker's answers are still applied to the engine.
    public var stopDrain: TimeSpan = .milliseconds(500)
    /// The longest a stop waits for the broker (its re-reads and final snapshot) before it finishes without them, so
    /// a gateway that stopped answering cannot hold a SIGTERM past systemd's or Docker's stop timeout (45 s there).
    /// A second stop request cuts it to 5 s. Optional so session logs written before it still decode (`nil`: no bound).
    public var stopLimit: TimeSpan? = .seconds(30)
    /// Reconnect after a lost connection (`false`: stop instead).
    public var reconnect = true
    /// The first reconnect delay; doubles per failed attempt up to `maxReconnectDelay`.
    public var reconnectDelay: TimeSpan = .seconds(1)
    public var maxReconnectDelay: TimeSpan = .seconds(60)
    /// How long the first connection waits for TWS / IB Gateway to come up, retrying with the reconnect backoff
    /// (`nil`: the run ends at the first refusal). Optional so session logs written before it still decode.
    public var gatewayWait: TimeSpan?
    /// Whether the run keeps an order journal (intents are then durable before they are sent).
    public var journaled = false
    /// orderRef namespace (`IBT:` means: allocate the run's namespace at start).
    public var reference = OrderReference()
    /// Which journaled but unsent intents of an earlier run are sent at start.
    public var resendPolicy = ResendPolicy()
    /// Orders of ours open at the broker that no journal intent knows.
    public var unknownOrders = UnknownOrderPolicy.adopt
    /// At start, take every position the broker holds in the universe as the bot's (`true`), or only the bot's own
    /// as its journal shows (`false`, `orders.adoptExternalPositions`; the rest is listed and never traded). `nil`
    /// (a session log from before) adopted everything.
    public var adoptExternalPositions: Bool?
    /// Outage handling (grace period, reset window, back-fill, heartbeat, quote retries).
    public var resilience = SessionResilience()
    /// Quotes (reqMktData) beside the bars.
    public var quotes = QuoteSubscriptionMode.auto
    /// Watch each instrument's trading-halt status (a reqMktData line per instrument, `data.watchHalts`): while
    /// halted, its new entries are refused and its exits held. `nil` (a session log from before) is off.
    public var watchHalts: Bool?
    /// Ask TWS for a what-if preview before each entry and deny one whose initial margin after it would exceed
    /// this percentage of the equity with loan (`risk.whatIf`, `risk.whatIfMaxMarginPercent`); `nil`: no preview.
    public var whatIfMaxMarginPercent: Double?
    /// The check of the engine's positions against the broker's (`nil`: never; a session log of a run before the
    /// check existed decodes as `nil`, as that run did).
    public var positionCheck: PositionCheckSettings? = PositionCheckSettings()
    /// Sectors by symbol for the sector limit (`universe.sectors`); a symbol without one takes its contract details'
    /// industry, or is its own bucket (`nil`: none given).
    public var sectors: [Symbol: String]?
    /// The strategy's name in the run key (`RunKey.strategyName` of its type, without a timeout wrapper).
    public var strategyName: String
    /// This process (the namespace of a run without a journal).
    public var processID: Int32 = 0

    /// Creates settings.
    public init(symbols: [Symbol], engine: EngineConfig = EngineConfig(), strategyName: String) {
        self.symbols = symbols
        self.engine = engine
        self.strategyName = strategyName
    }

    /// Whether the stop flattens (`flattenOnExit`).
    public var flattensOnExit: Bool { flattenOnExit ?? false }

    /// Whether every broker position in the universe is taken as the bot's (a log from before the setting did).
    public var adoptsExternalPositions: Bool { adoptExternalPositions ?? true }

    /// The run configuration's key for cash checkpoints and risk baselines.
    public var runKey: RunKey {
        RunKey(strategy: strategyName, symbols: symbols, capital: engine.initialCash)
    }
}

/// The outage settings the core decides with (`LiveRunnerConfiguration.session.resilience`).
public struct SessionResilience: Sendable, Equatable, Codable {
    /// How long a 1100 interruption may last before new entries are paused.
    public var gracePeriod: TimeSpan = .seconds(30)
    /// IB's nightly / weekly reset window (quiet logs inside it).
    public var resetSchedule: ResetSchedule? = .northAmerica
    /// Back-fill bars missed during an outage.
    public var backfill = true
    /// The longest gap back-filled in full (a longer one re-warms on the warm-up span).
    public var maxBackfill: TimeSpan = .hours(6)
    /// A symbol with no bar for this long in regular hours has a dead feed (`FeedWatch`; `.zero`: off).
    public var deadFeedAfter: TimeSpan = .seconds(120)
    /// Quotes refused for lack of live permission fall back to delayed data.
    public var delayedFallback = true
    /// The health probe after silence.
    public var heartbeat = Heartbeat()
    /// Retries of a failed quote feed.
    public var quoteRetry = RetryBackoff(first: .seconds(1), maximum: .seconds(300), alertAfter: 3)

    /// Creates the defaults.
    public init() {}
}

/// When the engine's positions are compared with the broker's, and what a difference does (`health.positionCheck`,
/// `health.positionMismatch`).
public struct PositionCheckSettings: Sendable, Equatable, Codable {
    /// How often while running (`nil`: only after a reconnect).
    public var interval: TimeSpan? = .minutes(5)
    /// A difference is checked again after this long and raised only if it is still there: an execution report and
    /// the broker's position can cross on the wire.
    public var confirmAfter: TimeSpan = .seconds(15)
    /// A confirmed difference pauses new orders until the positions agree again (else it is an ALERT only).
    public var pausesEntries = true

    /// Every 5 minutes, confirmed after 15 s, pausing entries.
    public init(interval: TimeSpan? = .minutes(5), confirmAfter: TimeSpan = .seconds(15), pausesEntries: Bool = true) {
        self.interval = interval
        self.confirmAfter = confirmAfter
        self.pausesEntries = pausesEntries
    }
}

extension SessionSettings {
    /// What one contract's bars show: `whatToShow`, except that a currency pair (`CASH`) has no trades at IB (it
    /// answers TRADES with error 162), so its bars are the `MIDPOINT` of its quotes.
    public func whatToShow(for contract: TWSContract) -> String {
        Self.whatToShow(whatToShow, for: contract)
    }

    /// `whatToShow(for:)` for a subscription's setting.
    public static func whatToShow(_ setting: String, for contract: TWSContract) -> String {
        let asked = setting.uppercased()
        guard contract.securityType.uppercased() == "CASH", asked == "TRADES" || asked == "ADJUSTED_LAST" else {
            return setting
        }
        return "MIDPOINT"
    }
}
