import TradingModel

/// The stateful half of risk: tracks equity over time and raises the flags the rules read.
///
/// - Daily loss: the first equity seen on a UTC day is that day's start; falling `maxDailyLossPercent` below it
///   blocks entries until the next day.
/// - Drawdown: falling `maxDrawdownPercent` below the running peak halts entries for good.
/// - Rapid loss: falling `rapidLossPercent` below the highest equity within the trailing `rapidLossWindow` halts
///   entries for good. The window maximum is a monotonic queue: amortized O(1) per update, no allocation once
///   the queue has grown.
public struct RiskMonitor: Sendable {
    /// The flags rules read.
    public struct Status: Hashable, Sendable {
        /// Entries blocked until the next day.
        public var dailyLossBreached = false
        /// Entries halted by drawdown.
        public var drawdownHalted = false
        /// Entries halted by a rapid loss.
        public var rapidLossHalted = false
        /// Everything blocked.
        public var killSwitchEngaged = false
        /// Creates a clear status.
        public init() {}
    }

    /// Current flags.
    public private(set) var status = Status()
    /// Highest equity seen.
    public private(set) var peakEquity: Money?
    /// Equity at the start of the current day.
    public private(set) var dayStartEquity: Money?
    private var day: Int64 = .min
    private let config: RiskConfig
    private var window: [(time: Timestamp, equity: Money)] = []
    private var windowHead = 0

    /// Creates a monitor for a configuration.
    public init(config: RiskConfig) { self.config = config }

    /// Engages or releases the kill switch.
    public mutating func setKillSwitch(_ engaged: Bool) { status.killSwitchEngaged = engaged }

    /// Feeds the current equity.
    public mutating func observe(equity: Money, at now: Timestamp) {
        let today = now.dayNumber
        if today != day {
            day = today
            dayStartEquity = equity
            status.dailyLossBreached = false
        }
        if let limit = config.maxDailyLossPercent, let start = dayStartEquity,
            equity.doubleValue < start.doubleValue * (1 - limit / 100)
        {
            status.dailyLossBreached = true
        }
        if peakEquity.map({ equity > $0 }) ?? true { peakEquity = equity }
        if let limit = config.maxDrawdownPercent, let peak = peakEquity,
            equity.doubleValue < peak.doubleValue * (1 - limit / 100)
        {
            status.drawdownHalted = true
        }
        if let limit = config.rapidLossPercent, let span = config.rapidLossWindow {
            observeRapid(equity: equity, at: now, limit: limit, span: span)
        }
    }

    private mutating func observeRapid(equity: Money, at now: Timestamp, limit: Double, span: TimeSpan) {
        while window.count > windowHead, window[window.count - 1].equity <= equity { window.removeLast() }
        window.append((now, equity))
        while windowHead < window.count, window[windowHead].time < now - span { windowHead += 1 }
        if windowHead > 1024, windowHead * 2 > window.count {
            window.removeFirst(windowHead)
            windowHead = 0
        }
        let high = window[windowHead].equity
        if equity.doubleValue < high.doubleValue * (1 - limit / 100) { status.rapidLossHalted = true }
    }
}
