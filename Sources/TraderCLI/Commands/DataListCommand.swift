import ArgumentParser
import Storage
import TraderKit

/// `ibtrader data list --store PATH | --catalogue DIR`.
struct DataListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the series of a bar store or catalogue: symbol, bar size, first and last bar (UTC), bar count."
    )

    @Option(name: .long, help: "The SQLite bar store.") var store: String?
    @Option(name: .long, help: "The Parquet catalogue (data import).") var catalogue: String?

    @Flag(name: .long, help: "JSON lines instead of a table.") var json: Bool = false

    func validate() throws {
        guard (store == nil) != (catalogue == nil) else { throw ValidationError("give --store or --catalogue (one)") }
    }

    func run() throws {
        let summaries: [BarSeriesSummary]
        do {
            if let store { summaries = try BarStore(path: store, createIfMissing: false).seriesSummaries() }
            else { summaries = try BarCatalogue(path: catalogue ?? "").seriesSummaries() }
        } catch {
            throw CLIError("\(error)")
        }
        print(BarStoreListing.render(summaries, store: store ?? catalogue ?? "", json: json))
    }
}
