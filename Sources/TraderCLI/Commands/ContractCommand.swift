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
        let details = try await connection.withConnection { client, _ in
            do {
                return try await client.contractDetails(contract.contract)
            } catch {
                throw CLIError("\(contract.symbol): \(error)")
            }
        }
        guard !details.isEmpty else {
            throw CLIError("\(contract.symbol): no security definition found")
        }
        print(MarketDataQueries.contractText(details))
    }
}
