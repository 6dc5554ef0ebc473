import ArgumentParser
import TraderKit
import TWSClient
import TWSProtocol

/// `ibtrader quote SYMBOL`: a snapshot of bid, ask, last, volume and the market data type.
struct QuoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quote",
        abstract: "Print a market data snapshot: bid, ask, last, volume, and whether it is live or delayed."
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
        let (details, snapshot) = try await connection.withConnection { client, _ in
            let details = try await client.qualify(contract.contract)
            do {
                try await client.setMarketDataType(TWSMarketDataType(rawValue: marketDataType) ?? .delayed)
                return (details, try await client.marketDataSnapshot(contract: details.contract))
            } catch {
                throw CLIError("\(contract.symbol): \(error)")
            }
        }
        func price(_ live: TWSTickType, _ delayed: TWSTickType) -> String {
            (snapshot.prices[live] ?? snapshot.prices[delayed]).map { $0 > 0 ? String($0) : "–" } ?? "–"
        }
        func size(_ live: TWSTickType, _ delayed: TWSTickType) -> String {
            (snapshot.sizes[live] ?? snapshot.sizes[delayed]).map { "\($0)" } ?? "–"
        }
        print("symbol: \(details.contract.symbol) (conId \(details.contract.contractID))")
        print("bid: \(price(.bid, .delayedBid)) x \(size(.bidSize, .delayedBidSize))")
        print("ask: \(price(.ask, .delayedAsk)) x \(size(.askSize, .delayedAskSize))")
        print("last: \(price(.last, .delayedLast)) x \(size(.lastSize, .delayedLastSize))")
        print("volume: \(size(.volume, .delayedVolume))")
        print("close: \(price(.close, .delayedClose))")
        let kinds = [1: "live", 2: "frozen", 3: "delayed", 4: "delayed-frozen"]
        let type = snapshot.marketDataType ?? (snapshot.prices.keys.contains { $0.rawValue >= 66 } ? 3 : 1)
        print("market data type: \(type) (\(kinds[type] ?? "unknown"))")
        for notice in snapshot.notices { print("notice: \(notice)") }
    }
}
