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
        show(loaded.shownValues)
    }

    /// `config check`: the verdict, then what the files, the environment and the flags set, with the defaults that
    /// follow from them (`default (momentum: strategy.parameters.holdings)`), and how many keys are left at their
    /// plain defaults; every key with `all` (as `config show`).
    /// - Parameters:
    ///   - loaded: the checked configuration.
    ///   - files: the files as the user named them (the first line names them).
    ///   - all: every key, defaults included.
    /// - Returns: the text to print, ending in a newline.
    public static func check(_ loaded: LoadedConfiguration, files: [String], all: Bool) -> String {
        let head = "# \(files.joined(separator: ", ")): valid. "
        guard !all else { return head + "The effective configuration:\n" + show(loaded) }
        let set = loaded.shownValues.filter { value in
            if case .defaultValue = value.origin { false } else { true }
        }
        let left = loaded.shownValues.count - set.count
        let tail = "# \(left) other key\(left == 1 ? " is" : "s are") at \(left == 1 ? "its default" : "their defaults")"
            + " (--all prints every key with its source)\n"
        let explicit = set.contains { value in
            if case .derived = value.origin { false } else { true }
        }
        guard !set.isEmpty else { return head + "It sets no key: every key is at its default.\n" + tail }
        guard explicit else { return head + "It sets no key; the defaults that follow from others:\n" + show(set) + tail }
        return head + "What it sets, and the defaults that follow from it:\n" + show(set) + tail
    }

    private static func show(_ values: [ConfigShownValue]) -> String {
        yaml(values) { value in
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
