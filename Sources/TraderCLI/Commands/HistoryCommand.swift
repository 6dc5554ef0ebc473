import ArgumentParser
import Foundation
import LiveSession
import TraderKit
import TWSProtocol

/// `ibtrader history SYMBOL --bar "1 day" --duration "1 Y"`: bars as CSV on standard output, UTC.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Download historical bars as CSV (date,open,high,low,close,volume) on standard output.",
        discussion: """
            Daily and larger bars print a plain date (2024-03-01); intraday bars print UTC (2024-03-01T14:30:00Z). \
            The contract is qualified first; the request asks for epoch-second dates ending now. --timeout bounds \
            the whole exchange: connecting, qualifying and the download.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var contract: ContractOptions

    @Option(name: .long, help: "Bar size, as TWS spells it: '1 min', '5 mins', '1 hour', '1 day', …")
    var bar: String = "1 day"

    @Option(name: .long, help: "How far back: '30 D', '6 M', '1 Y', …") var duration: String = "1 Y"

    @Option(name: .long, help: "TRADES, MIDPOINT, BID, ASK, … (default: TRADES; MIDPOINT for a currency pair)") var what: String?

    @Flag(name: .long, help: "Regular trading hours only.") var rth: Bool = false

    func run() async throws {
        let wire = contract.contract
        let what = what ?? SessionSettings.whatToShow("TRADES", for: wire)  // IB has no trades for a currency
        let (connection, contract, duration, bar, rth) = (connection, contract, duration, bar, rth)
        let csv = try await connection.withinTimeout("the \(contract.symbol) bars") {
            try await connection.withConnection { client, _ in
                try await MarketDataQueries.historyCSV(
                    client, contract: wire, duration: duration, barSize: bar, whatToShow: what,
                    regularHours: rth)
            }
        }
        FileHandle.standardOutput.write(Data(csv.utf8))
    }
}
