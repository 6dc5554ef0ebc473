import Simulation
import TradingEngine
import TradingModel

/// Everything a backtest needs besides data and strategy. `Codable` with defaults.
public struct BacktestConfig: Hashable, Sendable, Codable {
    /// Cash, settlement, risk.
    public var engine: EngineConfig
    /// Fill rules and costs.
    public var simulation: SimulationConfig
    /// Record one equity point per timestamp (on by default; off saves memory on huge runs).
    public var recordsEquityCurve: Bool
    /// Bars before this time only warm up (the kill switch is engaged, so every order is denied), as in the live
    /// bot's warm-up on historical bars; `nil`: trade from the first bar.
    public var tradingStart: Timestamp?
    /// Continuous futures' histories moved as the bot moved them at its rolls (the drift report's backtest runs over
    /// the bars the bot saw, each month's as traded): before the first time step after each one's `after`, the
    /// strategy re-warms on the bars so far with that rebase (and every earlier one) applied.
    public var historyRebases: [HistoryRebase] = []
    /// Each continuous future's contract months as its series was spliced (a month from its first bar on), which the
    /// backtest rolls by; a continuous future without any rolls by the days rule (`EngineConfig.futuresRollDays`).
    public var futuresMonths: [FuturesMonthStart] = []

    /// Creates a configuration; the defaults reproduce the peers' reference semantics (next-open market fills,
    /// no costs, 100,000 cash).
    public init(
        engine: EngineConfig = EngineConfig(), simulation: SimulationConfig = SimulationConfig(),
        recordsEquityCurve: Bool = true
    ) {
        self.engine = engine
        self.simulation = simulation
        self.recordsEquityCurve = recordsEquityCurve
    }
}

/// A continuous future's contract month from a bar on (`BacktestConfig.futuresMonths`).
public struct FuturesMonthStart: Hashable, Sendable, Codable {
    public var instrument: InstrumentID
    public var time: Timestamp
    public var year: Int
    public var month: Int

    public init(instrument: InstrumentID, time: Timestamp, month: ContractMonth) {
        self.instrument = instrument
        self.time = time
        self.year = month.year
        self.month = month.month
    }

    public var contractMonth: ContractMonth? { ContractMonth(year: year, month: month) }

    /// The month of each of a splice's bars where it changes (the first bar's too).
    public static func of(_ spliced: ContinuousFuture, instrument: InstrumentID) -> [FuturesMonthStart] {
        spliced.months.indices.compactMap { k in
            k > 0 && spliced.months[k] == spliced.months[k - 1]
                ? nil : FuturesMonthStart(instrument: instrument, time: spliced.bars[k].timestamp, month: spliced.months[k])
        }
    }
}

/// One point of the equity curve (after all bars of a timestamp).
public struct EquityPoint: Hashable, Sendable, Codable {
    /// Creates a point.
    @inlinable
    public init(time: Timestamp, equity: Money, cash: Money, grossExposure: Money, drawdown: Double) {
        self.time = time
        self.equity = equity
        self.cash = cash
        self.grossExposure = grossExposure
        self.drawdown = drawdown
    }
    /// Time.
    public var time: Timestamp
    /// Cash + marked positions.
    public var equity: Money
    /// Cash.
    public var cash: Money
    /// Σ |position value|.
    public var grossExposure: Money
    /// Fraction below the running peak (0 = at the peak, 0.1 = 10 % down).
    public var drawdown: Double
}

extension BacktestConfig {
    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        engine = try c.decode(.engine, default: d.engine)
        simulation = try c.decode(.simulation, default: d.simulation)
        recordsEquityCurve = try c.decode(.recordsEquityCurve, default: d.recordsEquityCurve)
        tradingStart = try c.decodeOptional(.tradingStart, default: d.tradingStart)
        historyRebases = try c.decode(.historyRebases, default: d.historyRebases)
        futuresMonths = try c.decode(.futuresMonths, default: d.futuresMonths)
    }
}
