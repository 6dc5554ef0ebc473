import ArgumentParser
import InteractiveBrokers
import TraderKit

/// `ibtrader positions`: the account's positions.
struct PositionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "positions",
        abstract: "List the account's positions (reqPositions): symbol, quantity, average cost."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var manual: ManualOptions

    func run() async throws { try await perform().emit() }

    /// The lines to print.
    func perform() async throws -> ManualCommandOutput {
        let context = try ManualContext(connection: connection, manual: manual, journaling: false)
        let positions = try await context.run { client, info, settings in
            try await ManualTrading.positions(on: client, info: info, settings: settings)
        }
        return ManualCommandOutput(lines: ManualListing.positions(positions, json: manual.json))
    }
}
