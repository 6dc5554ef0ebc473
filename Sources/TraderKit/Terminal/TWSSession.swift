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

    /// The connection flags of a diagnostic or manual command, checked: `--port` as `connection.port`, `--client-id`
    /// (default 901, so a bot on the config's client id is not disturbed), `--timeout` seconds (above 0, ≤ 3600).
    public struct Flags: Sendable {
        public var host: String?
        public var port: Int
        public var clientID: Int
        public var timeout: Duration

        /// Checks the flags' texts.
        public init(host: String?, port: String?, clientID: String?, timeout: String) throws(ConfigError) {
            self.host = host
            self.port = try value(port, flag: "--port", key: "connection.port", .integer(1...65_535), default: 7497)
            self.clientID = try value(
                clientID, flag: "--client-id", key: "connection.clientId", .integer(0...2_147_483_647), default: 901)
            let seconds = try value(timeout, flag: "--timeout", key: "timeout", .number(.above(0, atMost: 3600)), default: 15)
            self.timeout = .milliseconds(Int64((seconds * 1000).rounded()))
        }

        /// The connection they describe; the timeout bounds the connection and each answer.
        public var configuration: TWSConnectionConfiguration {
            var configuration = TWSConnectionConfiguration(host: host ?? "127.0.0.1", port: port, clientID: clientID)
            configuration.readyTimeout = timeout
            configuration.requestTimeout = timeout
            return configuration
        }

        /// Runs a whole exchange within the timeout; past it, one clear line naming `--timeout`.
        public func withinTimeout<Result: Sendable>(
            _ what: String, _ exchange: @escaping @Sendable () async throws -> Result
        ) async throws -> Result {
            do {
                return try await withTimeLimit(timeout, waitingFor: what, exchange)
            } catch let error as TWSRequestError {
                throw TraderError("\(error) (--timeout \(timeout) bounds the whole exchange)")
            }
        }
    }
}
