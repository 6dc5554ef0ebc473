import Backtest
import Testing
import TradingEngine
@testable import Research

@Suite struct SweepTests {
    /// Every row of a parallel sweep equals the configuration backtested alone.
    @Test func sweepEqualsEachConfigurationRunAlone() async throws {
        let space = try ResearchFixtures.smallGrid()
        let evaluator = BacktestEvaluator(spec: ResearchFixtures.crossover)
        let results = try await SweepRequest(space: space, objective: try Objective()).run(
            data: ResearchFixtures.market, evaluator: evaluator, maxConcurrency: 2)
        #expect(results.rows.count == 9)
        for (id, parameters) in space.configurations.enumerated() {
            let spec = try StrategyParameters.apply(parameters, to: ResearchFixtures.crossover)
            let alone = BacktestRunner.run(spec: spec, data: ResearchFixtures.market)
            let metrics = try BacktestEvaluator.metrics(of: alone, periodsPerYear: 252)
            #expect(results.rows[id].id == id)
            #expect(results.rows[id].parameters == parameters)
            #expect(results.rows[id].metrics == metrics)
        }
        #expect(results.rows.contains { ($0.metrics["trades"] ?? 0) > 0 })
    }

    /// The CSV does not depend on the number of concurrent backtests.
    @Test func outputDoesNotDependOnConcurrency() async throws {
        let request = SweepRequest(space: try ResearchFixtures.smallGrid(), objective: try Objective())
        let evaluator = BacktestEvaluator(spec: ResearchFixtures.crossover)
        let one = try await request.run(data: ResearchFixtures.market, evaluator: evaluator, maxConcurrency: 1)
        let three = try await request.run(data: ResearchFixtures.market, evaluator: evaluator, maxConcurrency: 3)
        #expect(one.csv() == three.csv())
        #expect(one.bestJSON() == three.bestJSON())
    }

    /// Shards written, read back and merged give the single run's bytes.
    @Test func mergedShardsEqualTheSingleRunByteForByte() async throws {
        let space = try ResearchFixtures.smallGrid()
        let objective = try Objective(constraints: [MetricConstraint(parsing: "max_drawdown>-0.5")])
        let evaluator = BacktestEvaluator(spec: ResearchFixtures.crossover)
        let whole = try await SweepRequest(space: space, objective: objective).run(
            data: ResearchFixtures.market, evaluator: evaluator, maxConcurrency: 2)
        var parts: [SweepResults] = []
        for k in 0..<4 {
            let shard = try await SweepRequest(space: space, objective: objective, shard: Shard(index: k, count: 4))
                .run(data: ResearchFixtures.market, evaluator: evaluator, maxConcurrency: 2)
            #expect(shard.bestJSON().contains("\"shard\": \"\(k)/4\""))
            parts.append(try SweepResults.parse(csv: shard.csv(), bestJSON: shard.bestJSON(), source: "shard\(k)"))
        }
        let merged = try SweepResults.merge(parts.reversed())
        #expect(merged.csv() == whole.csv())
        #expect(merged.bestJSON() == whole.bestJSON())
        #expect(throws: ResearchError.self) { try SweepResults.merge(Array(parts.dropLast())) }
        #expect(throws: ResearchError.self) { try SweepResults.merge(parts + [parts[0]]) }
        // Shards of a sweep over other bars (or settings) do not merge.
        #expect(whole.header.fingerprint.count == 16)
        var foreign = parts[3]
        foreign.header.fingerprint = "0000000000000000"
        #expect(throws: ResearchError.self) { try SweepResults.merge(Array(parts.dropLast()) + [foreign]) }
        let otherData = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 2, bars: 300, seed: 6))
        #expect(SweepFingerprint.make(evaluator: evaluator, data: otherData) != whole.header.fingerprint)
    }

    @Test func bestHonoursConstraintsAndReportsDeflatedSharpe() async throws {
        let evaluator = BacktestEvaluator(spec: ResearchFixtures.crossover)
        let results = try await SweepRequest(space: try ResearchFixtures.smallGrid(), objective: try Objective())
            .run(data: ResearchFixtures.market, evaluator: evaluator, maxConcurrency: 2)
        let best = try #require(results.best)
        let top = results.top(3)
        #expect(top.first?.id == best.id)
        #expect(top.count == 3)
        let sharpes = top.compactMap { $0.metrics["sharpe"] }
        #expect(sharpes == sharpes.sorted(by: >))
        let o = try #require(results.overfitting)
        #expect(o.trials == 9)
        let dsr = try #require(o.deflatedSharpe), psr = try #require(o.probabilisticSharpe)
        #expect(dsr <= psr)
        // An impossible constraint leaves no best configuration.
        let none = SweepResults(
            header: SweepHeader(
                strategy: "x", parameterNames: ["fast", "slow"],
                objective: try Objective(constraints: [MetricConstraint(parsing: "trades>1000000")]),
                configurations: 9, periodsPerYear: 252, shard: .whole),
            rows: results.rows)
        #expect(none.best == nil)
        #expect(none.bestJSON().contains("\"best\": null"))
    }
}
