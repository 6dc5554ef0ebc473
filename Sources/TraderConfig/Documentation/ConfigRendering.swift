/// Writes configurations back as YAML: `config show` (every effective value with its source), the commented
/// template of `config init`, and the reference of docs/configuration.md.
public enum ConfigRendering {
    /// Nested YAML of `values`, each line ending in a comment: `port: 4002   # file bot.yaml:3:9`.
    /// The output is itself a valid config.
    public static func yaml(_ values: [ConfigShownValue], comment: (ConfigShownValue) -> String?) -> String {
        var lines: [String] = []
        var open: [String] = []
        for value in values {
            let components = value.path.split(separator: ".").map(String.init)
            let parents = Array(components.dropLast())
            var common = 0
            while common < open.count, common < parents.count, open[common] == parents[common] { common += 1 }
            open.removeLast(open.count - common)
            for component in parents.dropFirst(common) {
                lines.append(String(repeating: "  ", count: open.count) + component + ":")
                open.append(component)
            }
            var line = String(repeating: "  ", count: open.count) + (components.last ?? "") + ": " + value.text
            if let note = comment(value) {
                line = line.padding(toLength: max(line.count, 44), withPad: " ", startingAt: 0) + "  # " + note
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `config show`: every value with its origin (`default`, `file PATH:LINE:COLUMN`, `env NAME`, `flag --x`);
    /// a secret that is set shows as `********` with `set, hidden` (`ConfigSecrets`).
    public static func show(_ loaded: LoadedConfiguration) -> String {
        yaml(loaded.shownValues) { value in
            let origin =
                switch value.origin {
                case .defaultValue: "default"
                case .derived(let reason): "default (\(reason))"
                case .file: "file \(value.origin)"
                case .environment: "env \(value.origin)"
                case .flag(let flag): "flag \(flag)"
                }
            return value.hidden ? "set, hidden: " + origin : origin
        }
    }
}
