import Analytics
import ArgumentParser
import TraderKit
import Foundation
import InteractiveBrokers
import Storage
import TWSClient
import TWSProtocol
import TradingModel

/// `ibtrader data download SYMBOLS… --bar "1 min" --duration "30 D" [--end YYYY-MM-DD] --store PATH`.
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
            waits 15 s, 30 s, 1, 2, 5 min and retries. Read the store with: ibtrader backtest --data sqlite:PATH.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "Symbols, e.g. AAPL MSFT SPY.")
    var symbols: [String]

    @Option(name: .long, help: "Bar size as TWS spells it: '1 min', '5 mins', '1 hour', '1 day', …")
    var bar: String = "1 day"

    @Option(name: .long, help: "How far back from --end: 'N S|D|W|M|Y' (M = 30 days, Y = 365 days).")
    var duration: String = "1 Y"

    @Option(name: .long, help: "Last day to download (YYYY-MM-DD, through its end in UTC); default: now.")
    var end: String?

    @Option(name: .long, help: "TRADES, MIDPOINT, BID, ASK, ADJUSTED_LAST, …")
    var what: String = "TRADES"

    @Flag(name: .long, help: "Regular trading hours only.")
    var rth: Bool = false

    @Option(name: .long, help: "The SQLite bar store (created when missing).")
    var store: String

    @Option(name: .customLong("sec-type"), help: "Security type of every symbol.")
    var securityType: String = "STK"

    @Option(name: .long, help: "Exchange of every symbol.")
    var exchange: String = "SMART"

    @Option(name: .long, help: "Currency of every symbol.")
    var currency: String = "USD"

    func validate() throws {
        guard !symbols.isEmpty else { throw ValidationError("give at least one symbol") }
        guard BarSize(bar) != nil else {
            throw ValidationError(
                "--bar '\(bar)' is not a TWS bar size (\(BarSize.supported.map(\.text).joined(separator: ", ")))")
        }
        guard HistoricalDuration(duration) != nil else {
            throw ValidationError("--duration '\(duration)' is not 'N S|D|W|M|Y' (e.g. '30 D')")
        }
        if let end, CivilTime.parse(end) == nil { throw ValidationError("--end '\(end)' is not a date (YYYY-MM-DD)") }
        if let size = BarSize(bar), let span = HistoricalDuration(duration)?.span {
            // IB allows 60 historical requests per 10 minutes: 50,000 requests take almost six days.
            let requests = (span.nanoseconds / ChunkPolicy(barSize: size).span.nanoseconds + 1) * Int64(symbols.count)
            guard requests <= 50_000 else {
                throw ValidationError(
                    "--duration '\(duration)' of '\(size)' bars needs about \(requests) requests (IB allows 60 per "
                        + "10 minutes); download a shorter range or a larger bar size")
            }
        }
    }

    func run() async throws {
        let report = try await download(now: Self.wallClockNow())
        print(Self.summary(report, store: store))
    }

    /// Downloads and returns the report (tests call this with the simulator's port).
    func download(now: Timestamp) async throws -> BarDownloadReport {
        guard let size = BarSize(bar), let span = HistoricalDuration(duration)?.span else {
            throw CLIError("invalid --bar or --duration")
        }
        let endTime =
            try end.map { text -> Timestamp in
                guard let seconds = CivilTime.parse(text) else { throw CLIError("--end: '\(text)' is not a date") }
                return Timestamp(seconds: seconds) + .days(1)
            } ?? now
        let barStore: BarStore
        do { barStore = try BarStore(path: store) } catch { throw CLIError("\(error)") }
        let wanted = symbols.map { Symbol($0.uppercased()) }
        let series = wanted.map {
            DownloadSeries(symbol: $0, barSize: size, whatToShow: what.uppercased(), regularHoursOnly: rth)
        }
        let plan = BarDownloadPlan(series: series, range: (endTime - span)..<endTime, now: now)
        return try await connection.withConnection { client, _ in
            var contracts: [Symbol: TWSContract] = [:]
            for symbol in wanted {
                let partial = TWSContract(
                    symbol: symbol.rawValue, securityType: securityType, exchange: exchange, currency: currency)
                contracts[symbol] = try await client.qualify(partial).contract
            }
            let source = TWSHistoricalBarSource(connection: client, contracts: contracts)
            let downloader = BarDownloader(store: barStore, source: source, sleep: { try await Task.sleep(for: $0) })
            let view = DownloadProgressView()
            do {
                return try await downloader.run(plan) { view.handle($0) }
            } catch {
                throw CLIError("\(error)")
            }
        }
    }

    static func summary(_ report: BarDownloadReport, store: String) -> String {
        var text =
            "\(report.fetchedChunks) chunk\(report.fetchedChunks == 1 ? "" : "s") fetched (\(report.barsStored) bars"
        if report.emptyChunks > 0 { text += ", \(report.emptyChunks) without data" }
        text += "), \(report.skippedChunks) already done"
        if report.pacingRetries > 0 {
            text += ", \(report.pacingRetries) pacing wait\(report.pacingRetries == 1 ? "" : "s")"
        }
        return text + " → \(store)"
    }

    /// The wall clock as a `Timestamp` (the CLI is the composition root: the one place that reads it).
    static func wallClockNow() -> Timestamp {
        Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1_000_000_000))
    }
}
