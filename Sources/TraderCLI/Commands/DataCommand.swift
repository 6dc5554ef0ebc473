import ArgumentParser
import TraderKit

/// `ibtrader data download|list`: the SQLite bar store.
struct DataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Download historical bars from TWS into a SQLite bar store, list what a store holds, relabel bar-end files.",
        subcommands: [DataDownloadCommand.self, DataListCommand.self, DataRelabelCommand.self]
    )
}
