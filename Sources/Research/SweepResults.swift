import Analytics
import Foundation

/// What identifies a sweep: written to `best.json` so shards can be checked and merged.
public struct SweepHeader: Hashable, Sendable {
    /// The strategy's name.
    public var strategy: String
    /// The swept parameters, in column order.
    public var parameterNames: [String]
    /// The objective and constraints.
    public var objective: Objective
    /// Configurations in the whole sweep (the `N` trials of the deflated Sharpe ratio).
    public var configurations: Int
    /// Return periods per year used for the metrics.
    public var periodsPerYear: Int
    /// Which shard these results are.
    public var shard: Shard
    /// A hash of the fixed inputs (strategy settings, backtest settings, bars), so shards of different sweeps
    /// cannot be merged by mistake; empty when unknown.
    public var fingerprint: String

    /// Creates a header.
    public init(
        strategy: String, parameterNames: [String], objective: Objective, configurations: Int, periodsPerYear: Int,
        shard: Shard, fingerprint: String = ""
    ) {
        self.fingerprint = fingerprint
        self.strategy = strategy
        self.parameterNames = parameterNames
        self.objective = objective
        self.configurations = configurations
        self.periodsPerYear = periodsPerYear
        self.shard = shard
    }
}

extension SweepHeader {
    /// The sweep's identity as `best.json` and a file shard's `shard.json` write it (`SweepResults.parseHeader` reads
    /// it back): strategy, parameter names, objective, configurations, periods per year, fingerprint.
    var jsonFields: [String: JSONValue] {
        [
            "strategy": .string(strategy),
            "parameter_names": .array(parameterNames.map(JSONValue.string)),
            "objective": .object([
                "metric": .string(objective.metric),
                "direction": .string(objective.direction.rawValue),
                "constraints": .array(objective.constraints.map { .string($0.description) }),
            ]),
            "configurations": .integer(configurations),
            "periods_per_year": .integer(periodsPerYear),
            "fingerprint": .string(fingerprint),
        ]
    }
}

/// The rows of a sweep (or of one shard) and everything derived from them: the best configuration, the
/// overfitting statistics, `results.csv` and `best.json`.
///
/// Both files are pure functions of the header and the rows, and numbers are written in a form that reads back
/// exactly, so merging shard files gives the same bytes as a single run.
public struct SweepResults: Sendable {
    /// The sweep's identity.
    public var header: SweepHeader
    /// The rows, in id order.
    public var rows: [SweepRow]

    /// Creates results.
    public init(header: SweepHeader, rows: [SweepRow]) {
        self.header = header
        self.rows = rows.sorted { $0.id < $1.id }
    }

    /// The best eligible row.
    public var best: SweepRow? { header.objective.best(of: rows).map { rows[$0] } }

    /// PSR and DSR of the best row, with `N` = every configuration of the sweep.
    public var overfitting: SweepOverfitting? {
        guard let best else { return nil }
        return SweepOverfitting(
            best: best, rows: rows, trials: header.configurations, periodsPerYear: header.periodsPerYear)
    }

    /// Eligible rows, best first (ties by id), at most `count`.
    public func top(_ count: Int) -> [SweepRow] {
        let objective = header.objective
        let eligible = rows.filter { objective.isEligible($0.metrics) }
        let sorted = eligible.sorted { a, b in
            let x = a.metrics[objective.metric] ?? 0, y = b.metrics[objective.metric] ?? 0
            if x != y { return objective.isBetter(x, than: y) }
            return a.id < b.id
        }
        return Array(sorted.prefix(max(0, count)))
    }

    /// The CSV header: `config`, the parameter names, then `SweepMetrics.names`.
    public var csvHeader: String { (["config"] + header.parameterNames + SweepMetrics.names).joined(separator: ",") }

    /// `results.csv`: one row per configuration in id order; no wall-clock columns.
    public func csv() -> String {
        var text = csvHeader + "\n"
        for row in rows {
            var cells = [String(row.id)]
            cells += row.parameters.entries.map { ResultFormat.number($0.value) }
            cells += row.metrics.values.map(ResultFormat.cell)
            text += cells.joined(separator: ",") + "\n"
        }
        return text
    }

    /// `best.json`: the sweep's identity, the best configuration with its metrics, and PSR/DSR.
    public func bestJSON() -> String {
        var object = header.jsonFields
        object["rows"] = .integer(rows.count)
        object["eligible"] = .integer(rows.filter { header.objective.isEligible($0.metrics) }.count)
        if header.shard.count > 1 { object["shard"] = .string(header.shard.description) }
        if let best {
            var metrics: [String: JSONValue] = [:]
            for (name, value) in zip(SweepMetrics.names, best.metrics.values) { metrics[name] = .optional(value) }
            var parameters: [String: JSONValue] = [:]
            for entry in best.parameters.entries { parameters[entry.name] = .number(entry.value) }
            object["best"] = .object([
                "config": .integer(best.id), "parameters": .object(parameters), "metrics": .object(metrics),
            ])
        } else {
            object["best"] = .null
        }
        if let o = overfitting {
            object["overfitting"] = .object([
                "trials": .integer(o.trials),
                "period_sharpe": .optional(o.periodSharpe),
                "sharpe_variance": .optional(o.sharpeVariance),
                "expected_max_sharpe": .optional(o.expectedMaximumSharpe),
                "probabilistic_sharpe_ratio": .optional(o.probabilisticSharpe),
                "deflated_sharpe_ratio": .optional(o.deflatedSharpe),
                "note": .string(header.shard.count > 1
                    ? "shard only: the Sharpe variance covers this shard's rows; merge the shards for the sweep's DSR"
                    : "per-period Sharpe ratios; DSR deflates for all configurations of the sweep"),
            ])
        }
        return JSONValue.object(object).serialized()
    }
}
