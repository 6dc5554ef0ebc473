import Testing
import TradingEngine
@testable import Research

@Suite struct ParameterSpaceTests {
    @Test func rangeIncludesTheEndWhenStepsLandOnIt() throws {
        #expect(try ParameterRange(parsing: "fast=5:50:5").values == [5, 10, 15, 20, 25, 30, 35, 40, 45, 50])
        #expect(try ParameterRange(parsing: "slow=20:45:10").values == [20, 30, 40])
        #expect(try ParameterRange(parsing: "x=0.1:0.3:0.1").values == [0.1, 0.2, 0.3])
        #expect(try ParameterRange(parsing: "k = 1, 2.5 ,4").values == [1, 2.5, 4])
    }

    @Test(arguments: ["fast", "fast=", "=1:2:1", "fast=5:1:1", "fast=1:5:0", "fast=1:5", "fast=a,b", "fa,st=1,2", "fa st=1"])
    func badRangesNameTheInput(text: String) {
        #expect(throws: ResearchError.self) { try ParameterRange(parsing: text) }
    }

    @Test func gridOrderIsFixedWithTheLastParameterFastest() throws {
        let space = try ParameterSpace(ranges: [
            ParameterRange(name: "a", values: [1, 2]), ParameterRange(name: "b", values: [10, 20, 30]),
        ])
        #expect(space.configurations.map(\.description) == [
            "a=1 b=10", "a=1 b=20", "a=1 b=30", "a=2 b=10", "a=2 b=20", "a=2 b=30",
        ])
    }

    @Test func duplicateParametersAreRejected() {
        #expect(throws: ResearchError.duplicateParameter("a")) {
            try ParameterSpace(ranges: [ParameterRange(name: "a", values: [1]), ParameterRange(name: "a", values: [2])])
        }
    }

    @Test func randomSearchIsSeededDistinctAndInGridOrder() throws {
        let ranges = [ParameterRange(name: "a", values: Array(1...20).map(Double.init)),
                      ParameterRange(name: "b", values: Array(1...20).map(Double.init))]
        let one = try ParameterSpace(ranges: ranges, method: .random(count: 25, seed: 7)).configurations
        let two = try ParameterSpace(ranges: ranges, method: .random(count: 25, seed: 7)).configurations
        let other = try ParameterSpace(ranges: ranges, method: .random(count: 25, seed: 8)).configurations
        #expect(one == two)
        #expect(one != other)
        #expect(Set(one).count == 25)
        let keys = one.map { ($0["a"] ?? 0) * 100 + ($0["b"] ?? 0) }
        #expect(keys == keys.sorted())
    }

    @Test func filtersApplyBeforeNumberingAndSampling() throws {
        let ranges = [ParameterRange(name: "fast", values: [5, 10, 20]), ParameterRange(name: "slow", values: [10, 20, 30])]
        let relation = try ParameterRelation(parsing: "fast<slow")
        let space = try ParameterSpace(ranges: ranges, filters: [relation])
        #expect(space.configurations.map(\.description) == [
            "fast=5 slow=10", "fast=5 slow=20", "fast=5 slow=30", "fast=10 slow=20", "fast=10 slow=30", "fast=20 slow=30",
        ])
        let sampled = try ParameterSpace(ranges: ranges, method: .random(count: 4, seed: 2), filters: [relation])
        #expect(sampled.configurations.count == 4)
        #expect(sampled.configurations.allSatisfy { ($0["fast"] ?? 0) < ($0["slow"] ?? 0) })
        #expect(try ParameterRelation(parsing: "slow<=20").holds(for: ParameterSet([("slow", 20)])))
        #expect(throws: ResearchError.self) { try ParameterSpace(ranges: ranges, filters: [ParameterRelation(parsing: "fast<x")]) }
        #expect(throws: ResearchError.self) { try ParameterRelation(parsing: "fast") }
    }

    @Test func shardsPartitionTheConfigurations() throws {
        #expect(try Shard(parsing: "3/4").description == "3/4")
        for bad in ["4/4", "-1/4", "1/0", "x/2", "1"] {
            #expect(throws: ResearchError.self) { try Shard(parsing: bad) }
        }
        let shards = try (0..<4).map { try Shard(index: $0, count: 4) }
        for id in 0..<23 { #expect(shards.filter { $0.contains(id) }.count == 1) }
    }

    @Test func strategyParametersAreSetThroughCodable() throws {
        let base = StrategySpec.movingAverageCrossover(config: MovingAverageCrossoverConfig())
        let spec = try StrategyParameters.apply(ParameterSet([("fast", 7), ("slowPeriod", 42)]), to: base)
        guard case let .movingAverageCrossover(c) = spec else {
            Issue.record("strategy changed")
            return
        }
        #expect(c.fastPeriod == 7 && c.slowPeriod == 42)
        let rsi = try StrategyParameters.apply(
            ParameterSet([("oversold", 25.5)]), to: .rsiMeanReversion(config: RSIMeanReversionConfig()))
        guard case let .rsiMeanReversion(r) = rsi else {
            Issue.record("strategy changed")
            return
        }
        #expect(r.oversold == 25.5)
        #expect(throws: ResearchError.unknownStrategyParameter("nonsense", strategy: "movingAverageCrossover")) {
            try StrategyParameters.apply(ParameterSet([("nonsense", 1)]), to: base)
        }
        #expect(throws: ResearchError.self) { try StrategyParameters.apply(ParameterSet([("fast", 2.5)]), to: base) }
    }

    @Test func constraintsParse() throws {
        let c = try MetricConstraint(parsing: "max_drawdown>-25%")
        #expect(c.metric == "max_drawdown" && c.comparison == .greater && c.bound == -0.25)
        #expect(try MetricConstraint(parsing: "trades>=10").comparison == .greaterOrEqual)
        #expect(try MetricConstraint(parsing: "max_drawdown>-0.25").description == "max_drawdown>-0.25")
        // A person reads a percent metric's bound in percent, as the reports give the metric (issue 83); the stored
        // form stays the fraction, and both read back to the same bound.
        let percent: Set<String> = ["max_drawdown", "cagr"]
        #expect(c.description(percentMetrics: percent) == "max_drawdown>-25%")
        #expect(try MetricConstraint(parsing: "cagr>=7%").description(percentMetrics: percent) == "cagr>=7%")
        #expect(try MetricConstraint(parsing: "trades>=10").description(percentMetrics: percent) == "trades>=10")
        #expect(try MetricConstraint(parsing: c.description(percentMetrics: percent)).bound == c.bound)
        let objective = try Objective(metric: "sharpe", constraints: [c, MetricConstraint(parsing: "trades>=10")])
        #expect(objective.description(percentMetrics: percent) == "maximize sharpe subject to max_drawdown>-25%, trades>=10")
        #expect(objective.description == "maximize sharpe subject to max_drawdown>-0.25, trades>=10")
        #expect(throws: ResearchError.unknownMetric("nope")) { try MetricConstraint(parsing: "nope>1") }
        #expect(throws: ResearchError.self) { try MetricConstraint(parsing: "sharpe~1") }
        #expect(throws: ResearchError.unknownMetric("bogus")) { try Objective(metric: "bogus") }
    }
}
