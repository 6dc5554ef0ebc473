import TradingModel

/// The order-efficiency limit: IBKR watches (submitted + modified + cancelled orders) / executed orders per day and
/// restricts accounts whose ratio stays high. The guard stops new entries before that happens.
public struct OrderEfficiencyLimit: Sendable, Hashable, Codable {
    /// The largest ratio allowed (IBKR's guideline is 20).
    public var maxRatio: Double
    /// The ratio applies only once this many order actions (submits + modifies + cancels) were made today; IBKR
    /// does not judge an account on a handful of orders.
    public var minimumOrders: Int

    /// Creates a limit.
    /// - Parameters:
    ///   - maxRatio: the largest (submitted + modified + cancelled) / executed ratio, e.g. 20.
    ///   - minimumOrders: order actions per day before the ratio applies (default 20).
    public init(maxRatio: Double, minimumOrders: Int = 20) {
        self.maxRatio = maxRatio
        self.minimumOrders = minimumOrders
    }
}

/// Counts a day's order actions and executed orders, and says whether a new entry would be denied.
///
/// Pure: time comes in as a parameter (the broker's clock); the day is the UTC day. Cancels, modifies and exits are
/// never denied (they reduce risk); they still count, as they do at IBKR.
///
/// ```swift
/// var efficiency = OrderEfficiencyGuard(limit: OrderEfficiencyLimit(maxRatio: 20))
/// efficiency.recordSubmitted(1, at: now)
/// if let denial = efficiency.denial(forEntryOf: 1, at: now) { print(denial) }
/// ```
public struct OrderEfficiencyGuard: Sendable, Hashable {
    /// The limit (`nil`: counts are kept, nothing is denied).
    public var limit: OrderEfficiencyLimit?
    /// The UTC day the counts belong to.
    public private(set) var day: Int64 = .min
    /// Orders submitted today (a bracket counts as its orders).
    public private(set) var submitted = 0
    /// Modifications sent today.
    public private(set) var modified = 0
    /// Cancels sent today.
    public private(set) var cancelled = 0
    /// Orders with at least one execution today (an order counts once, however many partial fills).
    public private(set) var executed = 0
    private var executedOrders: Set<OrderID> = []

    /// Creates a guard.
    public init(limit: OrderEfficiencyLimit?) { self.limit = limit }

    /// Submits + modifies + cancels today.
    public var orderActions: Int { submitted + modified + cancelled }

    /// (submitted + modified + cancelled) / executed; `nil` with no executed order (infinite, or no actions).
    public var ratio: Double? { executed == 0 ? nil : Double(orderActions) / Double(executed) }

    /// Records submitted orders.
    public mutating func recordSubmitted(_ count: Int, at now: Timestamp) {
        roll(to: now)
        submitted += count
    }

    /// Records a modification.
    public mutating func recordModified(at now: Timestamp) {
        roll(to: now)
        modified += 1
    }

    /// Records a cancel request.
    public mutating func recordCancelled(at now: Timestamp) {
        roll(to: now)
        cancelled += 1
    }

    /// Records an execution of an order; only its first execution of the day counts.
    public mutating func recordExecution(of order: OrderID, at now: Timestamp) {
        roll(to: now)
        if executedOrders.insert(order).inserted { executed += 1 }
    }

    /// Sets a day's counts (after a restart, from the journal: `OrderEfficiencyRestore`). Orders that execute again
    /// today count once more (their first executions are known only as a number), erring on the lenient side by
    /// at most the orders adopted at the restart.
    public mutating func restore(day: Int64, submitted: Int, modified: Int, cancelled: Int, executed: Int) {
        self.day = day
        self.submitted = max(0, submitted)
        self.modified = max(0, modified)
        self.cancelled = max(0, cancelled)
        self.executed = max(0, executed)
        executedOrders = []
    }

    /// Why a new entry of `orders` orders would be denied now, or `nil` to allow it. The ratio is judged as it
    /// would be after the submission, so the limit is never crossed by the order it lets through.
    /// - Parameters:
    ///   - orders: how many orders the entry sends (3 for a bracket).
    ///   - now: the broker's time.
    public func denial(forEntryOf orders: Int = 1, at now: Timestamp) -> String? {
        guard let limit else { return nil }
        let today = now.dayNumber == day
        let actions = (today ? orderActions : 0) + orders
        let fills = today ? executed : 0
        guard actions >= limit.minimumOrders else { return nil }
        let after = fills == 0 ? Double.infinity : Double(actions) / Double(fills)
        guard after > limit.maxRatio else { return nil }
        let shown = fills == 0 ? "∞ (no executed order today)" : String(format: "%.1f", after)
        return "order-efficiency ratio \(shown) would exceed \(limit.maxRatio) "
            + "(\(actions) submits+modifies+cancels / \(fills) executed orders today); new entries blocked, "
            + "cancels and exits allowed"
    }

    /// One line for the periodic summary.
    public var summary: String {
        let shown = ratio.map { String(format: "%.1f", $0) } ?? (orderActions == 0 ? "–" : "∞")
        let cap = limit.map { " (limit \($0.maxRatio) after \($0.minimumOrders) actions)" } ?? " (no limit)"
        return "order efficiency today: \(submitted) submitted, \(modified) modified, \(cancelled) cancelled, "
            + "\(executed) executed, ratio \(shown)\(cap)"
    }

    private mutating func roll(to now: Timestamp) {
        let today = now.dayNumber
        guard today != day else { return }
        day = today
        submitted = 0
        modified = 0
        cancelled = 0
        executed = 0
        executedOrders = []
    }
}
