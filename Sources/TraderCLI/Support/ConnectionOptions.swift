import ArgumentParser
import Foundation
import TraderConfig
import TraderKit
import TWSClient
import TWSProtocol

/// `--host --port --client-id --timeout`, shared by every command that talks to TWS / IB Gateway. `--host` and
/// `--port` set `connection.host` and `connection.port` (over a `--config` file, for the commands that read one);
/// the client id is the command's own, so a bot on the config's client id is not disturbed.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: "TWS / IB Gateway host (key connection.host; default 127.0.0.1).")
    var host: String?

    @Option(name: .long, parsing: .unconditional, help: "API port: 7497 paper TWS (default), 4002 paper gateway, 7496/4001 live (key connection.port).")
    var port: String?

    @Option(name: .customLong("client-id"), parsing: .unconditional, help: "API client id of this command; unique per connection (default 901).")
    var clientID: String?

    @Option(name: .long, parsing: .unconditional, help: "Seconds to wait for the connection and for each answer (above 0, at most 3600).")
    var timeout: String = "15"

    func validate() throws {
        _ = try checkedPort
        _ = try checkedClientID
        _ = try checkedTimeout
    }

    private var checkedPort: Int {
        get throws(ConfigError) { try TWSSession.value(port, flag: "--port", key: "connection.port", .integer(1...65_535), default: 7497) }
    }

    private var checkedClientID: Int {
        get throws(ConfigError) {
            try TWSSession.value(clientID, flag: "--client-id", key: "connection.clientId", .integer(0...2_147_483_647), default: 901)
        }
    }

    private var checkedTimeout: Duration {
        get throws(ConfigError) {
            .milliseconds(Int64((try TWSSession.value(timeout, flag: "--timeout", key: "timeout", .number(.above(0, atMost: 3600)), default: 15) * 1000).rounded()))
        }
    }

    /// `--host` and `--port` as configuration overrides.
    var overrides: [ConfigOverride] {
        [override("connection.host", host), override("connection.port", port)].compactMap { $0 }
    }

    /// The command's client id.
    var clientIDValue: Int { (try? checkedClientID) ?? 901 }

    /// How long the connection and each answer may take.
    var timeoutValue: Duration { (try? checkedTimeout) ?? .seconds(15) }

    var configuration: TWSConnectionConfiguration {
        var configuration = TWSConnectionConfiguration(
            host: host ?? "127.0.0.1", port: (try? checkedPort) ?? 7497, clientID: clientIDValue)
        configuration.readyTimeout = timeoutValue
        configuration.requestTimeout = timeoutValue
        return configuration
    }

    /// Runs a whole exchange (`withConnection` and what it does) within `--timeout`; past it, one clear line.
    func withinTimeout<Result: Sendable>(
        _ what: String, _ exchange: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        do {
            return try await withTimeLimit(timeoutValue, waitingFor: what, exchange)
        } catch let error as TWSRequestError {
            throw CLIError("\(error) (--timeout \(timeoutValue) bounds the whole exchange)")
        }
    }

    /// Connects, runs `body`, disconnects; connection errors become one clear line.
    func withConnection<Result: Sendable>(
        _ configuration: TWSConnectionConfiguration? = nil, _ body: (TWSConnection, TWSSessionInfo) async throws -> Result
    ) async throws -> Result {
        try await TWSSession.with(configuration ?? self.configuration, body)
    }
}

/// `SYMBOL --sec-type --exchange --currency --primary-exchange`: a contract to qualify.
struct ContractOptions: ParsableArguments {
    @Argument(help: "The symbol, e.g. AAPL.")
    var symbol: String

    @Option(name: .customLong("sec-type"), help: "Security type.")
    var securityType: String = "STK"

    @Option(name: .long, help: "Exchange.")
    var exchange: String = "SMART"

    @Option(name: .long, help: "Currency.")
    var currency: String = "USD"

    @Option(name: .customLong("primary-exchange"), help: "Primary exchange, to disambiguate (e.g. NASDAQ).")
    var primaryExchange: String = ""

    var contract: TWSContract {
        TWSContract(
            symbol: symbol.uppercased(), securityType: securityType, exchange: exchange,
            primaryExchange: primaryExchange, currency: currency)
    }
}
