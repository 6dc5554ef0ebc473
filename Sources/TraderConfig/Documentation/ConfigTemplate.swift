/// The commented template `ibtrader config init` writes: every key of every section with its default, what it
/// does and what it accepts. Keys that are off by default are commented out; the file validates as written.
public enum ConfigTemplate {
    /// The template for `strategy` (its parameters filled in with their defaults).
    /// - Parameters:
    ///   - strategy: a strategy of `catalog`.
    ///   - catalog: the strategies known.
    public static func render(strategy: String, catalog: StrategyCatalog) -> String {
        var configuration = TraderConfiguration(catalog: catalog)
        if let entry = catalog.entry(named: strategy) { configuration.strategy.choice = entry.defaults }
        var keys = TraderConfiguration.schema(catalog: catalog).describe(configuration, path: "")
        keys.removeAll { $0.path.hasPrefix("strategy.parameters") }
        var lines = [
            "# ibtrader configuration (docs/configuration.md). Every key shows its default; change what you need.",
            "# Check it with: ibtrader config check FILE   Print what a command will use: ibtrader config show --config FILE",
            "# Every key can be overridden by IBTRADER_<SECTION>_<KEY> (a .env file next to this one is read too)",
            "# and by the flag named after it (--slow-period for strategy.parameters.slowPeriod).",
        ]
        for key in keys {
            let components = key.path.split(separator: ".").map(String.init)
            if components.count == 1 {
                lines.append("")
                lines.append("# \(key.summary)")
                lines.append("\(key.path):")
                continue
            }
            let indent = String(repeating: "  ", count: components.count - 1)
            // The allocator's settings are off with it (they apply only with `allocator: performance`).
            let isAllocation = key.path.hasPrefix("strategy.allocation")
            if key.isSection {
                lines.append("\(indent)\(isAllocation ? "# " : "")\(components.last ?? ""):  # \(key.summary)")
                continue
            }
            var value = key.defaultText
            if key.path == "universe.symbols" { value = "[AAPL, MSFT]" }
            let isOff = (["none", "auto", "[]", "{}"].contains(value) && key.path != "universe.symbols") || isAllocation
            var line = "\(indent)\(isOff ? "# " : "")\(components.last ?? ""): \(value)"
            line = line.padding(toLength: max(line.count, 40), withPad: " ", startingAt: 0)
            lines.append(line + "  # \(key.summary) (\(key.allowed))")
            if key.path == "strategy.cash" {
                lines.append("  parameters:  # \(strategy)'s own keys; only those written change its defaults")
                for parameter in catalog.entry(named: strategy)?.describe(path: "strategy.parameters") ?? [] {
                    guard !parameter.isSection else { continue }
                    let name = parameter.path.split(separator: ".").last.map(String.init) ?? parameter.path
                    let off = parameter.defaultText == "none"
                    var parameterLine = "    \(off ? "# " : "")\(name): \(parameter.defaultText)"
                    parameterLine = parameterLine.padding(toLength: max(parameterLine.count, 40), withPad: " ", startingAt: 0)
                    lines.append(parameterLine + "  # \(parameter.summary) (\(parameter.allowed))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
