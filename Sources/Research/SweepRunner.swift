import Backtest

/// Evaluates one configuration on some data. Must be deterministic: the same inputs give the same metrics.
public typealias SweepEvaluation = @Sendable (ParameterSet, MarketData) throws(ResearchError) -> SweepMetrics

/// Runs configurations in parallel with structured concurrency and returns their rows in id order.
///
/// At most `maxConcurrency` backtests run at once (a task group refilled as tasks finish), so memory stays bounded
/// and a sweep uses exactly the cores it is given. Rows are sorted by id, so the output never depends on the order
/// in which tasks finish.
public enum SweepRunner {
    /// Progress: `(finished, total)`; called on the calling task, once per finished configuration.
    public typealias Progress = @Sendable (Int, Int) -> Void

    /// Runs `configurations` and measures each.
    /// - Parameters:
    ///   - configurations: `(id, parameters)` pairs.
    ///   - data: the bars every configuration runs on.
    ///   - maxConcurrency: backtests at once (≥ 1; the core count is the natural choice).
    ///   - evaluate: how one configuration is measured.
    ///   - progress: optional progress callback.
    /// - Throws: the first `ResearchError` of any configuration; the other tasks are cancelled.
    public static func run(
        _ configurations: [(id: Int, parameters: ParameterSet)], data: MarketData, maxConcurrency: Int,
        evaluate: @escaping SweepEvaluation, progress: Progress? = nil
    ) async throws(ResearchError) -> [SweepRow] {
        try await map(
            configurations, data: data, maxConcurrency: maxConcurrency,
            evaluate: { (_, parameters, data) throws(ResearchError) in try evaluate(parameters, data) }, progress: progress
        ).map { SweepRow(id: $0.id, parameters: $0.parameters, metrics: $0.output) }
    }

    /// Runs `configurations` and returns what `evaluate` gives for each (given its id), in id order (a file shard's
    /// books).
    /// - Throws: the first `ResearchError` of any configuration; the other tasks are cancelled.
    public static func map<Output: Sendable>(
        _ configurations: [(id: Int, parameters: ParameterSet)], data: MarketData, maxConcurrency: Int,
        evaluate: @escaping @Sendable (Int, ParameterSet, MarketData) throws(ResearchError) -> Output, progress: Progress? = nil
    ) async throws(ResearchError) -> [(id: Int, parameters: ParameterSet, output: Output)] {
        let width = max(1, maxConcurrency)
        var outcomes: [(id: Int, parameters: ParameterSet, output: Output)] = []
        outcomes.reserveCapacity(configurations.count)
        do {
            try await withThrowingTaskGroup(of: (id: Int, parameters: ParameterSet, output: Output).self) { group in
                var next = 0
                func addTask() {
                    let (id, parameters) = configurations[next]
                    next += 1
                    group.addTask {
                        try Task.checkCancellation()
                        return (id, parameters, try evaluate(id, parameters, data))
                    }
                }
                while next < configurations.count, next < width { addTask() }
                while let outcome = try await group.next() {
                    outcomes.append(outcome)
                    progress?(outcomes.count, configurations.count)
                    if next < configurations.count { addTask() }
                }
            }
        } catch let error as ResearchError {
            throw error
        } catch {
            throw .analyticsFailed("the sweep was interrupted: \(error)")
        }
        outcomes.sort { $0.id < $1.id }
        return outcomes
    }
}

/// A whole sweep: a parameter space, an objective, and which shard of it to run.
public struct SweepRequest: Sendable {
    /// The swept parameters.
    public var space: ParameterSpace
    /// What is optimised.
    public var objective: Objective
    /// The part of the sweep to run.
    public var shard: Shard

    /// Creates a request.
    public init(space: ParameterSpace, objective: Objective, shard: Shard = .whole) {
        self.space = space
        self.objective = objective
        self.shard = shard
    }

    /// The `(id, parameters)` pairs of this shard, in id order, and the size of the whole sweep.
    public func configurations() -> (shard: [(id: Int, parameters: ParameterSet)], total: Int) {
        let all = space.configurations
        let mine = all.enumerated().filter { shard.contains($0.offset) }.map { (id: $0.offset, parameters: $0.element) }
        return (mine, all.count)
    }

    /// Runs the shard's configurations with a backtest evaluator.
    /// - Parameters:
    ///   - data: the bars.
    ///   - evaluator: the strategy and backtest settings.
    ///   - maxConcurrency: backtests at once.
    ///   - progress: optional progress callback.
    /// - Throws: `ResearchError` from the first failing configuration.
    public func run(
        data: MarketData, evaluator: BacktestEvaluator, maxConcurrency: Int, progress: SweepRunner.Progress? = nil
    ) async throws(ResearchError) -> SweepResults {
        let (mine, total) = configurations()
        guard total > 0 else { throw .emptySweep }
        // Indicators shared by every configuration where their columns are small enough (one portfolio per
        // configuration); an each-symbol sweep runs a configuration at a time over every symbol, so its memory stays
        // that of the books being built (a symbol at a time for all configurations held every book: measured
        // 6.3 GB and slower at 500 symbols, docs/research.md).
        let shared = evaluator.eachSymbol ? nil : evaluator.sharedIndicators(for: mine.map(\.parameters), data: data)
        let rows = try await SweepRunner.run(
            mine, data: data, maxConcurrency: maxConcurrency,
            evaluate: { (p, d) throws(ResearchError) in try evaluator.metrics(p, data: d, shared: shared) },
            progress: progress)
        return SweepResults(
            header: SweepHeader(
                strategy: evaluator.strategyName, parameterNames: space.ranges.map(\.name),
                objective: objective, configurations: total, periodsPerYear: evaluator.periodsPerYear, shard: shard,
                fingerprint: SweepFingerprint.make(evaluator: evaluator, data: data)),
            rows: rows)
    }
}
