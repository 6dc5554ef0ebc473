import Research

/// `sweep:` the parameter sweep of `optimize` and `walkforward`.
public struct SweepSettings: Hashable, Sendable {
    /// Swept strategy parameters: name and spec (`5:50:5` or `10,20,30`), in the order written.
    public var parameters: [SweptParameter] = []
    /// The metric optimised.
    public var objective = "sharpe"
    /// Minimise the objective instead of maximising it.
    public var minimize = false
    /// Relations a configuration must satisfy (`fastPeriod<slowPeriod`).
    public var `where`: [String] = []
    /// Constraints a run must pass (`max_drawdown>-0.25`).
    public var constraints: [String] = []
    /// Random search: this many configurations drawn from the grid (`nil`: the whole grid).
    public var samples: Int?
    /// Seed of the random search.
    public var seed = 1
    /// `optimize`: each configuration on each symbol alone, measured as the pooled book.
    public var eachSymbol = false

    /// Creates the defaults.
    public init() {}

    /// The schema of the section.
    public static var schema: ConfigSection<SweepSettings> {
        ConfigSection([
            .value(
                "parameters", \.parameters, parametersKind,
                summary: "Swept strategy parameters: name: START:END:STEP or a list of values.",
                flagName: "--parameter"),
            .value(
                "objective", \.objective, .choice(SweepMetrics.names),
                summary: "The metric optimised (a results.csv column).", flag: true),
            .value("minimize", \.minimize, .boolean, summary: "Minimise the objective instead of maximising it.", flag: true),
            .value(
                "where", \.where, textList(check: { text in
                    do throws(ResearchError) { _ = try ParameterRelation(parsing: text) } catch { return error.description }
                    return nil
                }), summary: "Relations every configuration satisfies, e.g. fastPeriod<slowPeriod.", flagName: "--where"),
            .value(
                "constraints", \.constraints, textList(check: { text in
                    do throws(ResearchError) { _ = try MetricConstraint(parsing: text) } catch { return error.description }
                    return nil
                }), summary: "Constraints every eligible run passes, e.g. max_drawdown>-0.25.", flagName: "--constraint"),
            .value(
                "samples", \.samples, ConfigKind<Int>.integer(1...10_000_000).optional,
                summary: "Random search: draw this many configurations from the grid (none: the whole grid).",
                flag: true),
            .value("seed", \.seed, .integer(0...Int(Int32.max)), summary: "Seed of the random search.", flag: true),
            .value(
                "eachSymbol", \.eachSymbol, .boolean,
                summary: "optimize: run each configuration on each symbol alone (each its own account of "
                    + "backtest.initialCash) and measure the pooled book, as a vectorized sweep does; "
                    + "off: one portfolio of every symbol sharing its cash.",
                flag: true),
        ])
    }

    static func textList(check: @escaping (String) -> String?) -> ConfigKind<[String]> {
        ConfigKind<[String]>.list(of: ConfigKind.text.checked(check), allowed: "a list of texts", distinct: false)
    }

    static var parametersKind: ConfigKind<[SweptParameter]> {
        let allowed = "a mapping of parameter names to START:END:STEP or a list of values"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                guard let entries = node.entries else {
                    if node.isNull { return [] }
                    throw ConfigError("expected \(allowed), got \(node.shapeDescription)", key: key, at: node.origin)
                }
                var swept: [SweptParameter] = []
                for entry in entries {
                    let spec: String
                    if let items = entry.value.items {
                        spec = items.compactMap(\.scalar).joined(separator: ",")
                    } else {
                        spec = try ConfigKind<String>.text(entry.value, key + "." + entry.key, expecting: "START:END:STEP")
                    }
                    do throws(ResearchError) {
                        _ = try ParameterRange(name: entry.key, spec: spec)
                    } catch {
                        throw ConfigError(error.description, key: key + "." + entry.key, at: entry.value.origin)
                    }
                    swept.append(SweptParameter(name: entry.key, spec: spec, origin: entry.value.origin))
                }
                return swept
            },
            format: { swept in "{" + swept.map { "\($0.name): \($0.spec)" }.joined(separator: ", ") + "}" })
    }
}

/// One swept parameter as written.
public struct SweptParameter: Hashable, Sendable {
    /// The strategy parameter's key (`fastPeriod`).
    public var name: String
    /// `START:END:STEP` or `v1,v2,…`.
    public var spec: String
    /// Where it was written.
    public var origin: ConfigOrigin
}

/// `walkforward:` the windows of a walk-forward analysis.
public struct WalkforwardSettings: Hashable, Sendable {
    /// In-sample length (`2Y`, `18M`, `500B`).
    public var inSample = "2Y"
    /// Out-of-sample length.
    public var outOfSample = "6M"
    /// Distance between windows (`nil`: the out-of-sample length).
    public var step: String?
    /// Every in-sample window starts at the first bar.
    public var anchored = false

    /// Creates the defaults.
    public init() {}

    /// The schema of the section.
    public static var schema: ConfigSection<WalkforwardSettings> {
        let period = ConfigKind.text.checked { text in
            do throws(ResearchError) { _ = try WindowPeriod(parsing: text) } catch { return error.description }
            return nil
        }
        return ConfigSection([
            .value("inSample", \.inSample, period, summary: "In-sample length: N Y, M, W, D (calendar) or B (bars).", flag: true),
            .value("outOfSample", \.outOfSample, period, summary: "Out-of-sample length.", flag: true),
            .value(
                "step", \.step, period.optional(auto: "auto"),
                summary: "Distance between windows (auto: the out-of-sample length).", flag: true),
            .value("anchored", \.anchored, .boolean, summary: "Every in-sample window starts at the first bar.", flag: true),
        ])
    }
}
