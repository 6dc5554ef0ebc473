import TradingModel

/// Every setting of every command, in one schema: `run`, `backtest`, `optimize`, `walkforward` and the manual tools
/// read the same file format (a command ignores the sections it does not use), the same environment overrides and
/// the same flags. Load it with `ConfigLoader.load(_:)`.
public struct TraderConfiguration: Sendable {
    /// `strategy:`.
    public var strategy: StrategySettings
    /// `universe:`.
    public var universe = UniverseSettings()
    /// `risk:`.
    public var risk = RiskSettings()
    /// `account:`.
    public var account = AccountSettings()
    /// `backtest:`.
    public var backtest = BacktestSettings()
    /// `sweep:`.
    public var sweep = SweepSettings()
    /// `walkforward:`.
    public var walkforward = WalkforwardSettings()
    /// `connection:`.
    public var connection = ConnectionSettings()
    /// `health:`.
    public var health = HealthSettings()
    /// `orders:`.
    public var orders = OrderSettings()
    /// `data:`.
    public var data = MarketDataSettings()
    /// `journal:`.
    public var journal = JournalSettings()
    /// `logging:`.
    public var logging = LoggingSettings()
    /// `dashboard:`.
    public var dashboard = DashboardConfig()
    /// `alerts:`.
    public var alerts = AlertSettings()

    /// The defaults, with the strategies of `catalog`.
    public init(catalog: StrategyCatalog = .builtIn) {
        strategy = StrategySettings(catalog: catalog)
    }

    /// The top-level sections.
    public static func schema(catalog: StrategyCatalog) -> ConfigSection<TraderConfiguration> {
        ConfigSection(
            [
                StrategySettings.field(catalog: catalog),
                .section(
                    "universe", \.universe, UniverseSettings.schema, summary: "The symbols traded."),
                .section(
                    "risk", \.risk, RiskSettings.schema,
                    summary: "Pre-trade limits of the engine (each off unless set) and leverage."),
                .section(
                    "account", \.account, AccountSettings.schema,
                    summary: "The IB account kind (cash or margin) and the cash sizing leaves: buying power at the fill."),
                .section(
                    "backtest", \.backtest, BacktestSettings.schema,
                    summary: "Data and costs of backtest, optimize and walkforward."),
                .section("sweep", \.sweep, SweepSettings.schema, summary: "The parameter sweep of optimize and walkforward."),
                .section("walkforward", \.walkforward, WalkforwardSettings.schema, summary: "Walk-forward windows."),
                .section(
                    "connection", \.connection, ConnectionSettings.schema,
                    summary: "run and the manual tools: where TWS / IB Gateway listens, and outages."),
                .section("health", \.health, HealthSettings.schema, summary: "run: the event loop's watchdog."),
                .section("orders", \.orders, OrderSettings.schema, summary: "How entries are sent (backtests and runs); run: time limits, exit and restart."),
                .section(
                    "data", \.data, MarketDataSettings.schema,
                    summary: "run: the warm-up history, the data type and outage back-fill."),
                JournalSettings.field,
                .section("logging", \.logging, LoggingSettings.schema, summary: "run: the log."),
                .section(
                    "dashboard", \.dashboard, DashboardConfig.schema,
                    summary: "run: the web dashboard, Prometheus metrics, the health endpoint and the controls."),
                .section(
                    "alerts", \.alerts, AlertSettings.schema,
                    summary: "run: alerts to a webhook, Telegram or SMS, coalesced per kind."),
            ],
            validate: { (configuration, record, _) throws(ConfigError) in
                try configuration.strategy.choice.check(configuration.risk) { record.origins[$0] }
                if configuration.account.isCash, configuration.risk.allowLeverage {
                    throw ConfigError(
                        "a cash account cannot borrow: leverage needs account.type: margin", key: "risk.allowLeverage",
                        at: record.origins["risk.allowLeverage"] ?? record.origins["account.type"])
                }
            })
    }

    /// The sections, in order.
    public static let sections = [
        "strategy", "universe", "risk", "account", "backtest", "sweep", "walkforward", "connection", "health", "orders", "data",
        "journal", "logging", "dashboard", "alerts",
    ]

    /// The currency pairs a run subscribes to for their rates alone: for each currency the universe's instruments are
    /// priced in other than the account's (`strategy.currency`) and no pair of the universe converts, the pair of the
    /// two as IDEALPRO lists it (`EUR.USD` for an account in euros trading ES). Never traded.
    public var ratePairs: [Symbol] {
        let universe = Universe(symbols: universe.symbols.map { Symbol($0) })
        return CurrencyConversion(universe: universe, accountCurrency: strategy.currency).missingPairs.map { Symbol($0.description) }
    }

    /// What `run` needs beyond a well-formed file: at least one symbol.
    /// - Parameter record: where values came from, for the error.
    public func checkRunnable(record: ConfigRecord) throws(ConfigError) {
        guard !universe.symbols.isEmpty else {
            throw ConfigError(
                "run needs at least one symbol (universe: {symbols: [AAPL, MSFT]})", key: "universe.symbols",
                at: record.origins["universe.symbols"])
        }
    }
}
