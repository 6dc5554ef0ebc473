import Simulation

/// One swept parameter and the values it takes, in order.
///
/// Read from `name=start:end:step` (end included when the steps land on it, e.g. `fast=5:50:5` → 5, 10, …, 50)
/// or `name=v1,v2,…` (an explicit list). Values are doubles; whole numbers are written without a fraction.
public struct ParameterRange: Hashable, Sendable {
    /// The strategy setting, e.g. `fast` or `fastPeriod`.
    public var name: String
    /// The values, in sweep order.
    public var values: [Double]

    /// Creates a range from explicit values.
    public init(name: String, values: [Double]) {
        self.name = name
        self.values = values
    }

    /// Parses `name=start:end:step` or `name=v1,v2,…`.
    /// - Throws: `ResearchError.invalidParameter` naming the text.
    public init(parsing text: String) throws(ResearchError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw .invalidParameter(text, reason: "expected name=start:end:step or name=v1,v2,...")
        }
        let name = text[..<equals].trimmingSpaces
        let spec = text[text.index(after: equals)...].trimmingSpaces
        guard !name.isEmpty else { throw .invalidParameter(text, reason: "the name is empty") }
        try self.init(name: name, spec: spec, original: text)
    }

    /// Parses the value part (`start:end:step` or `v1,v2,…`) of a parameter called `name`.
    /// - Throws: `ResearchError.invalidParameter` naming the text.
    public init(name: String, spec: String, original: String? = nil) throws(ResearchError) {
        let text = original ?? "\(name)=\(spec)"
        func number(_ part: Substring) throws(ResearchError) -> Double {
            guard let value = Double(part.trimmingSpaces), value.isFinite else {
                throw .invalidParameter(text, reason: "'\(part)' is not a number")
            }
            return value
        }
        if spec.contains(":") {
            let parts = spec.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3 else { throw .invalidParameter(text, reason: "a range is start:end:step") }
            let start = try number(parts[0]), end = try number(parts[1]), step = try number(parts[2])
            guard step > 0 else { throw .invalidParameter(text, reason: "the step must be positive") }
            guard end >= start else { throw .invalidParameter(text, reason: "the end is before the start") }
            // Count steps with a tolerance so 0.1-style steps still land on the end.
            let count = Int(((end - start) / step + 1e-9).rounded(.down)) + 1
            guard count <= 1_000_000 else { throw .invalidParameter(text, reason: "more than 1,000,000 values") }
            values = (0..<count).map { ParameterRange.clean(start + Double($0) * step) }
        } else {
            var list: [Double] = []
            for part in spec.split(separator: ",", omittingEmptySubsequences: false) { list.append(try number(part)) }
            values = list
        }
        guard !values.isEmpty else { throw .invalidParameter(text, reason: "no values") }
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ Self.nameCharacters.contains($0) }) else {
            throw .invalidParameter(text, reason: "a name is letters, digits, '_' and '.' only")
        }
        self.name = name
    }

    private static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.".unicodeScalars)

    /// Removes binary noise such as `0.30000000000000004` (rounds to 12 significant decimals).
    static func clean(_ value: Double) -> Double {
        let scale = 1e12
        let rounded = (value * scale).rounded() / scale
        return abs(rounded - value) < 1e-9 * max(1, abs(value)) ? rounded : value
    }
}

/// One configuration: a value per swept parameter, in the order the parameters were given.
public struct ParameterSet: Hashable, Sendable, CustomStringConvertible {
    /// `(name, value)` pairs in sweep order.
    public var entries: [(name: String, value: Double)]

    /// Creates a set.
    public init(_ entries: [(name: String, value: Double)]) { self.entries = entries }

    /// The value of a parameter, if swept.
    public subscript(name: String) -> Double? { entries.first { $0.name == name }?.value }

    /// `fast=10 slow=50`.
    public var description: String {
        entries.map { "\($0.name)=\(ResultFormat.number($0.value))" }.joined(separator: " ")
    }

    public static func == (lhs: ParameterSet, rhs: ParameterSet) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.name)
            hasher.combine(entry.value)
        }
    }
}

/// How configurations are drawn from the parameter ranges.
public enum SearchMethod: Hashable, Sendable {
    /// Every combination (the cartesian product; the first parameter varies slowest).
    case grid
    /// `count` distinct combinations drawn without replacement with a seeded generator, kept in grid order.
    case random(count: Int, seed: UInt64)
}

/// The ordered list of configurations of a sweep, and its shards.
///
/// The order is fixed by the ranges and the method alone, so every machine that builds the same space numbers the
/// configurations the same way; shard `K/N` takes configurations `K, K+N, K+2N, …`.
public struct ParameterSpace: Hashable, Sendable {
    /// The swept parameters.
    public let ranges: [ParameterRange]
    /// Grid or random.
    public let method: SearchMethod
    /// Relations every configuration satisfies (e.g. `fast<slow`); others are left out before numbering.
    public let filters: [ParameterRelation]

    /// Creates a space.
    /// - Throws: `ResearchError.duplicateParameter`, `.emptySweep`, or `.invalidParameter` for a filter that names
    ///   a parameter that is not swept.
    public init(
        ranges: [ParameterRange], method: SearchMethod = .grid, filters: [ParameterRelation] = []
    ) throws(ResearchError) {
        var seen: Set<String> = []
        for range in ranges where !seen.insert(range.name).inserted { throw .duplicateParameter(range.name) }
        if case let .random(count, _) = method, count < 1 { throw .emptySweep }
        var size = 1
        for range in ranges {
            let (product, overflow) = size.multipliedReportingOverflow(by: range.values.count)
            guard !overflow, product <= Self.maximumGrid else {
                throw .invalidParameter(
                    ranges.map(\.name).joined(separator: " × "), reason: "more than \(Self.maximumGrid) combinations")
            }
            size = product
        }
        if !filters.isEmpty, size > Self.maximumGridSweep {
            throw .invalidParameter(
                filters.map(\.description).joined(separator: ", "),
                reason: "filters need the grid listed, and it has \(size) combinations (at most \(Self.maximumGridSweep))")
        }
        if case .grid = method, size > Self.maximumGridSweep {
            throw .invalidParameter(
                ranges.map(\.name).joined(separator: " × "),
                reason: "\(size) combinations; sample them with a random search (--samples N)")
        }
        for filter in filters {
            for name in filter.names where !seen.contains(name) {
                throw .invalidParameter(filter.description, reason: "'\(name)' is not a swept parameter")
            }
        }
        self.ranges = ranges
        self.method = method
        self.filters = filters
    }

    /// The largest grid a random search may draw from.
    public static let maximumGrid = 1 << 40
    /// The largest grid swept in full.
    public static let maximumGridSweep = 10_000_000

    /// Number of grid combinations (checked against `maximumGrid` at creation).
    public var gridCount: Int { ranges.reduce(1) { $0 * $1.values.count } }

    /// Every configuration, numbered from 0 (the index is the configuration's id in results).
    /// With filters, the grid is filtered first and a random search draws from what is left.
    public var configurations: [ParameterSet] {
        let grid = filters.isEmpty ? nil : (0..<gridCount).map(combination).filter { set in filters.allSatisfy { $0.holds(for: set) } }
        switch method {
        case .grid:
            return grid ?? (0..<gridCount).map(combination)
        case let .random(count, seed):
            guard let grid else { return Self.randomIndices(count: count, of: gridCount, seed: seed).map(combination) }
            return Self.randomIndices(count: count, of: grid.count, seed: seed).map { grid[$0] }
        }
    }

    /// The grid combination with this index (the last parameter varies fastest).
    public func combination(_ index: Int) -> ParameterSet {
        var rest = index
        var entries: [(name: String, value: Double)] = Array(repeating: ("", 0), count: ranges.count)
        for k in ranges.indices.reversed() {
            let n = ranges[k].values.count
            entries[k] = (ranges[k].name, ranges[k].values[rest % n])
            rest /= n
        }
        return ParameterSet(entries)
    }

    /// Distinct grid indices, sorted, drawn with Floyd's algorithm (no replacement; all of them when `count ≥ grid`).
    static func randomIndices(count: Int, of total: Int, seed: UInt64) -> [Int] {
        guard count < total else { return Array(0..<total) }
        var rng = SplitMix64(seed: seed)
        var chosen: Set<Int> = []
        for j in (total - count)..<total {
            let t = Int(rng.next() % UInt64(j + 1))
            chosen.insert(chosen.contains(t) ? j : t)
        }
        return chosen.sorted()
    }
}

/// A relation between two swept parameters (`fast<slow`) or a parameter and a number (`period<=30`).
public struct ParameterRelation: Hashable, Sendable, CustomStringConvertible {
    /// The left parameter.
    public var left: String
    /// The comparison.
    public var comparison: MetricConstraint.Comparison
    /// The right side: a parameter name or a number.
    public var right: Side

    /// A parameter or a constant.
    public enum Side: Hashable, Sendable {
        case parameter(String)
        case number(Double)
    }

    /// Parses `name OP name` or `name OP number` (OP one of `>= <= > < ==`).
    /// - Throws: `ResearchError.invalidParameter`.
    public init(parsing text: String) throws(ResearchError) {
        for comparison in MetricConstraint.Comparison.allCases {
            guard let range = text.range(of: comparison.rawValue) else { continue }
            let left = text[..<range.lowerBound].trimmingSpaces
            let right = text[range.upperBound...].trimmingSpaces
            guard !left.isEmpty, !right.isEmpty else { break }
            self.left = left
            self.comparison = comparison
            self.right = Double(right).map(Side.number) ?? .parameter(right)
            return
        }
        throw .invalidParameter(text, reason: "expected a relation such as fast<slow or period<=30")
    }

    /// The parameter names it mentions.
    public var names: [String] {
        if case let .parameter(name) = right { return [left, name] }
        return [left]
    }

    /// Whether a configuration satisfies it.
    public func holds(for set: ParameterSet) -> Bool {
        let bound: Double?
        switch right {
        case let .parameter(name): bound = set[name]
        case let .number(value): bound = value
        }
        guard let bound else { return false }
        return MetricConstraint(metric: left, comparison: comparison, bound: bound).accepts(set[left])
    }

    /// `fast<slow`.
    public var description: String {
        switch right {
        case let .parameter(name): return "\(left)\(comparison.rawValue)\(name)"
        case let .number(value): return "\(left)\(comparison.rawValue)\(ResultFormat.number(value))"
        }
    }
}

/// `K/N`: this process runs configurations `K, K+N, …` of the sweep.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// 0-based index (an indexed Kubernetes Job's completion index).
    public let index: Int
    /// Number of shards.
    public let count: Int

    /// The whole sweep.
    public static let whole = Shard(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Creates a shard.
    /// - Throws: `ResearchError.invalidShard` unless `0 ≤ index < count`.
    public init(index: Int, count: Int) throws(ResearchError) {
        guard count >= 1, index >= 0, index < count else { throw .invalidShard("\(index)/\(count)") }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Parses `K/N`.
    /// - Throws: `ResearchError.invalidShard`.
    public init(parsing text: String) throws(ResearchError) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0].trimmingSpaces), let n = Int(parts[1].trimmingSpaces) else {
            throw .invalidShard(text)
        }
        guard n >= 1, k >= 0, k < n else { throw .invalidShard(text) }
        self.init(uncheckedIndex: k, count: n)
    }

    /// Whether the configuration with this id belongs to the shard.
    public func contains(_ configuration: Int) -> Bool { configuration % count == index }

    /// The shards one task of an array job runs when each task runs `perTask` of them (`--shards-per-task`, for
    /// schedulers that cap an array's size): task `K/N` runs shards `K·M … K·M+M−1` of `N·M`.
    /// - Throws: `ResearchError.invalidShard` when `perTask` is below 1 or the shard count would overflow.
    public func split(perTask: Int) throws(ResearchError) -> [Shard] {
        guard perTask >= 1, count <= 100_000_000 / perTask else { throw .invalidShard("\(self) × \(perTask) per task") }
        return (0..<perTask).map { Shard(uncheckedIndex: index * perTask + $0, count: count * perTask) }
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let first = s.first, first == " " || first == "\t" { s.removeFirst() }
        while let last = s.last, last == " " || last == "\t" || last == "\r" { s.removeLast() }
        return String(s)
    }
}
