import TradingModel

/// Decides which time steps (`.barsClosed`) are rebalancing ones under a `RebalanceSchedule`.
///
/// - `everyBars(n)`: the n-th, 2n-th, … time step.
/// - `daily` / `weekly` / `monthly`: the first time step of each UTC day, week (from Monday) or month, except the
///   very first step of the run (there is no earlier period to leave).
struct RebalanceClock: Sendable {
    private var steps = 0
    private var lastPeriod: Int64?

    /// Counts one time step and says whether it is a rebalancing one.
    mutating func isDue(at time: Timestamp, schedule: RebalanceSchedule) -> Bool {
        steps += 1
        let period: Int64
        switch schedule {
        case let .everyBars(n):
            return n > 0 && steps % n == 0
        case .daily:
            period = time.dayNumber
        case .weekly:
            period = (time.dayNumber + 3) / 7
        case .monthly:
            let date = time.civilDate
            period = Int64(date.year * 12 + date.month)
        }
        defer { lastPeriod = period }
        return lastPeriod.map { $0 != period } ?? false
    }
}
