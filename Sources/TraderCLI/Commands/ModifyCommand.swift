import ArgumentParser
import Foundation
import InteractiveBrokers
import LiveSession
import TraderKit
import TradingEngine
import TradingModel

/// `ibtrader modify ORDER_ID [--qty N] [--limit P] [--stop P] [--trail-amount A|--trail-percent P]`: changes a
/// working order (placeOrder again with the same id), through the risk rules and the journal.
struct ModifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modify",
        abstract: "Change the quantity or prices of a working order, through the risk rules and the journal.",
        discussion: """
            ORDER_ID is TWS's order id of this --client-id (see `ibtrader orders`): TWS lets only the placing client \
            modify an order. The order keeps its type and side (to change those, cancel it and place a new one); a \
            price its type does not have is refused. The order as modified goes through the same risk rules as \
            `ibtrader order`; the change is journaled before it is sent; the command waits until TWS echoes the new \
            terms (--timeout) and exits non-zero when it is denied, rejected (the old terms stay) or not \
            acknowledged. A live (non-DU) account is refused unless confirmed as for `order`.
            """
    )

    @Argument(help: "TWS's order id (of this --client-id).") var orderID: Int

    @Option(name: .long, help: "New total quantity.") var qty: String?
    @Option(name: .long, help: "New limit price (LMT, STP_LMT).") var limit: String?
    @Option(name: .long, help: "New stop price (STP, STP_LMT).") var stop: String?
    @Option(name: .customLong("trail-amount"), help: "New trailing amount (TRAIL).") var trailAmount: String?
    @Option(name: .customLong("trail-percent"), help: "New trailing percent (TRAIL).") var trailPercent: String?

    @OptionGroup var risk: RiskOptions

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var manual: ManualOptions

    var arguments: ManualModifyArguments {
        var a = ManualModifyArguments()
        a.quantity = qty
        a.limit = limit
        a.stop = stop
        a.trailAmount = trailAmount
        a.trailPercent = trailPercent
        return a
    }

    func validate() throws {
        guard orderID > 0 else { throw ValidationError("ORDER_ID must be a positive order id, got \(orderID)") }
        do { _ = try ManualModification(arguments) } catch { throw ValidationError(error.description) }
    }

    func run() async throws { try await perform().emit() }

    /// Sends the modification; the lines to print and whether TWS acknowledged it.
    func perform() async throws -> ManualCommandOutput {
        let modification: ManualModification
        do { modification = try ManualModification(arguments) } catch { throw CLIError(error.description) }
        let context = try ManualContext(
            connection: connection, manual: manual, journaling: true, overrides: risk.overrides)
        let orderID = orderID
        let result = try await context.run { client, info, settings in
            try await ManualTrading.modifyOrder(orderID, modification: modification, on: (client, info, settings))
        }
        return ManualCommandOutput(lines: ManualListing.modify(result, json: manual.json), succeeded: result.succeeded)
    }
}
