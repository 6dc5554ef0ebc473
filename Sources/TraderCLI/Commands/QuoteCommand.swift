import ArgumentParser
import TraderKit
import TWSClient
import TWSProtocol

/// `ibtrader quote SYMBOL`: a snapshot of bid, ask, last, volume and the market data type.
struct QuoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quote",
        abstract: "Print a market data snapshot: bid, ask, last, volume, and whether it is live or delayed.",
        discussion: "--timeout bounds the whole exchange: connecting, qualifying the contract and the snapshot."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var contract: ContractOptions

    @Option(name: .customLong("market-data-type"), help: "1 live, 2 frozen, 3 delayed when live is not subscribed, 4 delayed-frozen.")
    var marketDataType: Int = 3

    func validate() throws {
        guard TWSMarketDataType(rawValue: marketDataType) != nil else {
            throw ValidationError("--market-data-type must be 1, 2, 3 or 4")
        }
    }

    func run() async throws {
        let (connection, contract) = (connection, contract)
        let type = TWSMarketDataType(rawValue: marketDataType) ?? .delayed
        print(try await connection.withinTimeout("the \(contract.symbol) snapshot") {
            try await connection.withConnection { client, _ in
                try await MarketDataQueries.quoteText(client, contract: contract.contract, marketDataType: type)
            }
        })
    }
}
