import Analytics
import Foundation
import TradingModel

/// A walk-forward analysis (or one shard of it) as a file: everything needed to rebuild the result, so that shards
/// run on different machines merge into exactly the single run's outputs.
///
/// `walkforward.json` holds the header (strategy, data, plan, objective, parameter names, number of windows,
/// periods per year, shard) and per window its bounds, the chosen configuration with its in-sample metrics, the
/// out-of-sample metrics, the trade count and the out-of-sample equity segment. Doubles are written as strings in
/// Swift's shortest round-trip form, so they read back exactly.
public struct WalkForwardRecord: Sendable {
    /// Strategy name.
    public var strategy: String
    /// Data description.
    public var data: String
    /// The window plan.
    public var plan: WindowPlan
    /// Swept parameter names.
    public var parameterNames: [String]
    /// Return periods per year.
    public var periodsPerYear: Int
    /// Which windows this record holds.
    public var shard: Shard
    /// The (partial, for a shard) result.
    public var result: WalkForwardResult
    /// `SweepFingerprint` of the fixed inputs (empty when unknown); merges require equal fingerprints.
    public var fingerprint: String

    /// Creates a record.
    public init(
        strategy: String, data: String, plan: WindowPlan, parameterNames: [String], periodsPerYear: Int, shard: Shard,
        result: WalkForwardResult, fingerprint: String = ""
    ) {
        self.fingerprint = fingerprint
        self.strategy = strategy
        self.data = data
        self.plan = plan
        self.parameterNames = parameterNames
        self.periodsPerYear = periodsPerYear
        self.shard = shard
        self.result = result
    }

    /// The JSON text.
    public func encoded() -> String {
        func period(_ p: WindowPeriod) -> JSONValue {
            .object(["months": .integer(p.months), "days": .integer(p.days), "bars": .integer(p.bars)])
        }
        // Doubles are written as strings: Swift's shortest round-trip text, read back with `Double(_:)` (exact;
        // JSONSerialization's number parsing is not).
        func exact(_ value: Double?) -> JSONValue { value.map { .string(ResultFormat.number($0)) } ?? .null }
        func values(_ m: SweepMetrics?) -> JSONValue { m.map { .array($0.values.map(exact)) } ?? .null }
        func ns(_ t: Timestamp) -> JSONValue { .integer(Int(t.nanoseconds)) }
        let windows: [JSONValue] = result.windows.map { o in
            let w = o.window
            var chosen = JSONValue.null
            if let c = o.chosen {
                chosen = .object([
                    "config": .integer(c.id), "parameters": .array(c.parameters.entries.map { exact($0.value) }),
                    "metrics": values(c.metrics),
                ])
            }
            return .object([
                "index": .integer(w.index),
                "in_sample": .array([.integer(w.inSample.lowerBound), .integer(w.inSample.upperBound)]),
                "out_of_sample": .array([.integer(w.outOfSample.lowerBound), .integer(w.outOfSample.upperBound)]),
                "nominal": .array([ns(w.inSampleFrom), ns(w.outOfSampleFrom), ns(w.outOfSampleUntil)]),
                "bar_times": .array(w.barTimes.map(ns)), "truncated": .bool(w.isTruncated), "trials": .integer(o.trials),
                "chosen": chosen, "oos_metrics": values(o.outOfSampleMetrics), "trades": .integer(o.tradeCount),
                "segment_times": .array(o.segment.map { ns($0.time) }),
                "segment_equity": .array(o.segment.map { exact($0.equity) }),
            ])
        }
        let objective = result.objective
        var header: [String: JSONValue] = [
            "strategy": .string(strategy), "data": .string(data), "parameter_names": .array(parameterNames.map(JSONValue.string)),
            "periods_per_year": .integer(periodsPerYear), "window_count": .integer(result.windowCount),
            "plan": .object([
                "in_sample": period(plan.inSample), "out_of_sample": period(plan.outOfSample), "step": period(plan.step),
                "mode": .string(plan.mode.rawValue),
            ]),
            "objective": .object([
                "metric": .string(objective.metric), "direction": .string(objective.direction.rawValue),
                "constraints": .array(objective.constraints.map { .string($0.description) }),
            ]),
            "windows": .array(windows), "fingerprint": .string(fingerprint),
        ]
        if shard.count > 1 { header["shard"] = .string(shard.description) }
        return JSONValue.object(header).serialized()
    }

    /// Reads a record back.
    /// - Throws: `ResearchError.malformedResults` naming the source and the key.
    public static func decode(_ text: String, source: String) throws(ResearchError) -> WalkForwardRecord {
        do {
            return try JSONReader.record(text)
        } catch let error as JSONReader.Missing {
            throw .malformedResults("\(source): missing or bad '\(error.key)'")
        } catch let error as ResearchError {
            throw error
        } catch {
            throw .malformedResults("\(source): \(error)")
        }
    }

    /// Merges shard records into the whole analysis.
    /// - Throws: `ResearchError.inconsistentShards` naming the first mismatch.
    public static func merge(_ parts: [WalkForwardRecord]) throws(ResearchError) -> WalkForwardRecord {
        guard let first = parts.first else { throw .inconsistentShards("nothing to merge") }
        for part in parts {
            guard part.strategy == first.strategy, part.data == first.data, part.plan == first.plan,
                part.parameterNames == first.parameterNames, part.periodsPerYear == first.periodsPerYear,
                part.result.objective == first.result.objective, part.result.windowCount == first.result.windowCount,
                part.fingerprint == first.fingerprint
            else { throw .inconsistentShards("shard \(part.shard) describes a different walk-forward than the first") }
        }
        try Shard.checkComplete(parts.map(\.shard))
        let outcomes = parts.flatMap(\.result.windows).sorted { $0.window.index < $1.window.index }
        for (k, outcome) in outcomes.enumerated() where outcome.window.index != k {
            throw .inconsistentShards(outcome.window.index < k
                ? "window \(outcome.window.index) appears more than once" : "window \(k) is missing")
        }
        guard outcomes.count == first.result.windowCount else {
            throw .inconsistentShards("\(outcomes.count) of \(first.result.windowCount) windows present")
        }
        var merged = first
        merged.shard = .whole
        merged.result = WalkForward.assemble(
            outcomes, parameterNames: first.parameterNames, objective: first.result.objective,
            periodsPerYear: first.periodsPerYear, windowCount: first.result.windowCount)
        return merged
    }
}

/// Reading `walkforward.json` with `JSONSerialization`.
private enum JSONReader {
    struct Missing: Error { var key: String }

    static func object(_ any: Any?, _ key: String) throws -> [String: Any] {
        guard let value = any as? [String: Any] else { throw Missing(key: key) }
        return value
    }
    static func int(_ any: Any?, _ key: String) throws -> Int {
        guard let value = (any as? NSNumber)?.intValue else { throw Missing(key: key) }
        return value
    }
    static func double(_ any: Any?, _ key: String) throws -> Double {
        guard let text = any as? String, let value = Double(text) else { throw Missing(key: key) }
        return value
    }
    static func string(_ any: Any?, _ key: String) throws -> String {
        guard let value = any as? String else { throw Missing(key: key) }
        return value
    }
    static func array(_ any: Any?, _ key: String) throws -> [Any] {
        guard let value = any as? [Any] else { throw Missing(key: key) }
        return value
    }
    static func time(_ any: Any?, _ key: String) throws -> Timestamp {
        guard let value = (any as? NSNumber)?.int64Value else { throw Missing(key: key) }
        return Timestamp(nanoseconds: value)
    }
    static func metrics(_ any: Any?, _ key: String) throws -> SweepMetrics? {
        if any is NSNull || any == nil { return nil }
        let cells = try array(any, key)
        guard cells.count == SweepMetrics.names.count else { throw Missing(key: key) }
        return try SweepMetrics(values: try cells.map { cell -> Double? in
            if cell is NSNull { return nil }
            return try double(cell, key)
        })
    }
    static func period(_ any: Any?, _ key: String) throws -> WindowPeriod {
        let o = try object(any, key)
        return WindowPeriod(
            months: try int(o["months"], key), days: try int(o["days"], key), bars: try int(o["bars"], key))
    }

    static func record(_ text: String) throws -> WalkForwardRecord {
        let root = try object(try JSONSerialization.jsonObject(with: Data(text.utf8)), "top level")
        let names = try array(root["parameter_names"], "parameter_names").map { try string($0, "parameter_names") }
        let planObject = try object(root["plan"], "plan")
        guard let mode = WindowMode(rawValue: try string(planObject["mode"], "plan.mode")) else {
            throw Missing(key: "plan.mode")
        }
        let plan = try WindowPlan(
            inSample: try period(planObject["in_sample"], "plan.in_sample"),
            outOfSample: try period(planObject["out_of_sample"], "plan.out_of_sample"),
            step: try period(planObject["step"], "plan.step"), mode: mode)
        let o = try object(root["objective"], "objective")
        guard let direction = ObjectiveDirection(rawValue: try string(o["direction"], "objective.direction")) else {
            throw Missing(key: "objective.direction")
        }
        let constraints = try array(o["constraints"], "objective.constraints").map {
            try MetricConstraint(parsing: try string($0, "objective.constraints"))
        }
        let objective = try Objective(
            metric: try string(o["metric"], "objective.metric"), direction: direction, constraints: constraints)
        let outcomes = try array(root["windows"], "windows").map { try window($0, names: names) }
        let shard = try (root["shard"] as? String).map { try Shard(parsing: $0) } ?? .whole
        let ppy = try int(root["periods_per_year"], "periods_per_year")
        return WalkForwardRecord(
            strategy: try string(root["strategy"], "strategy"), data: try string(root["data"], "data"), plan: plan,
            parameterNames: names, periodsPerYear: ppy, shard: shard,
            result: WalkForward.assemble(
                outcomes, parameterNames: names, objective: objective, periodsPerYear: ppy,
                windowCount: try int(root["window_count"], "window_count")),
            fingerprint: root["fingerprint"] as? String ?? "")
    }

    static func window(_ any: Any, names: [String]) throws -> WindowOutcome {
        let w = try object(any, "windows")
        let inSample = try array(w["in_sample"], "in_sample").map { try int($0, "in_sample") }
        let outOfSample = try array(w["out_of_sample"], "out_of_sample").map { try int($0, "out_of_sample") }
        let nominal = try array(w["nominal"], "nominal").map { try time($0, "nominal") }
        let barTimes = try array(w["bar_times"], "bar_times").map { try time($0, "bar_times") }
        guard inSample.count == 2, outOfSample.count == 2, nominal.count == 3, barTimes.count == 4,
            inSample[0] <= inSample[1], outOfSample[0] <= outOfSample[1]
        else { throw Missing(key: "window bounds") }
        var chosen: SweepRow?
        if let c = w["chosen"] as? [String: Any] {
            let values = try array(c["parameters"], "chosen.parameters").map { try double($0, "chosen.parameters") }
            guard values.count == names.count, let metrics = try metrics(c["metrics"], "chosen.metrics") else {
                throw Missing(key: "chosen")
            }
            chosen = SweepRow(
                id: try int(c["config"], "chosen.config"),
                parameters: ParameterSet(zip(names, values).map { (name: $0, value: $1) }), metrics: metrics)
        }
        let times = try array(w["segment_times"], "segment_times").map { try time($0, "segment_times") }
        let equity = try array(w["segment_equity"], "segment_equity").map { try double($0, "segment_equity") }
        guard times.count == equity.count else { throw Missing(key: "segment") }
        return WindowOutcome(
            window: WalkForwardWindow(
                index: try int(w["index"], "index"), inSample: inSample[0]..<inSample[1],
                outOfSample: outOfSample[0]..<outOfSample[1], inSampleFrom: nominal[0], outOfSampleFrom: nominal[1],
                outOfSampleUntil: nominal[2], isTruncated: (w["truncated"] as? Bool) ?? false, barTimes: barTimes),
            chosen: chosen, trials: try int(w["trials"], "trials"),
            outOfSampleMetrics: try metrics(w["oos_metrics"], "oos_metrics"),
            segment: zip(times, equity).map { TimedEquity(time: $0, equity: $1) }, trades: [],
            tradeCount: try int(w["trades"], "trades"))
    }
}
