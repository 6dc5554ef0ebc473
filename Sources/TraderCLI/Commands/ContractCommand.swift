import ArgumentParser
import TraderKit
import TWSProtocol

/// `ibtrader contract SYMBOL`: the qualified contract(s).
struct ContractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract",
        abstract: "Look up a contract and print its qualified definition(s)."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var contract: ContractOptions

    func run() async throws {
        print(try await connection.withConnection { client, _ in
            try await MarketDataQueries.contractText(client, contract: contract.contract, name: contract.symbol)
        })
    }
}
