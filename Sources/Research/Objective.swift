/// Whether the objective is maximised or minimised.
public enum ObjectiveDirection: String, Hashable, Sendable {
    /// Larger is better (Sharpe, CAGR, …).
    case maximize
    /// Smaller is better (volatility, …).
    case minimize
}

/// A comparison a run must pass to be eligible, e.g. `max_drawdown>-0.25` or `trades>=10`.
public struct MetricConstraint: Hashable, Sendable, CustomStringConvertible {
    /// How the metric is compared with the bound.
    public enum Comparison: String, Hashable, Sendable, CaseIterable {
        case greaterOrEqual = ">=", lessOrEqual = "<=", greater = ">", less = "<", equal = "=="
    }

    /// The metric's key (see `SweepMetrics.names`).
    public var metric: String
    /// The comparison.
    public var comparison: Comparison
    /// The bound.
    public var bound: Double

    /// Creates a constraint.
    public init(metric: String, comparison: Comparison, bound: Double) {
        self.metric = metric
        self.comparison = comparison
        self.bound = bound
    }

    /// Parses `metric OP number` with OP one of `>= <= > < ==`; a trailing `%` divides by 100 (`max_drawdown>-25%`).
    /// - Throws: `ResearchError.invalidObjective` or `.unknownMetric`.
    public init(parsing text: String) throws(ResearchError) {
        for comparison in Comparison.allCases {
            guard let range = text.range(of: comparison.rawValue) else { continue }
            let metric = text[..<range.lowerBound].trimmingSpaces
            var number = text[range.upperBound...].trimmingSpaces
            var scale = 1.0
            if number.hasSuffix("%") {
                number.removeLast()
                scale = 0.01
            }
            guard let bound = Double(number.trimmingSpaces), bound.isFinite else {
                throw .invalidObjective(text, reason: "'\(number)' is not a number")
            }
            guard SweepMetrics.names.contains(metric) else { throw .unknownMetric(metric) }
            self.init(metric: metric, comparison: comparison, bound: bound * scale)
            return
        }
        throw .invalidObjective(text, reason: "expected metric>=value (or >, <, <=, ==)")
    }

    /// Whether a value passes; an undefined metric never does.
    public func accepts(_ value: Double?) -> Bool {
        guard let value else { return false }
        switch comparison {
        case .greaterOrEqual: return value >= bound
        case .lessOrEqual: return value <= bound
        case .greater: return value > bound
        case .less: return value < bound
        case .equal: return value == bound
        }
    }

    /// `max_drawdown>-0.25` (the form files and stores keep; `init(parsing:)` reads it back).
    public var description: String { "\(metric)\(comparison.rawValue)\(ResultFormat.number(bound))" }

    /// As a person reads it: `max_drawdown>-25%` when `metric` is one of `percentMetrics` (the ones reports give in
    /// percent), else `description`. `init(parsing:)` reads this form too.
    public func description(percentMetrics: Set<String>) -> String {
        guard percentMetrics.contains(metric) else { return description }
        // 7 % is kept as 0.07000000000000001: shown as typed, to a billionth of a percent.
        return "\(metric)\(comparison.rawValue)\(ResultFormat.number((bound * 100 * 1e9).rounded() / 1e9))%"
    }
}

/// What a sweep optimises: one metric, a direction, and constraints.
///
/// The best configuration is the eligible one (every constraint passes, the metric is defined) with the best
/// value; ties go to the lowest configuration id, so the choice never depends on scheduling.
public struct Objective: Hashable, Sendable {
    /// The metric key, `sharpe` by default.
    public var metric: String
    /// Maximise or minimise.
    public var direction: ObjectiveDirection
    /// Constraints every eligible run passes.
    public var constraints: [MetricConstraint]

    /// Creates an objective.
    /// - Throws: `ResearchError.unknownMetric` for a metric no run reports.
    public init(
        metric: String = "sharpe", direction: ObjectiveDirection = .maximize, constraints: [MetricConstraint] = []
    ) throws(ResearchError) {
        guard SweepMetrics.names.contains(metric) else { throw .unknownMetric(metric) }
        self.metric = metric
        self.direction = direction
        self.constraints = constraints
    }

    /// Whether a run is eligible.
    public func isEligible(_ metrics: SweepMetrics) -> Bool {
        metrics[metric] != nil && constraints.allSatisfy { $0.accepts(metrics[$0.metric]) }
    }

    /// Whether `a` is strictly better than `b`.
    public func isBetter(_ a: Double, than b: Double) -> Bool {
        direction == .maximize ? a > b : a < b
    }

    /// The index (into `rows`) of the best eligible row, or `nil` when none is eligible.
    public func best(of rows: [SweepRow]) -> Int? {
        var best: Int?
        for (k, row) in rows.enumerated() where isEligible(row.metrics) {
            guard let value = row.metrics[metric] else { continue }
            if let b = best, let current = rows[b].metrics[metric], !isBetter(value, than: current) { continue }
            best = k
        }
        return best
    }

    /// `maximize sharpe subject to max_drawdown>-0.25` (the form files and stores keep).
    public var description: String { description(percentMetrics: []) }

    /// As a person reads it: the constraints on `percentMetrics` in percent (`max_drawdown>-25%`), as typed.
    public func description(percentMetrics: Set<String>) -> String {
        let base = "\(direction.rawValue) \(metric)"
        return constraints.isEmpty
            ? base : base + " subject to " + constraints.map { $0.description(percentMetrics: percentMetrics) }.joined(separator: ", ")
    }
}
