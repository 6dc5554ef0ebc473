import Foundation

extension SweepResults {
    /// Reads back a shard's (or a sweep's) `results.csv` and `best.json`.
    /// - Parameters:
    ///   - csv: the text of `results.csv`.
    ///   - bestJSON: the text of `best.json`.
    ///   - source: a name for error messages (e.g. the folder).
    /// - Throws: `ResearchError.malformedResults` naming the source and the bad line or key.
    public static func parse(csv: String, bestJSON: String, source: String) throws(ResearchError) -> SweepResults {
        let header = try parseHeader(bestJSON, source: source)
        var lines = csv.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { throw .malformedResults("\(source)/results.csv is empty") }
        let expected = SweepResults(header: header, rows: []).csvHeader
        guard lines.removeFirst() == expected else {
            throw .malformedResults("\(source)/results.csv: the header is not '\(expected)'")
        }
        let width = 1 + header.parameterNames.count + SweepMetrics.names.count
        var rows: [SweepRow] = []
        for (k, line) in lines.enumerated() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            let bad = ResearchError.malformedResults("\(source)/results.csv line \(k + 2): '\(line)'")
            guard cells.count == width, let id = Int(cells[0]) else { throw bad }
            var entries: [(name: String, value: Double)] = []
            for (name, cell) in zip(header.parameterNames, cells[1...]) {
                guard let value = Double(cell) else { throw bad }
                entries.append((name, value))
            }
            var values: [Double?] = []
            for cell in cells[(1 + header.parameterNames.count)...] {
                if cell.isEmpty {
                    values.append(nil)
                } else {
                    guard let value = Double(cell) else { throw bad }
                    values.append(value)
                }
            }
            rows.append(SweepRow(id: id, parameters: ParameterSet(entries), metrics: try SweepMetrics(values: values)))
        }
        return SweepResults(header: header, rows: rows)
    }

    static func parseHeader(_ text: String, source: String) throws(ResearchError) -> SweepHeader {
        func bad(_ key: String) -> ResearchError { .malformedResults("\(source)/best.json: missing or bad '\(key)'") }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw .malformedResults("\(source)/best.json is not a JSON object")
        }
        guard let strategy = object["strategy"] as? String else { throw bad("strategy") }
        guard let names = object["parameter_names"] as? [String] else { throw bad("parameter_names") }
        guard let count = (object["configurations"] as? NSNumber)?.intValue else { throw bad("configurations") }
        guard let ppy = (object["periods_per_year"] as? NSNumber)?.intValue else { throw bad("periods_per_year") }
        guard let objective = object["objective"] as? [String: Any], let metric = objective["metric"] as? String,
            let directionText = objective["direction"] as? String,
            let direction = ObjectiveDirection(rawValue: directionText),
            let constraintTexts = objective["constraints"] as? [String]
        else { throw bad("objective") }
        var constraints: [MetricConstraint] = []
        for text in constraintTexts { constraints.append(try MetricConstraint(parsing: text)) }
        let shard = try (object["shard"] as? String).map { (text) throws(ResearchError) in try Shard(parsing: text) }
        return SweepHeader(
            strategy: strategy, parameterNames: names,
            objective: try Objective(metric: metric, direction: direction, constraints: constraints),
            configurations: count, periodsPerYear: ppy, shard: shard ?? .whole,
            fingerprint: object["fingerprint"] as? String ?? "")
    }

    /// Merges shard results into the whole sweep's results.
    ///
    /// Every part must describe the same sweep (strategy, parameters, objective, size, periods per year), and
    /// together they must hold each configuration id `0..<configurations` exactly once.
    /// - Throws: `ResearchError.inconsistentShards` naming the first mismatch.
    public static func merge(_ parts: [SweepResults]) throws(ResearchError) -> SweepResults {
        guard var header = parts.first?.header else { throw .inconsistentShards("nothing to merge") }
        header.shard = .whole
        for part in parts {
            var other = part.header
            other.shard = .whole
            guard other == header else {
                throw .inconsistentShards("shard \(part.header.shard) describes a different sweep than the first")
            }
        }
        try Shard.checkComplete(parts.map(\.header.shard))
        for part in parts {
            if let stray = part.rows.first(where: { !part.header.shard.contains($0.id) }) {
                throw .inconsistentShards(
                    "the results of shard \(part.header.shard) hold configuration \(stray.id) of another shard (a stale file?)")
            }
        }
        let rows = parts.flatMap(\.rows).sorted { $0.id < $1.id }
        for (k, row) in rows.enumerated() where row.id != k {
            throw .inconsistentShards(
                row.id < k ? "configuration \(row.id) appears more than once" : "configuration \(k) is missing")
        }
        guard rows.count == header.configurations else {
            throw .inconsistentShards("\(rows.count) of \(header.configurations) configurations present")
        }
        return SweepResults(header: header, rows: rows)
    }
}
