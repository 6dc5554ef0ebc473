import ArgumentParser
import InteractiveBrokers
import TraderKit

/// `ibtrader orders`: the account's open orders (every client's, and TWS's own).
struct OrdersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orders",
        abstract: "List the account's open orders (all API clients and TWS; reqAllOpenOrders).",
        discussion: "With a journal (journal.path, when the file exists), manual orders it still has working that TWS no "
            + "longer lists are looked up among today's completed orders and executions and journaled final, or "
            + "journaled as unknown with what to check."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var manual: ManualOptions

    func run() async throws { try await perform().emit() }

    /// The lines to print.
    func perform() async throws -> ManualCommandOutput {
        let context = try ManualContext(connection: connection, manual: manual, journaling: false, journalIfPresent: true)
        let (orders, resolved) = try await context.run { client, info, settings in
            let orders = try await ManualTrading.openOrders(on: client, info: info, settings: settings)
            return (orders, try await ManualTrading.resolveJournaled(open: orders, on: client, settings: settings))
        }
        return ManualCommandOutput(
            lines: ManualListing.orders(orders, json: manual.json) + ManualListing.resolutions(resolved, json: manual.json))
    }
}
