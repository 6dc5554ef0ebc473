/// One key of the schema: how it is decoded into `Root`, shown back and documented. Fields are built with
/// `value(_:_:_:summary:)` for a single value and `section(_:_:_:summary:)` for a nested mapping.
public struct ConfigField<Root> {
    /// The key as written in a file.
    public let key: String
    let decode: (ConfigNode, inout Root, String, inout ConfigRecord) throws(ConfigError) -> Void
    let show: (Root, String, ConfigRecord) -> [ConfigShownValue]
    let describe: (Root, String) -> [ConfigKeyInfo]

    /// A field from its three parts (for keys with a shape of their own).
    public init(
        key: String,
        decode: @escaping (ConfigNode, inout Root, String, inout ConfigRecord) throws(ConfigError) -> Void,
        show: @escaping (Root, String, ConfigRecord) -> [ConfigShownValue],
        describe: @escaping (Root, String) -> [ConfigKeyInfo]
    ) {
        self.key = key
        self.decode = decode
        self.show = show
        self.describe = describe
    }

    /// A key holding one value of `kind`.
    /// - Parameters:
    ///   - key: the key.
    ///   - keyPath: where the value goes.
    ///   - kind: how it is read and written.
    ///   - summary: one sentence for the docs and the template.
    ///   - flag: whether the commands that use the key take it as `--<key in kebab case>`.
    ///   - flagName: the flag when it differs (a list key's repeatable flag is its singular: `--constraint`).
    ///   - secret: a password, a token or a URL that is one: `config show` prints `********` when it is set.
    public static func value<Value>(
        _ key: String, _ keyPath: WritableKeyPath<Root, Value>, _ kind: ConfigKind<Value>, summary: String,
        flag: Bool = false, flagName: String? = nil, secret: Bool = false
    ) -> ConfigField<Root> {
        ConfigField(
            key: key,
            decode: { (node, root, path, record) throws(ConfigError) in
                root[keyPath: keyPath] = try kind.read(node, path)
                record.origins[path] = node.origin
            },
            show: { root, path, record in
                let text = kind.format(root[keyPath: keyPath])
                guard secret, text != "none" else {
                    return [ConfigShownValue(
                        path: path, text: ConfigSecrets.maskingCredentials(in: text), origin: record.origin(of: path))]
                }
                return [ConfigShownValue(path: path, text: ConfigSecrets.mask, origin: record.origin(of: path), hidden: true)]
            },
            describe: { defaults, path in
                [ConfigKeyInfo(
                    path: path, summary: summary, allowed: kind.allowed, defaultText: kind.format(defaults[keyPath: keyPath]),
                    flag: flagName ?? (flag ? ConfigKeyInfo.flagName(for: key) : nil))]
            })
    }

    /// A key holding a mapping of its own keys.
    public static func section<Sub>(
        _ key: String, _ keyPath: WritableKeyPath<Root, Sub>, _ section: ConfigSection<Sub>, summary: String
    ) -> ConfigField<Root> {
        ConfigField(
            key: key,
            decode: { (node, root, path, record) throws(ConfigError) in
                try section.decode(node, into: &root[keyPath: keyPath], path: path, record: &record)
            },
            show: { root, path, record in section.show(root[keyPath: keyPath], path: path, record: record) },
            describe: { defaults, path in
                [ConfigKeyInfo(path: path, summary: summary, allowed: "a mapping", defaultText: "", isSection: true)]
                    + section.describe(defaults[keyPath: keyPath], path: path)
            })
    }
}

/// A mapping of fields: decoding rejects keys it does not know (suggesting the nearest), then reads each known key
/// present, then runs the cross-key checks.
public struct ConfigSection<Root> {
    /// The keys, in the order the docs and `config show` list them.
    public var fields: [ConfigField<Root>]
    /// Checks between keys (e.g. the slow period above the fast one), after every key is read.
    public var validate: ((Root, ConfigRecord, String) throws(ConfigError) -> Void)?

    /// Creates a section.
    public init(
        _ fields: [ConfigField<Root>], validate: ((Root, ConfigRecord, String) throws(ConfigError) -> Void)? = nil
    ) {
        self.fields = fields
        self.validate = validate
    }

    /// The keys.
    public var keys: [String] { fields.map(\.key) }

    /// Decodes `node` (a mapping, or null for "nothing set") over `root`.
    /// - Parameters:
    ///   - node: the mapping as written.
    ///   - root: the value with its defaults, updated in place.
    ///   - path: the section's key path (`risk`), empty at the top.
    ///   - record: where each value came from, updated.
    public func decode(
        _ node: ConfigNode, into root: inout Root, path: String, record: inout ConfigRecord
    ) throws(ConfigError) {
        if node.isNull { return }
        guard let entries = node.entries else {
            throw ConfigError(
                "expected a mapping of keys (\(keys.joined(separator: ", "))), got \(node.shapeDescription)",
                key: path, at: node.origin)
        }
        let keys = self.keys
        for entry in entries where !keys.contains(entry.key) {
            let suggestion = KeySuggestion.nearest(to: entry.key, in: keys)
            let hint = suggestion.map { "did you mean '\($0)'?" } ?? "known keys: \(keys.joined(separator: ", "))"
            throw ConfigError("unknown key; \(hint)", key: Self.join(path, entry.key), at: entry.keyOrigin)
        }
        for field in fields {
            guard let value = node[field.key] else { continue }
            try field.decode(value, &root, Self.join(path, field.key), &record)
        }
        try validate?(root, record, path)
    }

    /// Every value, with where it came from.
    public func show(_ root: Root, path: String, record: ConfigRecord) -> [ConfigShownValue] {
        fields.flatMap { $0.show(root, Self.join(path, $0.key), record) }
    }

    /// Every key, with its default taken from `defaults`.
    public func describe(_ defaults: Root, path: String) -> [ConfigKeyInfo] {
        fields.flatMap { $0.describe(defaults, Self.join(path, $0.key)) }
    }

    /// `a.b`, or `b` at the top.
    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
}

/// Where each value of a decoded configuration came from.
public struct ConfigRecord: Sendable {
    /// Origin by key path; keys not listed hold their defaults.
    public var origins: [String: ConfigOrigin] = [:]

    /// Creates an empty record.
    public init() {}

    /// The origin of `path`'s value (the default when it was not set).
    public func origin(of path: String) -> ConfigOrigin { origins[path] ?? .defaultValue }
}

/// One effective value, for `config show`.
public struct ConfigShownValue: Hashable, Sendable {
    /// The key path.
    public var path: String
    /// The value as YAML.
    public var text: String
    /// Where it came from.
    public var origin: ConfigOrigin
    /// A secret that is set, shown as `ConfigSecrets.mask`.
    public var hidden = false
}

/// One key, for the docs and the template.
public struct ConfigKeyInfo: Hashable, Sendable {
    /// The key path.
    public var path: String
    /// What it does.
    public var summary: String
    /// What it accepts.
    public var allowed: String
    /// Its default, as YAML.
    public var defaultText: String
    /// The flag that sets it, if any (`--slow-period`).
    public var flag: String?
    /// A mapping of further keys rather than a value.
    public var isSection = false

    /// `slowPeriod` → `--slow-period`.
    public static func flagName(for key: String) -> String {
        var name = "--"
        for character in key {
            if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }

    /// The key as a user writes it: a built-in strategy's parameter is documented under its strategy
    /// (`strategy.parameters.sma-cross.sizing`) but set without it (`strategy.parameters.sizing`).
    public var settablePath: String {
        let parts = path.split(separator: ".")
        guard parts.count == 4, parts[0] == "strategy", parts[1] == "parameters" else { return path }
        return "strategy.parameters.\(parts[3])"
    }

    /// The environment variable that overrides the key: `IBTRADER_CONNECTION_CLIENT_ID`.
    public var environmentName: String {
        "IBTRADER_" + path.split(separator: ".").map { component in
            var word = ""
            for character in component {
                if character.isUppercase, !word.isEmpty { word += "_" }
                word += character.uppercased()
            }
            return word
        }.joined(separator: "_")
    }
}
