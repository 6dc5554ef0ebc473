extension KeyedDecodingContainer {
    /// Decodes a value, or returns `fallback` when the key is absent (config files may omit any setting).
    /// - Throws: `DecodingError` when the key is present but malformed (a bad value is never silently replaced).
    public func decode<T: Decodable>(_ key: Key, default fallback: T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? fallback
    }

    /// Decodes an optional setting: absent → `fallback`, explicit `null` → `nil`.
    /// - Throws: `DecodingError` when the key is present but malformed.
    public func decodeOptional<T: Decodable>(_ key: Key, default fallback: T?) throws -> T? {
        contains(key) ? try decodeIfPresent(T.self, forKey: key) : fallback
    }
}
