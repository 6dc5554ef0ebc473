/// A configuration value that cannot be used, said for the person who wrote it: where (file:line:column, the
/// environment variable or the flag), which key, what is wrong and what is allowed.
///
/// ```text
/// run.yaml:14:5: strategy.parameters.slowPeriodz: unknown key; did you mean 'slowPeriod'?
/// IBTRADER_CONNECTION_PORT (environment): connection.port: must be an integer from 1 to 65535, got '70000'
/// ```
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the offending value (or key) was written; `nil` when it is the whole configuration.
    public var origin: ConfigOrigin?
    /// The dotted key path (`risk.maxDrawdownPercent`); empty for the file as a whole.
    public var key: String
    /// What is wrong and what is allowed.
    public var message: String

    /// Creates an error.
    public init(_ message: String, key: String = "", at origin: ConfigOrigin? = nil) {
        self.origin = origin
        self.key = key
        self.message = message
    }

    public var description: String {
        var text = ""
        if let origin { text += "\(origin): " }
        if !key.isEmpty { text += "\(key): " }
        return text + message
    }
}
