import ArgumentParser
import Foundation
import Storage
import TraderKit
import TradingModel

/// `ibtrader data download SYMBOLS… --bar "1 min" --duration "30 D" [--end YYYY-MM-DD] --store PATH | --catalogue DIR`.
struct DataDownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download historical bars into a SQLite bar store, in chunks, under IB's pacing rules; resumable.",
        discussion: """
            The range is cut into chunks on a fixed UTC grid (1 min: one day; 5 mins: one week; 1 hour: 28 days; \
            1 day: 364 days; table in docs/data.md). Chunks already in the store are skipped, so running the same \
            command again resumes an interrupted download and fetches only what is missing; the chunk holding \
            "now" is fetched every time. Requests carry an explicit UTC end (yyyymmdd-hh:mm:ss) and ask for epoch \
            dates; bars are stored in UTC (daily bars at midnight UTC of their date). A pacing violation (162) \
            waits 15 s, 30 s, 1, 2, 5 min and retries. Read the store with: ibtrader backtest --data sqlite:PATH; \
            with --catalogue DIR the series are also written into that Parquet catalogue (--data parquet:DIR).
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "Symbols: stocks (AAPL), futures months ('ES 2026-12', ESZ2026), currency pairs (EUR.USD).")
    var symbols: [String]
    @Option(name: .long, help: "Bar size as TWS spells it: '1 min', '5 mins', '1 hour', '1 day', …")
    var bar: String = "1 day"
    @Option(name: .long, help: "How far back from --end: 'N S|D|W|M|Y' (M = 30 days, Y = 365 days).")
    var duration: String = "1 Y"
    @Option(name: .long, help: "Last day to download (YYYY-MM-DD, through its end in UTC); default: now.")
    var end: String?
    @Option(name: .long, help: "TRADES, MIDPOINT, BID, ASK, ADJUSTED_LAST, …") var what: String = "TRADES"
    @Flag(name: .long, help: "Regular trading hours only.") var rth: Bool = false
    @Option(name: .long, help: "The SQLite bar store (created when missing; with --catalogue: DIR/.downloads.sqlite).")
    var store: String?
    @Option(name: .long, help: "Also write the downloaded series into this Parquet catalogue (data import's layout).")
    var catalogue: String?
    @Option(name: .customLong("sec-type"), help: "Security type of every symbol.") var securityType: String = "STK"
    @Option(name: .long, help: "Exchange of every symbol.") var exchange: String = "SMART"
    @Option(name: .long, help: "Currency of every symbol.") var currency: String = "USD"

    func validate() throws { _ = try job }

    /// The download, checked.
    var job: BarDownloadJob {
        get throws {
            var job = try BarDownloadJob(
                symbols: symbols, bar: bar, duration: duration, end: end, store: store, catalogue: catalogue)
            job.whatToShow = what
            job.regularHoursOnly = rth
            job.contract = (securityType, exchange, currency)
            return job
        }
    }

    func run() async throws {
        print(try job.summary(await download(now: Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9)))))
    }

    /// Downloads and returns the report (tests call this with the simulator's port).
    func download(now: Timestamp) async throws -> BarDownloadReport {
        let job = try self.job
        let view = DownloadProgressView()
        return try await connection.withConnection { client, _ in
            try await job.run(on: client, now: now) { view.handle($0) }
        }
    }
}
