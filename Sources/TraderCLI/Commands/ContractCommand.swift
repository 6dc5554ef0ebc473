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
        for (index, detail) in details.enumerated() {
            if index > 0 { print("") }
            let c = detail.contract
            print("symbol: \(c.symbol)")
            print("conId: \(c.contractID)")
            print("type: \(c.securityType)")
            print("exchange: \(c.exchange)")
            print("primary exchange: \(c.primaryExchange)")
            print("currency: \(c.currency)")
            print("local symbol: \(c.localSymbol)")
            print("long name: \(TWSText.unescapingUnicode(detail.longName))")
            print("min tick: \(detail.minTick)")
            if !detail.industry.isEmpty { print("industry: \(detail.industry) / \(detail.category)") }
            if !detail.timeZoneID.isEmpty { print("time zone: \(detail.timeZoneID)") }
            if !detail.tradingHours.isEmpty { print("trading hours: \(detail.tradingHours)") }
            if !detail.liquidHours.isEmpty { print("liquid hours: \(detail.liquidHours)") }
        }
    }
}
