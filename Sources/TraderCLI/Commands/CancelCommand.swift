import Analytics
import ArgumentParser
import InteractiveBrokers
import LiveSession
import TraderKit

/// `ibtrader cancel ID|ORDERREF|--all`: cancels one order, or every open order of the account (reqGlobalCancel).
struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel one order (by order id or orderRef), or every open order with --all.",
        discussion: """
            A number is TWS's order id (this --client-id's order first, else another API client's: TWS accepts a \
            cancel of another client's order on the same login, unless orders.cancelOtherClients is false), anything \
            else an orderRef; the output names the client that placed each order. --all sends reqGlobalCancel: every \
            open order of every client and of TWS (deactivated, Inactive ones are not waited for). The command waits \
            until TWS no longer lists the orders (--timeout) and exits non-zero if some remain. The cancel is \
            journaled (a note, and the order's state when its orderRef is journaled).
            """
    )

    @Argument(help: "The order id or orderRef.") var target: String?
    @Flag(name: .long, help: "Cancel every open order of the account (reqGlobalCancel).") var all = false

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var manual: ManualOptions

    func validate() throws {
        guard (target != nil) != all else { throw ValidationError("give an order id or orderRef, or --all (not both)") }
    }

    func run() async throws { try await perform().emit() }

    /// Cancels; the lines to print and whether every order is gone.
    func perform() async throws -> ManualCommandOutput {
        let context = try ManualContext(connection: connection, manual: manual, journaling: true)
        let target = target.map(ManualCancelTarget.init)
        let result = try await context.run { client, info, settings in
            if let target {
                try await ManualTrading.cancel(target, on: client, info: info, settings: settings)
            } else {
                try await ManualTrading.cancelAll(on: client, info: info, settings: settings)
            }
        }
        return ManualCommandOutput(
            lines: ManualListing.cancel(result, json: manual.json), succeeded: result.stillOpen.isEmpty)
    }
}
