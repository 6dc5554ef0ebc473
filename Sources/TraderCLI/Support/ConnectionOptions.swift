import ArgumentParser
import Foundation
import Logging
import TWSClient
import TWSProtocol

/// `--host --port --client-id --timeout`, shared by every command that talks to TWS / IB Gateway.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: "TWS / IB Gateway host.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "API port: 7497 paper TWS (default), 4002 paper gateway, 7496/4001 live.")
    var port: Int = 7497

    @Option(name: .customLong("client-id"), help: "API client id; unique per connection.")
    var clientID: Int = 901

    @Option(name: .long, help: "Seconds to wait for the connection and for each answer.")
    var timeout: Double = 15

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be 1...65535, got \(port)") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    var configuration: TWSConnectionConfiguration {
        var configuration = TWSConnectionConfiguration(host: host, port: port, clientID: clientID)
        configuration.readyTimeout = .milliseconds(Int(timeout * 1000))
        configuration.requestTimeout = .milliseconds(Int(timeout * 1000))
        return configuration
    }

    /// Runs a whole exchange (`withConnection` and what it does) within `--timeout`; past it, one clear line.
    func withinTimeout<Result: Sendable>(
        _ what: String, _ exchange: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        // Flag ranges are checked by the config work (issue #24); a year is beyond any sensible wait.
        let seconds = min(timeout, 365 * 86_400)
        do {
            return try await withTimeLimit(.milliseconds(Int64(seconds * 1000)), waitingFor: what, exchange)
        } catch let error as TWSRequestError {
            throw CLIError("\(error) (--timeout \(timeout) s bounds the whole exchange)")
        }
    }

    /// Connects, runs `body`, disconnects; connection errors become one clear line.
    func withConnection<Result: Sendable>(
        _ body: (TWSConnection, TWSSessionInfo) async throws -> Result
    ) async throws -> Result {
        var logger = Logger(label: "ibtrader.tws")
        logger.logLevel = ProcessInfo.processInfo.environment["IBTRADER_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        do {
            return try await TWSConnection.connect(configuration, environment: TWSConnectionEnvironment(logger: logger), body)
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
