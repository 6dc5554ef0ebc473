import ArgumentParser
import TraderKit

/// `ibtrader data import SOURCE --catalogue DIR`.
struct DataImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write bars into a Parquet catalogue (one file per bar size, symbol and year; Hive layout).",
        discussion: "SOURCE is what --data names: bundled:NAME, a folder or CSV file, sqlite:PATH, synthetic:N. "
            + "Bars merge with the catalogue's (a bar at the same time is replaced). Read it with --data parquet:DIR.")

    @Argument(help: "The bars to import.") var source: String
    @Option(name: .long, help: "The catalogue's folder (created when missing).") var catalogue: String
    @Option(name: .long, help: "Only these symbols (A,B,…).") var symbols: String?
    @Option(name: .long, help: "For sqlite:PATH with several bar sizes: which ('1 min', '1 day', …).") var barSize: String?
    @Option(name: .long, help: "Malformed rows: auto (skip in bundled data, fail in yours), skip or fail.") var badRows = "auto"
    @Option(name: .long, help: "Page compression: auto (zstd where libzstd is, else none), zstd or none.") var compression = "auto"

    func run() throws {
        let imported = try CatalogueJob.importData(
            source, into: catalogue, symbols: symbols, barSize: barSize, badRows: badRows, compression: compression)
        print(CatalogueJob.summary(imported, catalogue: catalogue))
    }
}

/// `ibtrader data export --catalogue DIR --out FOLDER`.
struct DataExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write a catalogue's bars as CSV files (SYMBOL_1min.csv, …; bar start, UTC).")

    @Option(name: .long, help: "The catalogue's folder.") var catalogue: String
    @Option(name: .long, help: "The folder to write.") var out: String
    @Option(name: .long, help: "Only these symbols (A,B,…).") var symbols: String?
    @Option(name: .long, help: "Which bar size, when the catalogue has several.") var barSize: String?

    func run() throws {
        let done = try CatalogueJob.export(catalogue: catalogue, to: out, symbols: symbols, barSize: barSize)
        print("wrote \(done.files.count) CSV files of \(done.barSize) bars to \(out)")
    }
}
