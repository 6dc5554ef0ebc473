import Foundation
import Logging
import TWSClient
import TraderConfig
import TWSProtocol

/// A connection for the diagnostic and manual commands, and the checks of their connection flags.
public enum TWSSession {
    /// Connects, runs `body`, disconnects; connection errors become one clear line. `IBTRADER_LOG_LEVEL` sets the
    /// client's log level (default: warnings).
    public static func with<Result: Sendable>(
        _ configuration: TWSConnectionConfiguration, _ body: (TWSConnection, TWSSessionInfo) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "ibtrader.tws")
        logger.logLevel = ProcessInfo.processInfo.environment["IBTRADER_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        do {
            return try await TWSConnection.connect(configuration, environment: TWSConnectionEnvironment(logger: logger), body)
        } catch let error as TWSConnectionError {
            throw TraderError("\(error)")
        } catch let error as TWSRequestError {
            throw TraderError("\(error)")
        }
    }

    /// A flag's value read like the config key it stands for: `--port` as `connection.port` (1…65535).
    public static func value<Value>(
        _ text: String?, flag: String, key: String, _ kind: ConfigKind<Value>, default fallback: Value
    ) throws(ConfigError) -> Value {
        guard let text else { return fallback }
        return try kind.read(.scalar(text, origin: .flag(flag)), key)
    }
}
