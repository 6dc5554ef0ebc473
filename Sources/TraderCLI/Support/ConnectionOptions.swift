import ArgumentParser
import TraderKit
import Foundation
import Logging
import TWSClient
import TWSProtocol
import TraderConfig

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
        get throws(ConfigError) {
            guard let port else { return 7497 }
            return try ConfigKind.integer(1...65_535).read(.scalar(port, origin: .flag("--port")), "connection.port")
        }
    }

    private var checkedClientID: Int {
        get throws(ConfigError) {
            guard let clientID else { return 901 }
            return try ConfigKind.integer(0...2_147_483_647).read(
                .scalar(clientID, origin: .flag("--client-id")), "connection.clientId")
        }
    }

    private var checkedTimeout: Duration {
        get throws(ConfigError) {
            let seconds = try ConfigKind.number(.above(0, atMost: 3600)).read(
                .scalar(timeout, origin: .flag("--timeout")), "timeout")
            return .milliseconds(Int64((seconds * 1000).rounded()))
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

    /// Connects, runs `body`, disconnects; connection errors become one clear line.
    func withConnection<Result: Sendable>(
        _ configuration: TWSConnectionConfiguration? = nil,
        _ body: (TWSConnection, TWSSessionInfo) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "ibtrader.tws")
        logger.logLevel = ProcessInfo.processInfo.environment["IBTRADER_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        do {
            return try await TWSConnection.connect(
                configuration ?? self.configuration, environment: TWSConnectionEnvironment(logger: logger), body)
        } catch let error as TWSConnectionError {
            throw CLIError("\(error)")
        } catch let error as TWSRequestError {
            throw CLIError("\(error)")
        }
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

extension TWSConnection {
    /// Qualifies a contract: exactly one match, or a clear error (none, or ambiguous with the candidates listed).
    func qualify(_ contract: TWSContract) async throws -> TWSContractDetails {
        let details: [TWSContractDetails]
        do {
            details = try await contractDetails(contract)
        } catch {
            throw CLIError("\(contract.symbol): \(error)")
        }
        guard let first = details.first else {
            throw CLIError("\(contract.symbol): no security definition found (\(contract.securityType) \(contract.exchange) \(contract.currency))")
        }
        guard details.count == 1 else {
            let candidates = details.map { "\($0.contract.symbol) conId \($0.contract.contractID) \($0.contract.primaryExchange)" }
            throw CLIError("\(contract.symbol) is ambiguous; use --primary-exchange. Candidates: \(candidates.joined(separator: "; "))")
        }
        return first
    }
}
