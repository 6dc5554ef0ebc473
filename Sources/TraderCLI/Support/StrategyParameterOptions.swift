import ArgumentParser
import TradingEngine
import TradingModel

/// Strategy and risk parameters as command-line options; each applies only where it means something.
struct StrategyParameterOptions: ParsableArguments {
    @Option(name: .long, help: "sma/ema-cross: fast period (default 10).")
    var fast: Int?
    @Option(name: .long, help: "sma/ema-cross: slow period (default 30).")
    var slow: Int?
    @Flag(name: .long, help: "sma/ema-cross, rsi, bollinger: allow short positions.")
    var short: Bool = false
    @Option(name: .long, help: "rsi, bollinger: indicator period.")
    var period: Int?
    @Option(name: .long, help: "rsi: oversold level (default 30).")
    var oversold: Double?
    @Option(name: .long, help: "rsi: overbought level (default 70).")
    var overbought: Double?
    @Option(name: .customLong("entry-sd"), help: "bollinger: entry distance in standard deviations.")
    var entryDeviations: Double?
    @Option(name: .customLong("exit-sd"), help: "bollinger: exit distance in standard deviations.")
    var exitDeviations: Double?
    @Option(name: .customLong("atr-stop"), help: "Protective stop this many ATR(14)s away (sma/ema/rsi/bollinger).")
    var atrStop: Double?
    @Option(name: .long, help: "momentum: lookback in bars (default 60).")
    var lookback: Int?
    @Option(name: .long, help: "momentum: number of holdings (default 10).")
    var top: Int?
    @Option(name: .long, help: "momentum: daily | weekly | monthly | N (every N bars). Default monthly.")
    var rebalance: String?
    @Option(name: .long, help: "momentum: roc | vol-adjusted | profit-volume.")
    var ranking: String?
    @Option(name: .long, help: "momentum: equal | inverse-vol.")
    var weighting: String?
    @Option(name: .customLong("min-momentum"), help: "momentum: minimum score to hold (percent ROC).")
    var minimumMomentum: Double?
    @Option(name: .customLong("stop-loss"), help: "momentum: per-position stop-loss in percent.")
    var stopLoss: Double?
    @Option(name: .customLong("take-profit"), help: "momentum: per-position take-profit in percent.")
    var takeProfit: Double?
    @Option(name: .long, help: "performance allocator: W, bars of shadow return and dollar volume (default 60).")
    var window: Int?
    @Option(name: .long, help: "performance allocator: daily | weekly | monthly | N (every N bars). Default 20.")
    var reallocate: String?
    @Option(name: .customLong("max-weight"), help: "performance allocator: largest weight of one symbol, 0-1 (default 0.3).")
    var maxWeight: Double?
    @Option(name: .long, help: "performance allocator: fraction of the way to the target per reallocation, 0-1 (default 0.5).")
    var step: Double?
    @Option(name: .customLong("min-trade"), help: "momentum, performance allocator: smallest trade, in money (default 0).")
    var minimumTrade: Double?
    @Option(name: .customLong("rank-buffer"), help: "momentum: keep a holding while it ranks within top + this (default 5).")
    var rankBuffer: Int?
    @Option(name: .customLong("min-weight-change"), help: "momentum: smallest resize, fraction of equity (default 0.02).")
    var minimumWeightChange: Double?
    @Option(name: .customLong("sector-limit"), help: "Risk: largest sector exposure, percent of equity.")
    var sectorLimit: Double?
    @Option(name: .customLong("max-positions"), help: "Risk: most positions at once.")
    var maxPositions: Int?
    @Option(name: .customLong("max-drawdown"), help: "Risk: halt entries past this drawdown, percent.")
    var maxDrawdown: Double?
    @Option(name: .customLong("max-daily-loss"), help: "Risk: no new entries today past this loss, percent.")
    var maxDailyLoss: Double?

    func applyRisk(to risk: inout RiskConfig) {
        if let sectorLimit { risk.maxSectorPercentOfEquity = sectorLimit }
        if let maxPositions { risk.maxActivePositions = maxPositions }
        if let maxDrawdown { risk.maxDrawdownPercent = maxDrawdown }
        if let maxDailyLoss { risk.maxDailyLossPercent = maxDailyLoss }
    }

    /// Applies the options that fit the strategy; an option for another strategy is an error (it would be ignored).
    func apply(to spec: inout StrategySpec) throws {
        let atr = atrStop.map { ATRStopConfig(period: 14, stopMultiple: $0) }
        switch spec {
        case .movingAverageCrossover(var config):
            try reject([("--period", period.map(Double.init)), ("--oversold", oversold), ("--overbought", overbought)], for: "sma/ema-cross")
            try rejectMomentum(for: "sma/ema-cross")
            if let fast { config.fastPeriod = fast }
            if let slow { config.slowPeriod = slow }
            if short { config.allowShort = true }
            if let atr { config.atrStops = atr }
            guard config.fastPeriod >= 1, config.slowPeriod > config.fastPeriod else {
                throw CLIError("--fast must be ≥ 1 and --slow greater than --fast (got \(config.fastPeriod)/\(config.slowPeriod))")
            }
            spec = .movingAverageCrossover(config: config)
        case .rsiMeanReversion(var config):
            try reject([("--fast", fast.map(Double.init)), ("--slow", slow.map(Double.init))], for: "rsi")
            try rejectMomentum(for: "rsi")
            if let period { config.period = period }
            if let oversold { config.oversold = oversold }
            if let overbought { config.overbought = overbought }
            if short { config.allowShort = true }
            if let atr { config.atrStops = atr }
            guard config.period >= 2, config.oversold < config.overbought else {
                throw CLIError("rsi needs --period ≥ 2 and --oversold below --overbought")
            }
            spec = .rsiMeanReversion(config: config)
        case .bollingerMeanReversion(var config):
            try reject([("--fast", fast.map(Double.init)), ("--slow", slow.map(Double.init))], for: "bollinger")
            try rejectMomentum(for: "bollinger")
            if let period { config.period = period }
            if let entryDeviations { config.entryDeviations = entryDeviations }
            if let exitDeviations { config.exitDeviations = exitDeviations }
            if short { config.allowShort = true }
            if let atr { config.atrStops = atr }
            guard config.period >= 2, config.entryDeviations > 0 else {
                throw CLIError("bollinger needs --period ≥ 2 and a positive --entry-sd")
            }
            spec = .bollingerMeanReversion(config: config)
        case .momentumRotation(var config):
            try reject([("--fast", fast.map(Double.init)), ("--slow", slow.map(Double.init)), ("--period", period.map(Double.init)),
                        ("--atr-stop", atrStop)], for: "momentum")
            if let lookback { config.lookback = lookback }
            if let top { config.holdings = top }
            if let rebalance { config.rebalance = try Self.schedule(rebalance) }
            if let ranking {
                switch ranking {
                case "roc": config.ranking = .rateOfChange
                case "vol-adjusted": config.ranking = .volatilityAdjusted
                case "profit-volume": config.ranking = .profitVolume
                default: throw CLIError("--ranking must be roc, vol-adjusted or profit-volume, got '\(ranking)'")
                }
            }
            if let weighting {
                switch weighting {
                case "equal": config.weighting = .equal
                case "inverse-vol": config.weighting = .inverseVolatility
                default: throw CLIError("--weighting must be equal or inverse-vol, got '\(weighting)'")
                }
            }
            try reject([("--window", window.map(Double.init)), ("--max-weight", maxWeight), ("--step", step)], for: "momentum")
            if reallocate != nil { throw CLIError("--reallocate applies to the performance allocator only") }
            if let rankBuffer { config.rankBuffer = rankBuffer }
            if let minimumWeightChange { config.minimumWeightChange = minimumWeightChange }
            if let minimumTrade { config.minimumTradeValue = minimumTrade }
            if let minimumMomentum { config.minimumScore = minimumMomentum }
            if let stopLoss { config.stopLossPercent = stopLoss }
            if let takeProfit { config.takeProfitPercent = takeProfit }
            guard config.lookback >= 1, config.holdings >= 1 else { throw CLIError("--lookback and --top must be ≥ 1") }
            guard config.rankBuffer >= 0, config.minimumWeightChange >= 0, config.minimumTradeValue >= 0 else {
                throw CLIError("--rank-buffer, --min-weight-change and --min-trade must not be negative")
            }
            spec = .momentumRotation(config: config)
        case .performanceAllocator(var config):
            try reject([("--lookback", lookback.map(Double.init)), ("--min-momentum", minimumMomentum),
                        ("--stop-loss", stopLoss), ("--take-profit", takeProfit), ("--rank-buffer", rankBuffer.map(Double.init)),
                        ("--min-weight-change", minimumWeightChange)], for: "the performance allocator")
            if rebalance != nil || ranking != nil || weighting != nil {
                throw CLIError("--rebalance, --ranking and --weighting apply to momentum; the allocator has --reallocate")
            }
            if let window { config.window = window }
            if let reallocate { config.reallocation = try Self.schedule(reallocate, option: "--reallocate") }
            if let top { config.topCount = top }
            if let maxWeight { config.maxWeight = maxWeight }
            if let step { config.step = step }
            if let minimumTrade { config.minimumTradeValue = minimumTrade }
            // The base strategy's own options (--fast, --slow, --short, --period, …).
            var baseOptions = self
            (baseOptions.top, baseOptions.window, baseOptions.reallocate) = (nil, nil, nil)
            (baseOptions.maxWeight, baseOptions.step, baseOptions.minimumTrade) = (nil, nil, nil)
            var base = config.base
            try baseOptions.apply(to: &base)
            config.base = base
            if let problem = config.problem { throw CLIError("performance allocator: \(problem)") }
            spec = .performanceAllocator(config: config)
        }
    }

    static func schedule(_ text: String, option: String = "--rebalance") throws -> RebalanceSchedule {
        switch text {
        case "daily": return .daily
        case "weekly": return .weekly
        case "monthly": return .monthly
        default:
            guard let bars = Int(text), bars >= 1 else {
                throw CLIError("\(option) must be daily, weekly, monthly or a number of bars, got '\(text)'")
            }
            return .everyBars(bars)
        }
    }

    private func reject(_ options: [(String, Double?)], for strategy: String) throws {
        if let name = options.first(where: { $0.1 != nil })?.0 {
            throw CLIError("\(name) does not apply to \(strategy)")
        }
    }

    private func rejectMomentum(for strategy: String) throws {
        try reject([("--lookback", lookback.map(Double.init)), ("--top", top.map(Double.init)), ("--stop-loss", stopLoss),
                    ("--take-profit", takeProfit), ("--min-momentum", minimumMomentum),
                    ("--rank-buffer", rankBuffer.map(Double.init)), ("--min-weight-change", minimumWeightChange),
                    ("--min-trade", minimumTrade), ("--window", window.map(Double.init)), ("--max-weight", maxWeight),
                    ("--step", step)], for: strategy)
        if reallocate != nil { throw CLIError("--reallocate applies to the performance allocator only") }
        if rebalance != nil || ranking != nil || weighting != nil {
            throw CLIError("--rebalance, --ranking and --weighting apply to momentum only")
        }
    }
}
