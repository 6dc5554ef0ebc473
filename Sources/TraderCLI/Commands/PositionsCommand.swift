import Analytics
import ArgumentParser
import TraderKit
import InteractiveBrokers

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
        if manual.json {
            return ManualCommandOutput(
                lines: positions.map { p in
                    JSONLine.render([
                        "record": .string("position"), "account": .string(p.account), "symbol": .string(p.symbol),
                        "conId": .integer(p.contractID), "quantity": .string("\(p.quantity)"),
                        "averageCost": .number(p.averageCost),
                    ])
                })
        }
        let rows = positions.map { [$0.account, $0.symbol, "\($0.contractID)", "\($0.quantity)", String(format: "%.4f", $0.averageCost)] }
        return ManualCommandOutput(lines: [
            "Positions (\(positions.count))",
            TextTable.render(header: ["account", "symbol", "conId", "qty", "avg cost"], rows: rows, rightAligned: [2, 3, 4]),
        ])
    }
}
