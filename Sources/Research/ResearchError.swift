/// Why a research request (sweep, walk-forward, merge) cannot be carried out. Every case names the bad input.
public enum ResearchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `--param` text is not `name=start:end:step` or `name=v1,v2,…`.
    case invalidParameter(String, reason: String)
    /// The same parameter was given twice.
    case duplicateParameter(String)
    /// The strategy has no setting with this name (or it did not accept the value).
    case unknownStrategyParameter(String, strategy: String)
    /// An objective or constraint text could not be read.
    case invalidObjective(String, reason: String)
    /// A metric name that no run reports.
    case unknownMetric(String)
    /// `--shard K/N` is not `K/N` with `0 ≤ K < N`.
    case invalidShard(String)
    /// `--shard auto` could not read the array job's shard from the environment (the reason names the variable).
    case shardFromEnvironment(String)
    /// A period such as `2Y`, `6M`, `13W`, `30D` or `250B` could not be read.
    case invalidPeriod(String)
    /// The data is too short for even one walk-forward window.
    case noWindows(String)
    /// The sweep has no configurations.
    case emptySweep
    /// A results CSV or best.json could not be read back.
    case malformedResults(String)
    /// Shards that do not belong together (different sweeps, missing or duplicated configurations).
    case inconsistentShards(String)
    /// A backtest produced no usable metrics.
    case analyticsFailed(String)
    /// A shard's output could not be written (a full disk, a network filesystem): another try may succeed.
    case writeFailed(String)

    public var description: String {
        switch self {
        case let .invalidParameter(text, reason): return "invalid parameter '\(text)': \(reason)"
        case let .duplicateParameter(name): return "parameter '\(name)' is given more than once"
        case let .unknownStrategyParameter(name, strategy):
            return "strategy '\(strategy)' has no parameter '\(name)' (or rejects its value)"
        case let .invalidObjective(text, reason): return "invalid objective or constraint '\(text)': \(reason)"
        case let .unknownMetric(name): return "no metric named '\(name)'"
        case let .invalidShard(text): return "invalid shard '\(text)': expected K/N with 0 <= K < N, auto or auto/N"
        case let .shardFromEnvironment(reason): return reason
        case let .invalidPeriod(text):
            return "invalid period '\(text)': expected a count and a unit, e.g. 2Y, 6M, 13W, 30D or 250B (bars)"
        case let .noWindows(reason): return "no walk-forward window fits: \(reason)"
        case .emptySweep: return "the sweep has no configurations"
        case let .malformedResults(reason): return "malformed results: \(reason)"
        case let .inconsistentShards(reason): return "shards do not match: \(reason)"
        case let .analyticsFailed(reason): return "metrics could not be computed: \(reason)"
        case let .writeFailed(reason): return "could not write \(reason)"
        }
    }
}
