import ArgumentParser
import Foundation
import TraderKit
import TWSProtocol

/// `ibtrader history SYMBOL --bar "1 day" --duration "1 Y"`: bars as CSV on standard output, UTC.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Download historical bars as CSV (date,open,high,low,close,volume) on standard output.",
        discussion: """
            Daily and larger bars print a plain date (2024-03-01); intraday bars print UTC (2024-03-01T14:30:00Z). \
            The contract is qualified first; the request asks for epoch-second dates ending now.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var contract: ContractOptions

    @Option(name: .long, help: "Bar size, as TWS spells it: '1 min', '5 mins', '1 hour', '1 day', …")
    var bar: String = "1 day"

    @Option(name: .long, help: "How far back: '30 D', '6 M', '1 Y', …")
    var duration: String = "1 Y"

    @Option(name: .long, help: "TRADES, MIDPOINT, BID, ASK, …")
    var what: String = "TRADES"

    @Flag(name: .long, help: "Regular trading hours only.")
    var rth: Bool = false

    func run() async throws {
        let bars = try await connection.withConnection { client, _ in
            let details = try await client.qualify(contract.contract)
            var query = TWSHistoricalBarsQuery(contract: details.contract, duration: duration, barSize: bar)
            query.whatToShow = what
            query.useRTH = rth
            query.formatDate = 2
            query.endDateTime = ""
            do {
                return try await client.historicalBars(query)
            } catch {
                throw CLIError("\(contract.symbol): \(error)")
            }
        }
        var output = "date,open,high,low,close,volume\n"
        for bar in bars {
            guard let date = CLITime.barDate(bar.date) else {
                throw CLIError("\(contract.symbol): the server sent a bar date this tool cannot read: '\(bar.date)'")
            }
            output += "\(date),\(bar.open),\(bar.high),\(bar.low),\(bar.close),\(bar.volume.map { "\($0)" } ?? "")\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
