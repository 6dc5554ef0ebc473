import Foundation
import InteractiveBrokers
import Storage
import TWSClient
import TraderConfig
import TradingEngine
import TradingModel
import TWSProtocol
import LiveSession

/// What `ibtrader run` decides on the command line rather than in the config.
public struct LiveRunOptions: Sendable {
    /// Bound on the run (`nil`: until stopped).
    public var duration: Duration?
    /// A live account confirmed by name (`--confirm-live`, or `--live` and the prompt).
    public var confirmedLiveAccount: String?
    /// `--live`: a live account will be confirmed at a prompt.
    public var asksForLiveConfirmation = false
    /// `--no-journal`: the run may go without a journal (with `journal: none` in the config).
    public var allowsNoJournal = false
    /// Where TWS listens when the command starts its own simulator (overrides `connection.host`/`port`).
    public var endpoint: (host: String, port: Int)?
    /// The test-only crash hook (`IBTRADER_CRASH_AT`).
    public var crashPoint: CrashPoint?

    /// No options.
    public init() {}
}

/// The one place the configuration schema is mapped onto `LiveRunnerConfiguration`: `run` and any tool that loads
/// a run config (e.g. a journal replay) go through it, so a change of the runner's shape is adapted here only.
public enum LiveRunSetup {
    /// The runner's configuration for a loaded config, with the journal opened.
    /// - Parameters:
    ///   - loaded: the loaded configuration.
    ///   - options: the command line's part.
    /// - Throws: `ConfigError` when the config cannot run (no symbols, a journal switched off without the flag, a
    ///   live account without a journal), or the journal cannot be opened.
    public static func configuration(
        for loaded: LoadedConfiguration, options: LiveRunOptions
    ) throws(ConfigError) -> LiveRunnerConfiguration {
        try loaded.settings.checkRunnable(record: loaded.record)
        var configuration = runner(loaded.settings, options: options)
        configuration.journal = try journal(loaded, options: options)
        if let path = loaded.settings.data.store {
            do { configuration.barStore = try BarStore(path: path) } catch {
                throw ConfigError("\(error)", key: "data.store", at: loaded.record.origins["data.store"])
            }
        }
        return configuration
    }

    /// The runner's configuration without its journal: what `run` trades with and `replay --config` replays with.
    public static func runner(_ settings: TraderConfiguration, options: LiveRunOptions) -> LiveRunnerConfiguration {
        let spec = settings.strategy.spec
        let connection = settings.connection
        var tws = TWSConnectionConfiguration(
            host: options.endpoint?.host ?? connection.host, port: options.endpoint?.port ?? connection.port,
            clientID: connection.clientId)
        tws.versions = TWSProtocolConstants.minimumServerVersion...connection.maxServerVersion
        tws.errorOverrides = connection.errorOverrides
        tws.readyTimeout = .seconds(20)
        // T+N settlement as in the backtest (`backtest.settlementDays`): the strategy that trades is the one tested.
        var engine = EngineConfig(
            initialCash: Money(approximately: settings.strategy.cash), settlementDays: settings.backtest.settlementDays,
            risk: settings.risk.effectiveLimits(for: spec), futuresRollDays: settings.backtest.futuresRollDays)
        engine.futuresRollByVolume = settings.backtest.futuresRollBy == "volume"
        // Entries leave room for their commission at the schedule the backtest charges (`backtest.commission`), so
        // the bot sizes them as the backtest does.
        engine.commissionReserve = settings.backtest.commissionModel.reserve
        // An account in another currency, or instruments priced in one: converted at the pairs' closes as in the
        // backtest, a pair outside the universe subscribed for its rate alone.
        engine.accountCurrency = settings.strategy.currency
        engine.rateOnlySymbols = settings.ratePairs.map(\.rawValue)
        var configuration = LiveRunnerConfiguration(
            connection: tws, symbols: Self.symbols(settings), engine: engine)
        configuration.duration = options.duration
        configuration.execution = settings.orders.executionStyle
        configuration.stuckLoopTimeout = settings.health.stuckLoopTimeout
        var session = configuration.session
        session.account = connection.account
        session.gatewayWait = connection.waitForGateway == .zero ? nil : TimeSpan(connection.waitForGateway)
        session.confirmedLiveAccount = options.confirmedLiveAccount
        session.warmupBarSize = settings.data.barSize
        session.warmupDuration = HistoricalDuration(settings.data.warmup) == nil ? "" : settings.data.warmup
        session.marketDataType = marketDataType(settings.data.marketDataType)
        session.outsideRegularTradingHours = settings.orders.outsideRth
        session.includeOvernight = settings.orders.includeOvernight
        session.cancelOnExit = settings.orders.cancelOnExit
        session.flattenOnExit = settings.orders.flattenOnExit
        session.orderEfficiency = settings.risk.orderEfficiency.map {
            OrderEfficiencyLimit(maxRatio: $0.maxRatio, minimumOrders: $0.minimumOrders)
        }
        session.summaryInterval = TimeSpan(settings.logging.summaryInterval)
        session.resilience = resilience(settings)
        session.quotes = QuoteSubscriptionMode(rawValue: settings.data.quotes) ?? .auto
        session.watchHalts = settings.data.watchHalts
        session.whatIfMaxMarginPercent = settings.risk.whatIf ? settings.risk.whatIfMaxMarginPercent : nil
        session.resendPolicy = ResendPolicy(maxAge: TimeSpan(nanoseconds: settings.orders.resendMaxAge.nanosecondsValue))
        session.unknownOrders = settings.orders.unknownOrders == "cancel" ? .cancel : .adopt
        session.adoptExternalPositions = settings.orders.adoptExternalPositions
        let sectors = Dictionary(uniqueKeysWithValues: settings.universe.sectors.map { (Symbol($0.key), $0.value) })
        session.sectors = sectors.isEmpty ? nil : sectors
        session.positionCheck = PositionCheckSettings(
            interval: settings.health.positionCheck.map { TimeSpan(nanoseconds: $0.nanosecondsValue) },
            pausesEntries: settings.health.positionMismatch == "pause")
        configuration.session = session
        configuration.crashPoint = options.crashPoint
        return configuration
    }

    /// The universe's symbols, then the volatility gauge (`risk.volatilitySymbol`) when it is not one of them, then
    /// the currency pairs for rates alone (`TraderConfiguration.ratePairs`): their bars are subscribed for the
    /// volatility pause and the conversion; the engine never trades them.
    static func symbols(_ settings: TraderConfiguration) -> [Symbol] {
        var symbols = settings.universe.symbols.map { Symbol($0) }
        if let gauge = settings.risk.limits.volatilitySymbol, !symbols.contains(gauge) { symbols.append(gauge) }
        return symbols + settings.ratePairs
    }

    /// The outage settings of the session (the watchdog's timeout is the runner's: `stuckLoopTimeout`).
    public static func resilience(_ settings: TraderConfiguration) -> SessionResilience {
        var value = SessionResilience()
        let connection = settings.connection
        value.gracePeriod = TimeSpan(nanoseconds: connection.gracePeriod.nanosecondsValue)
        value.heartbeat = Heartbeat(interval: connection.heartbeat, timeout: connection.heartbeatTimeout)
        value.resetSchedule = try? connection.resetSchedule()  // checked when the config was loaded
        value.backfill = settings.data.backfill
        value.maxBackfill = TimeSpan(nanoseconds: settings.data.maxBackfill.nanosecondsValue)
        value.deadFeedAfter = TimeSpan(nanoseconds: settings.data.deadFeedAfter.nanosecondsValue)
        value.delayedFallback = settings.data.delayedFallback
        return value
    }

    /// TWS's market data type (`nil`: leave TWS's default, real-time).
    public static func marketDataType(_ text: String) -> TWSMarketDataType? {
        switch text {
        case "delayed": .delayed
        case "frozen": .frozen
        case "delayed-frozen": .delayedFrozen
        default: nil
        }
    }

    /// Opens the journal, or refuses to run without one unless that was asked for twice (config and flag) and the
    /// account cannot be live.
    static func journal(_ loaded: LoadedConfiguration, options: LiveRunOptions) throws(ConfigError) -> OrderJournal? {
        let settings = loaded.settings.journal
        let origin = loaded.record.origins["journal.path"]
        guard let path = settings.path else {
            guard options.allowsNoJournal else {
                throw ConfigError(
                    "the config says journal: none; running without a journal loses crash safety and restart "
                        + "reconciliation, so it also needs --no-journal", key: "journal", at: origin)
            }
            guard options.confirmedLiveAccount == nil, !options.asksForLiveConfirmation else {
                throw ConfigError("a live account never runs without a journal", key: "journal", at: origin)
            }
            return nil
        }
        guard !options.allowsNoJournal else {
            throw ConfigError(
                "--no-journal, but the config keeps a journal at \(path); write 'journal: none' to run without one",
                key: "journal.path", at: origin)
        }
        // Manual checkpoints: the session driver checkpoints on its 1-second tick, never inside an intent's commit. NORMAL (the default) survives a kill -9 at once and reaches the disk at that
        // checkpoint (docs/live-trading.md, Journal).
        let durability: OrderJournal.Durability = settings.durability == "full" ? .full : .processCrashSafe
        do {
            return try OrderJournal(path: path, durability: durability, checkpoints: .manual)
        } catch {
            throw ConfigError("\(error)", key: "journal.path", at: origin)
        }
    }
}
