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
        /// Why, when it is not the kill switch itself but a pause that works through it (the connection to the broker
        /// down, missed bars being replayed): the denials say so instead of "kill switch engaged".
        public var killSwitchReason: String?
        /// What an order refused under the kill switch is told.
        public var killSwitchDetail: String { killSwitchReason ?? "kill switch engaged" }
        /// New entries blocked by the operator; exits go on.
        public var entriesPaused = false
        /// The maintenance margin exceeds equity: reduce-only until it is met again (`RiskConfig.initialMarginPercent`).
        public var maintenanceMarginBreached = false
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
    private var config: RiskConfig
    private var window: [(time: Timestamp, equity: Money)] = []
    private var windowHead = 0

    /// Creates a monitor for a configuration.
    public init(config: RiskConfig) { self.config = config }

    /// New limits; the day's start, the peak, the window and the halts are kept (a halt is lifted by a reset).
    public mutating func replaceLimits(_ config: RiskConfig) { self.config = config }

    /// Engages or releases the kill switch; `reason` says why when it is a pause rather than the switch itself.
    public mutating func setKillSwitch(_ engaged: Bool, reason: String? = nil) {
        status.killSwitchEngaged = engaged
        status.killSwitchReason = engaged ? reason : nil
    }


    /// Blocks (or allows again) orders that open or add to a position; exits are not affected.
    public mutating func setEntriesPaused(_ paused: Bool) { status.entriesPaused = paused }

    /// Records whether the book's maintenance margin exceeds its equity.
    public mutating func setMaintenanceMarginBreached(_ breached: Bool) { status.maintenanceMarginBreached = breached }

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

    /// What a restart must carry over (`baseline`, `restore(_:equity:at:)`); `nil` before the first observation.
    public var baseline: RiskBaseline? {
        guard let dayStartEquity, let peakEquity, day != .min else { return nil }
        return RiskBaseline(
            day: day, dayStartEquity: dayStartEquity, peakEquity: peakEquity,
            dailyLossBreached: status.dailyLossBreached, drawdownHalted: status.drawdownHalted,
            rapidLossHalted: status.rapidLossHalted)
    }

    /// Replaces what the monitor learnt so far (in a live run: the warm-up's flat, configured-capital equity) with
    /// the baseline of the run before a restart, then observes the restored equity.
    ///
    /// - Same UTC day as `now` (the day rule of `observe`): the day's start equity and the daily-loss flag carry
    ///   over. Another day: the restored equity is the day's start and the daily-loss flag is clear.
    /// - The peak (the higher of the saved one and `equity`) and the drawdown and rapid-loss halts ("for good")
    ///   always carry over.
    /// - `nil` (a fresh start): the day starts at `equity`, which is also the peak; the flags are clear.
    /// The rapid-loss window restarts at `equity` (its trailing maxima are not journaled). The kill switch is not
    /// touched.
    public mutating func restore(_ saved: RiskBaseline?, equity: Money, at now: Timestamp) {
        let today = now.dayNumber
        day = today
        window.removeAll(keepingCapacity: true)
        windowHead = 0
        let killSwitch = (status.killSwitchEngaged, status.killSwitchReason)
        status = Status()
        (status.killSwitchEngaged, status.killSwitchReason) = killSwitch
        if let saved {
            let sameDay = saved.day == today
            dayStartEquity = sameDay ? saved.dayStartEquity : equity
            status.dailyLossBreached = sameDay && saved.dailyLossBreached
            peakEquity = max(saved.peakEquity, equity)
            status.drawdownHalted = saved.drawdownHalted
            status.rapidLossHalted = saved.rapidLossHalted
        } else {
            dayStartEquity = equity
            peakEquity = equity
        }
        observe(equity: equity, at: now)
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

/// The risk monitor's state a restart carries over (journaled by the live runner, `RiskMonitor.restore`).
public struct RiskBaseline: Hashable, Sendable, Codable {
    /// The UTC day (`Timestamp.dayNumber`) `dayStartEquity` belongs to.
    public var day: Int64
    /// The first equity seen that day.
    public var dayStartEquity: Money
    /// The highest equity seen (the drawdown rule's high-water mark).
    public var peakEquity: Money
    /// Entries blocked for the rest of `day`.
    public var dailyLossBreached: Bool
    /// Entries halted by drawdown.
    public var drawdownHalted: Bool
    /// Entries halted by a rapid loss.
    public var rapidLossHalted: Bool

    /// Creates a baseline.
    public init(
        day: Int64, dayStartEquity: Money, peakEquity: Money, dailyLossBreached: Bool = false,
        drawdownHalted: Bool = false, rapidLossHalted: Bool = false
    ) {
        self.day = day
        self.dayStartEquity = dayStartEquity
        self.peakEquity = peakEquity
        self.dailyLossBreached = dailyLossBreached
        self.drawdownHalted = drawdownHalted
        self.rapidLossHalted = rapidLossHalted
    }

    /// Any entry halt set.
    public var isHalted: Bool { dailyLossBreached || drawdownHalted || rapidLossHalted }
}
