import Analytics
import ArgumentParser
import TraderKit
import InteractiveBrokers

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
        let pnl: [(String, Double?)] = [
            ("DailyPnL", report.dailyPnL), ("UnrealizedPnL", report.unrealizedPnL), ("RealizedPnL", report.realizedPnL),
        ]
        if manual.json {
            var object: [String: JSONValue] = ["record": .string("account"), "account": .string(report.account),
                                               "currency": .string(report.currency)]
            for (tag, value) in report.values { object[tag] = Double(value).map { .number($0) } ?? .string(value) }
            for (tag, value) in pnl { object[tag] = value.map { .number($0) } ?? .null }
            return ManualCommandOutput(lines: [JSONValue.object(object).serialized().split(whereSeparator: \.isNewline)
                .map { $0.drop { $0 == " " } }.joined()])
        }
        var rows = ManualAccountReport.tags.compactMap { tag in report.values[tag].map { [tag, $0, report.currency] } }
        rows += pnl.compactMap { tag, value in value.map { [tag, String(format: "%.2f", $0), report.currency] } }
        return ManualCommandOutput(lines: [
            "Account \(report.account)",
            TextTable.render(header: ["value", "amount", "currency"], rows: rows, rightAligned: [1]),
        ])
    }
}
