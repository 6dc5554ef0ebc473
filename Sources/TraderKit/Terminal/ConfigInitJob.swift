import Foundation
import TraderConfig

/// `ibtrader config init`: the commented template for a strategy, printed or written to a new file.
public enum ConfigInitJob {
    /// The template (when `out` is `nil`), or the line saying where it was written.
    /// - Throws: `TraderError` for an unknown strategy or an existing file (never overwritten).
    public static func run(strategy: String, out: String?, catalog: StrategyCatalog) throws(TraderError) -> String {
        guard catalog.entry(named: strategy) != nil else {
            throw TraderError(
                "--strategy must be one of \(catalog.names.joined(separator: ", ")), got '\(strategy)'"
                    + KeySuggestion.phrase(for: strategy, in: catalog.names))
        }
        let text = ConfigTemplate.render(strategy: strategy, catalog: catalog)
        guard let out else { return text }
        guard !FileManager.default.fileExists(atPath: out) else { throw TraderError("\(out) exists; not overwritten") }
        try TextFiles.write(text, to: out)
        return "wrote \(out) (check it with: ibtrader config check \(out))\n"
    }
}
