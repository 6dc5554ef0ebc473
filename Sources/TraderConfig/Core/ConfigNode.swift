/// A configuration value as written, before it is given a type: a scalar's text, a list or a mapping, each with
/// the place it came from. Files, environment variables and flags all become `ConfigNode`s, so one set of readers
/// checks them all.
public struct ConfigNode: Sendable {
    /// The shape of a value.
    public enum Content: Sendable {
        /// A single value as text (`42`, `60s`, `momentum`).
        case scalar(String)
        /// YAML `null`, `~` or an empty value in a file.
        case null
        /// A list.
        case sequence([ConfigNode])
        /// A mapping, in the order written.
        case mapping([ConfigEntry])
    }

    /// The value.
    public var content: Content
    /// Where it was written.
    public var origin: ConfigOrigin

    /// Creates a node.
    public init(_ content: Content, origin: ConfigOrigin) {
        self.content = content
        self.origin = origin
    }

    /// A scalar.
    public static func scalar(_ text: String, origin: ConfigOrigin) -> ConfigNode {
        ConfigNode(.scalar(text), origin: origin)
    }

    /// An empty mapping.
    public static func emptyMapping(origin: ConfigOrigin) -> ConfigNode { ConfigNode(.mapping([]), origin: origin) }

    /// The scalar's text, if a scalar.
    public var scalar: String? {
        if case .scalar(let text) = content { return text }
        return nil
    }

    /// The entries, if a mapping.
    public var entries: [ConfigEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// The items, if a list.
    public var items: [ConfigNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// `true` for YAML null.
    public var isNull: Bool {
        if case .null = content { return true }
        return false
    }

    /// The value at `key` of a mapping.
    public subscript(key: String) -> ConfigNode? {
        entries?.last { $0.key == key }?.value
    }

    /// What the value is, for messages: `a mapping`, `a list`, `'abc'`.
    public var shapeDescription: String {
        switch content {
        case .scalar(let text): "'\(text)'"
        case .null: "nothing"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    /// Returns this mapping with `value` set at `path` (mappings created as needed; a value in the way replaced).
    /// - Parameters:
    ///   - path: key components, e.g. `["risk", "maxDrawdownPercent"]`.
    ///   - value: the new value.
    public func setting(_ path: ArraySlice<String>, to value: ConfigNode) -> ConfigNode {
        guard let key = path.first else { return value }
        var entries = self.entries ?? []
        let rest = path.dropFirst()
        if let index = entries.lastIndex(where: { $0.key == key }) {
            entries[index].value = rest.isEmpty ? value : entries[index].value.setting(rest, to: value)
        } else {
            let child = rest.isEmpty ? value : ConfigNode.emptyMapping(origin: value.origin).setting(rest, to: value)
            entries.append(ConfigEntry(key: key, keyOrigin: value.origin, value: child))
        }
        return ConfigNode(.mapping(entries), origin: origin)
    }

    /// Returns this mapping with `other`'s keys laid over it, mapping by mapping (a later file over an earlier one).
    public func merging(_ other: ConfigNode) -> ConfigNode {
        guard let theirs = other.entries, entries != nil else { return other }
        var entries = self.entries ?? []
        for entry in theirs {
            if let index = entries.lastIndex(where: { $0.key == entry.key }) {
                let mine = entries[index].value
                let merged = mine.entries != nil && entry.value.entries != nil ? mine.merging(entry.value) : entry.value
                entries[index] = ConfigEntry(key: entry.key, keyOrigin: entry.keyOrigin, value: merged)
            } else {
                entries.append(entry)
            }
        }
        return ConfigNode(.mapping(entries), origin: origin)
    }
}

/// One key of a mapping, with where the key itself was written (for unknown-key errors).
public struct ConfigEntry: Sendable {
    /// The key.
    public var key: String
    /// Where the key was written.
    public var keyOrigin: ConfigOrigin
    /// The value.
    public var value: ConfigNode

    /// Creates an entry.
    public init(key: String, keyOrigin: ConfigOrigin, value: ConfigNode) {
        self.key = key
        self.keyOrigin = keyOrigin
        self.value = value
    }
}
