import ArgumentParser
import Storage
import TraderKit

/// `ibtrader data list --store PATH`.
struct DataListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the series of a bar store: symbol, bar size, first and last bar (UTC), bar count."
    )

    @Option(name: .long, help: "The SQLite bar store.") var store: String

    @Flag(name: .long, help: "JSON lines instead of a table.") var json: Bool = false

    func run() throws {
        let summaries: [BarSeriesSummary]
        do {
            summaries = try BarStore(path: store, createIfMissing: false).seriesSummaries()
        } catch {
            throw CLIError("\(error)")
        }
        print(BarStoreListing.render(summaries, store: store, json: json))
    }
}
