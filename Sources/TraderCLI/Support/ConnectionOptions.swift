import ArgumentParser
import Foundation
import LiveSession
import TraderConfig
import TraderKit
import TWSClient
import TWSProtocol
import TradingModel

/// `--host --port --client-id --timeout`, shared by every command that talks to TWS / IB Gateway. `--host` and
/// `--port` set `connection.host` and `connection.port` (over a `--config` file, for the commands that read one);
/// the client id is the command's own, so a bot on the config's client id is not disturbed.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .long, help: "TWS / IB Gateway host (key connection.host; default 127.0.0.1).") var host: String?

    @Option(name: .long, parsing: .unconditional, help: "API port: 7497 paper TWS (default), 4002 paper gateway, 7496/4001 live (key connection.port).")
    var port: String?

    @Option(name: .customLong("client-id"), parsing: .unconditional, help: "API client id of this command; unique per connection (default 901).")
    var clientID: String?

    @Option(name: .long, parsing: .unconditional, help: "Seconds to wait for the connection and for each answer (above 0, at most 3600).")
    var timeout: String = "15"

    func validate() throws { _ = try flags }

    /// The flags, checked.
    var flags: TWSSession.Flags {
        get throws(ConfigError) { try TWSSession.Flags(host: host, port: port, clientID: clientID, timeout: timeout) }
    }

    /// `--host` and `--port` as configuration overrides.
    var overrides: [ConfigOverride] {
        [override("connection.host", host), override("connection.port", port)].compactMap { $0 }
    }

    var clientIDValue: Int { (try? flags.clientID) ?? 901 }
    var timeoutValue: Duration { (try? flags.timeout) ?? .seconds(15) }
    var configuration: TWSConnectionConfiguration {
        (try? flags.configuration) ?? TWSConnectionConfiguration(host: "127.0.0.1", port: 7497, clientID: 901)
    }

    /// Runs a whole exchange within `--timeout`.
    func withinTimeout<Result: Sendable>(
        _ what: String, _ exchange: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        try await flags.withinTimeout(what, exchange)
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
    @Argument(
        help: ArgumentHelp(
            "The symbol: AAPL, a futures contract month ('ES 2026-12', ESZ6), a continuous future ('ES continuous': "
                + "the month the bot trades today) or a currency pair (EUR.USD)."))
    var symbol: String

    @Option(name: .customLong("sec-type"), help: "Security type.") var securityType: String = "STK"

    @Option(name: .long, help: "Exchange.") var exchange: String = "SMART"

    @Option(name: .long, help: "Currency.") var currency: String = "USD"

    @Option(name: .customLong("primary-exchange"), help: "Primary exchange, to disambiguate (e.g. NASDAQ).")
    var primaryExchange: String = ""

    /// A name that looks like a future but is not one (`ES 2026-02`, `XX 2026-12`) is refused with the reason.
    func validate() throws {
        do { _ = try InstrumentKind.checked(symbol) } catch { throw ValidationError(error.description) }
    }

    /// The contract asked for: a future or a pair as its name says (`ContractBook.contract(named:)`), otherwise the
    /// symbol with the security type, exchange and currency given.
    var contract: TWSContract {
        if securityType.uppercased() == "STK", let named = ContractBook.contract(named: symbol) { return named }
        return TWSContract(
            symbol: symbol.uppercased(), securityType: securityType, exchange: exchange,
            primaryExchange: primaryExchange, currency: currency)
    }
}
