internal import Yams

/// Reads YAML (and JSON, which is YAML) into `ConfigNode`s that remember each value's line and column.
public enum ConfigText {
    /// The most values one file may hold once aliases are expanded (an alias bomb is refused, not walked).
    public static let maximumValues = 100_000
    /// The deepest nesting accepted.
    public static let maximumDepth = 32

    /// Parses a file's text.
    /// - Parameters:
    ///   - text: YAML or JSON.
    ///   - path: the file, named in errors and origins.
    /// - Returns: the root value; `nil` for a file without a document (empty, or comments only).
    /// - Throws: `ConfigError` with the line and column of a syntax error.
    public static func parse(_ text: String, path: String) throws(ConfigError) -> ConfigNode? {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw syntaxError(error, path: path)
        } catch {
            throw ConfigError("not valid YAML or JSON", at: .file(path: path, line: 1, column: 1))
        }
        guard let root else { return nil }
        var budget = maximumValues
        return try convert(root, path: path, depth: 0, budget: &budget)
    }

    /// Parses a value given on the command line or in the environment: a flow list or mapping (`[A, B]`,
    /// `{riskBased: {riskPercent: 1, atrMultiple: 2}}`) is parsed as YAML; anything else is taken as written.
    /// - Parameters:
    ///   - text: the value.
    ///   - origin: the flag or variable.
    public static func value(_ text: String, origin: ConfigOrigin) throws(ConfigError) -> ConfigNode {
        let trimmed = text.drop { $0 == " " }
        guard trimmed.first == "{" || trimmed.first == "[" else { return .scalar(text, origin: origin) }
        let parsed: ConfigNode?
        do {
            parsed = try parse(text, path: "")
        } catch {
            throw ConfigError("not a valid YAML list or mapping: \(error.message)", at: origin)
        }
        guard let parsed else { return .scalar(text, origin: origin) }
        return relabel(parsed, origin: origin)
    }

    private static func relabel(_ node: ConfigNode, origin: ConfigOrigin) -> ConfigNode {
        switch node.content {
        case .scalar, .null: return ConfigNode(node.content, origin: origin)
        case .sequence(let items): return ConfigNode(.sequence(items.map { relabel($0, origin: origin) }), origin: origin)
        case .mapping(let entries):
            return ConfigNode(
                .mapping(entries.map { ConfigEntry(key: $0.key, keyOrigin: origin, value: relabel($0.value, origin: origin)) }),
                origin: origin)
        }
    }

    private static func origin(_ node: Node, path: String) -> ConfigOrigin {
        .file(path: path, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    private static func convert(_ node: Node, path: String, depth: Int, budget: inout Int) throws(ConfigError) -> ConfigNode {
        let here = origin(node, path: path)
        budget -= 1
        guard budget >= 0 else {
            throw ConfigError(
                "more than \(maximumValues) values once aliases are expanded; a configuration is never this large",
                at: here)
        }
        guard depth <= maximumDepth else { throw ConfigError("nested more than \(maximumDepth) levels deep", at: here) }
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain, node.null != nil { return ConfigNode(.null, origin: here) }
            return .scalar(scalar.string, origin: here)
        case .alias:
            throw ConfigError("an alias that points nowhere", at: here)
        case .sequence(let sequence):
            var items: [ConfigNode] = []
            for item in sequence { items.append(try convert(item, path: path, depth: depth + 1, budget: &budget)) }
            return ConfigNode(.sequence(items), origin: here)
        case .mapping(let mapping):
            var entries: [ConfigEntry] = []
            for (keyNode, value) in mapping {
                guard case .scalar(let key) = keyNode else {
                    throw ConfigError("a key must be a plain word, not a list or mapping", at: origin(keyNode, path: path))
                }
                if key.string == "<<" {
                    throw ConfigError("YAML merge keys (<<) are not supported; write the keys out", at: origin(keyNode, path: path))
                }
                entries.append(ConfigEntry(
                    key: key.string, keyOrigin: origin(keyNode, path: path),
                    value: try convert(value, path: path, depth: depth + 1, budget: &budget)))
            }
            return ConfigNode(.mapping(entries), origin: here)
        }
    }

    private static func syntaxError(_ error: YamlError, path: String) -> ConfigError {
        func at(_ mark: Mark) -> ConfigOrigin { .file(path: path, line: mark.line, column: mark.column) }
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return ConfigError("not valid YAML: \(problem)", at: at(mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return ConfigError("the key \(keys) is written twice in one mapping", at: at(context.mark))
        case .reader(let problem, let offset, _, _):
            return ConfigError(
                "not valid text\(offset.map { " at byte \($0)" } ?? ""): \(problem)",
                at: .file(path: path, line: 1, column: 1))
        default:
            return ConfigError("not valid YAML or JSON", at: .file(path: path, line: 1, column: 1))
        }
    }
}
