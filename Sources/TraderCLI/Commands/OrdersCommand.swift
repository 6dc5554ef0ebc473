import ArgumentParser
import InteractiveBrokers
import TraderKit

/// `ibtrader orders`: the account's open orders (every client's, and TWS's own).
struct OrdersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orders",
        abstract: "List the account's open orders (all API clients and TWS; reqAllOpenOrders)."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var manual: ManualOptions

    func run() async throws { try await perform().emit() }

    /// The lines to print.
    func perform() async throws -> ManualCommandOutput {
        let context = try ManualContext(connection: connection, manual: manual, journaling: false)
        let orders = try await context.run { client, info, settings in
            try await ManualTrading.openOrders(on: client, info: info, settings: settings)
        }
        return ManualCommandOutput(lines: ManualListing.orders(orders, json: manual.json))
    }
}
