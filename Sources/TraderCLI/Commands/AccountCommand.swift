import ArgumentParser
import InteractiveBrokers
import TraderKit

/// `ibtrader account`: net liquidation, cash, buying power, margin and today's P&L.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Show the account: net liquidation, cash, buying power, margin (reqAccountSummary) and P&L (reqPnL)."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var manual: ManualOptions

    func run() async throws { try await perform().emit() }

    /// The lines to print.
    func perform() async throws -> ManualCommandOutput {
        let context = try ManualContext(connection: connection, manual: manual, journaling: false)
        let report = try await context.run { client, info, settings in
            try await ManualTrading.accountReport(on: client, info: info, settings: settings)
        }
        return ManualCommandOutput(lines: ManualListing.account(report, json: manual.json))
    }
}
