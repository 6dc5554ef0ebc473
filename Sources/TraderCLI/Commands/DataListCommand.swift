import Analytics
import ArgumentParser
import TraderKit
import Storage
import TradingModel

/// `ibtrader data list --store PATH`.
struct DataListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the series of a bar store: symbol, bar size, first and last bar (UTC), bar count."
    )

    @Option(name: .long, help: "The SQLite bar store.")
    var store: String

    @Flag(name: .long, help: "JSON lines instead of a table.")
    var json: Bool = false

    func run() throws {
        let summaries: [BarSeriesSummary]
        do {
            summaries = try BarStore(path: store, createIfMissing: false).seriesSummaries()
        } catch {
            throw CLIError("\(error)")
        }
        if json {
            for s in summaries {
                let members: KeyValuePairs<String, JSONValue> = [
                    "symbol": .string(s.symbol.rawValue), "bar_size": .string(s.barSize.text),
                    "first": .string(Self.timeText(s.first, s.barSize)),
                    "last": .string(Self.timeText(s.last, s.barSize)),
                    "count": .integer(s.count),
                ]
                print(JSONLine.render(members))
            }
            return
        }
        guard !summaries.isEmpty else {
            print("\(store): no bars")
            return
        }
        let rows = summaries.map {
            [
                $0.symbol.rawValue, $0.barSize.text, Self.timeText($0.first, $0.barSize),
                Self.timeText($0.last, $0.barSize), "\($0.count)",
            ]
        }
        print(TextTable.render(header: ["symbol", "bar", "first", "last", "bars"], rows: rows, rightAligned: [4]))
    }

    /// `YYYY-MM-DD` for daily and longer bars, ISO UTC otherwise.
    static func timeText(_ t: Timestamp, _ size: BarSize) -> String {
        size.isDailyOrLonger ? String(t.description.prefix(10)) : t.description
    }
}
