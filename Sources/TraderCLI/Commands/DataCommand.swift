import ArgumentParser
import TraderKit

/// `ibtrader data download|list|relabel|import|export`: the SQLite bar store and the Parquet catalogue.
struct DataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Download bars from TWS into a SQLite bar store, import them into a Parquet catalogue, list, export, relabel.",
        subcommands: [
            DataDownloadCommand.self, DataImportCommand.self, DataExportCommand.self, DataListCommand.self,
            DataRelabelCommand.self,
        ]
    )
}
