import Foundation
import BundledData
import GatewayCore
import GatewaySimulator
import Logging
import Storage
import Testing
import TWSTestSupport
import TradingModel
import TraderKit

@testable import TraderCLI

/// Runs a gateway simulator (manual clock, replaying from `start`, else the data's) on a free loopback port for the
/// duration of `body`.
func withSimulator<Result: Sendable>(
    data: MarketDataSet, start: Timestamp? = nil, _ body: @Sendable (GatewaySimulator, Int) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "test.gateway")
    logger.logLevel = .warning
    let simulator = GatewaySimulator(
        configuration: GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: data, start: start, clock: .manual),
        logger: logger)
    // On a thread of its own: a real socket on the wall clock must not wait for the pool (`onOwnThread`).
    return try await onOwnThread {
        try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { try await simulator.run() }
            let port = await simulator.listeningPort()
            defer { group.cancelAll() }
            return try await body(simulator, port)
        }
    }
}

/// `ibtrader data download` against the in-process simulator, then `ibtrader backtest` on the store and on CSV.
@Suite(.timeLimit(.minutes(2))) struct DataDownloadEndToEndTests {
    static let data = MarketDataSet.synthetic(count: 4, seed: 7)
    /// The simulator's replay start (2022-01-05 14:30 UTC): "now" for the whole test.
    static let now = data.defaultStart

    static func download(_ arguments: [String], port: Int) async throws -> BarDownloadReport {
        let command = try DataDownloadCommand.parse(arguments + ["--port", "\(port)", "--client-id", "41"])
        return try await command.download(now: now)
    }

    @Test func dailyDownloadIsExactResumesAndBacktestsLikeCSV() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/bars.sqlite"
            let symbols = ["SYN000", "SYN001", "SYN002"]
            let daily = ["--bar", "1 day", "--duration", "300 D", "--end", "2021-12-31", "--store", path]
            try await withSimulator(data: Self.data) { _, port in
                let first = try await Self.download(symbols + daily, port: port)
                // Two 364-day grid chunks per symbol; the second holds the end asked for, so it is not marked done.
                #expect(first.plannedChunks == 6 && first.fetchedChunks == 6 && first.skippedChunks == 0)
                #expect(first.requests.allSatisfy { $0.duration == "1 Y" })

                // Resume with one more symbol: only the open chunks and the new symbol's are fetched.
                let second = try await Self.download(symbols + ["SYN003"] + daily, port: port)
                #expect(second.plannedChunks == 8 && second.skippedChunks == 3 && second.fetchedChunks == 5)
            }
            let store = try BarStore(path: path, createIfMissing: false)
            let size = try #require(BarSize("1 day"))
            // The stored bars are the simulator's daily bars, exactly, at midnight UTC, through the end asked for and
            // none after it (the chunk holding it reaches to 2022).
            for symbol in symbols + ["SYN003"] {
                let source = try #require(Self.data.instrument(symbol: symbol)).series.bars
                let cutoff = Timestamp(year: 2022, month: 1, day: 1)
                let stored = try store.bars(symbol: Symbol(symbol), barSize: size)
                #expect(stored.last?.timestamp == Timestamp(year: 2021, month: 12, day: 31), "\(symbol)")
                #expect(stored == source.filter { $0.timestamp < cutoff && $0.timestamp >= (stored.first?.timestamp ?? cutoff) }, "\(symbol)")
                #expect(stored.count > 250)
            }
            #expect(try store.seriesSummaries().map(\.symbol.rawValue) == symbols + ["SYN003"])

            // The same bars as CSV files: a backtest on either gives the same orders.
            let csvDir = dir + "/csv"
            try FileManager.default.createDirectory(atPath: csvDir, withIntermediateDirectories: true)
            for symbol in symbols + ["SYN003"] {
                var text = "date,open,high,low,close,volume\n"
                for bar in try store.bars(symbol: Symbol(symbol), barSize: size) {
                    text +=
                        "\(bar.timestamp.description.prefix(10)),\(bar.open),\(bar.high),\(bar.low),\(bar.close),"
                        + "\(bar.volume)\n"
                }
                try text.write(toFile: "\(csvDir)/\(symbol).csv", atomically: true, encoding: .utf8)
            }
            let fromStore = try await Self.backtest(
                ["--strategy", "sma-cross", "--data", "sqlite:\(path)", "--symbols", "SYN001"], out: dir + "/a")
            let fromCSV = try await Self.backtest(
                ["--strategy", "sma-cross", "--data", "\(csvDir)/SYN001.csv"], out: dir + "/b")
            #expect(fromStore.hash == fromCSV.hash)
            #expect(fromStore.trades > 0)
            let rotationStore = try await Self.backtest(
                ["--strategy", "momentum", "--data", "sqlite:\(path)"], out: dir + "/c")
            let rotationCSV = try await Self.backtest(["--strategy", "momentum", "--data", csvDir], out: dir + "/d")
            #expect(rotationStore.hash == rotationCSV.hash)
        }
    }

    @Test func intradayDownloadFetchesOnlyMissingDays() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/bars.sqlite"
            let common = ["SYN000", "SYN001", "--bar", "1 min", "--end", "2021-06-09", "--store", path]
            try await withSimulator(data: Self.data) { _, port in
                let first = try await Self.download(common + ["--duration", "3 D"], port: port)
                #expect(first.fetchedChunks == 6 && first.emptyChunks == 0)
                #expect(first.requests.first?.duration == "1 D")
                // Two more days back (a weekend): only those four chunks are requested, and they are empty.
                let second = try await Self.download(common + ["--duration", "5 D"], port: port)
                #expect(second.skippedChunks == 6 && second.fetchedChunks == 4 && second.emptyChunks == 4)
                let third = try await Self.download(common + ["--duration", "5 D"], port: port)
                #expect(third.fetchedChunks == 0 && third.skippedChunks == 10)
            }
            let store = try BarStore(path: path, createIfMissing: false)
            let bars = try store.bars(symbol: "SYN000", barSize: try #require(BarSize("1 min")))
            // 09:30–16:00 New York, 13:30–20:00 UTC in June: 390 one-minute bars per session, three sessions,
            // stamped in UTC (the simulator replayed daily data at 14:30–21:00 UTC all year, an hour late in summer).
            #expect(bars.count == 3 * 390)
            #expect(bars.first?.timestamp == Timestamp(year: 2021, month: 6, day: 7, secondOfDay: 13 * 3600 + 30 * 60))
            #expect(bars.allSatisfy { $0.isConsistent })
            let summary = try #require(try store.seriesSummaries().first)
            #expect(summary.count == 390 * 3 && summary.barSize.text == "1 min")
        }
    }

    /// `--catalogue DIR` without `--store`: the chunks are kept in `DIR/.downloads.sqlite` (a resumed download skips
    /// them) and the series land in the catalogue as `data import` writes them, readable by a backtest.
    @Test func aDownloadIntoACatalogueResumesAndReadsAsTheStore() async throws {
        try await withTemporaryDirectory { dir in
            let catalogue = dir + "/cat"
            let arguments = ["SYN000", "SYN002", "--bar", "1 day", "--duration", "300 D", "--end", "2021-12-31", "--catalogue", catalogue]
            try await withSimulator(data: Self.data) { _, port in
                let first = try await Self.download(arguments, port: port)
                #expect(first.fetchedChunks == 4)
                let second = try await Self.download(arguments, port: port)
                #expect(second.skippedChunks == 2 && second.fetchedChunks == 2, "only the chunks holding now again")
            }
            let store = try BarStore(path: catalogue + "/.downloads.sqlite", createIfMissing: false)
            let day = try #require(BarSize("1 day"))
            let written = BarCatalogue(path: catalogue)
            #expect(try written.seriesSummaries().map(\.symbol.rawValue) == ["SYN000", "SYN002"])
            for symbol in ["SYN000", "SYN002"] {
                let bars = try written.bars(symbol: Symbol(symbol), barSize: day)
                #expect(bars == (try store.bars(symbol: Symbol(symbol), barSize: day)), "\(symbol)")
                #expect(bars.count > 250)
            }
            let fromCatalogue = try await Self.backtest(
                ["--strategy", "sma-cross", "--data", "parquet:\(catalogue)", "--symbols", "SYN002"], out: dir + "/a")
            let fromStore = try await Self.backtest(
                ["--strategy", "sma-cross", "--data", "sqlite:\(catalogue)/.downloads.sqlite", "--symbols", "SYN002"],
                out: dir + "/b")
            #expect(fromCatalogue.hash == fromStore.hash && fromCatalogue.trades > 0)
        }
        #expect(throws: TraderError("give --store PATH (a SQLite bar store), --catalogue DIR (a Parquet catalogue), or both")) {
            _ = try BarDownloadJob(symbols: ["AAPL"], bar: "1 day", duration: "30 D", end: nil, store: nil)
        }
    }

    @Test func aDownloadCutOffByADroppedConnectionResumesWhereItStopped() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/bars.sqlite"
            let arguments = [
                "SYN000", "SYN001", "--bar", "1 min", "--duration", "5 D", "--end", "2021-06-11", "--store", path,
            ]
            let series = ["SYN000", "SYN001"].map { DownloadSeries(symbol: Symbol($0), barSize: BarSize("1 min")!) }
            try await withSimulator(data: Self.data) { simulator, port in
                // The connection drops a few messages into the downloads (after the handshake and qualification).
                await simulator.apply(.dropAfterMessages(20))
                await #expect(throws: (any Error).self) { try await Self.download(arguments, port: port) }
                let store = try BarStore(path: path, createIfMissing: false)
                let done = try series.reduce(0) { $0 + (try store.completedChunks($1).count) }
                #expect(done > 0 && done < 10)
                let resumed = try await Self.download(arguments, port: port)
                #expect(resumed.skippedChunks == done && resumed.fetchedChunks == 10 - done)
                #expect(try store.bars(symbol: "SYN001", barSize: BarSize("1 min")!).count == 5 * 390)
            }
        }
    }

    /// Futures months and a currency pair (issue 47): typed as a person writes them, asked for as IB knows them (FUT on
    /// CME with month and multiplier, CASH on IDEALPRO with MIDPOINT bars: IB has no trades for a currency), stored
    /// under their canonical names, where a backtest's `ES continuous` and `EUR.USD` find them.
    @Test func futuresMonthsAndAPairDownloadUnderTheirNames() async throws {
        try await withTemporaryDirectory { dir in
            let path = dir + "/bars.sqlite"
            let futures = try MarketDataSet.bundled(.futures)
            try await withSimulator(data: futures) { _, port in
                let command = try DataDownloadCommand.parse([
                    "ESZ2013", "ES 2014-03", "--bar", "1 day", "--duration", "30 D", "--end", "2013-11-14", "--store", path,
                    "--port", "\(port)", "--client-id", "41",
                ])
                let report = try await command.download(now: futures.defaultStart)
                #expect(report.fetchedChunks == report.plannedChunks && report.fetchedChunks >= 2 && report.barsStored > 30, "\(report)")
            }
            let fx = try MarketDataSet.bundled(.fx)
            try await withSimulator(data: fx) { _, port in
                let command = try DataDownloadCommand.parse([
                    "EUR/USD", "--bar", "1 hour", "--duration", "2 D", "--end", "2017-09-12", "--store", path,
                    "--port", "\(port)", "--client-id", "41",
                ])
                let report = try await command.download(now: fx.defaultStart)
                #expect(report.requests.allSatisfy { $0.series.whatToShow == "MIDPOINT" }, "\(report.requests)")
                #expect(report.barsStored >= 40)
            }
            let store = try BarStore(path: path, createIfMissing: false)
            #expect(try store.seriesSummaries().map(\.symbol.rawValue).sorted() == ["ES 2013-12", "ES 2014-03", "EUR.USD"])
            // The stored bars are the data's: ES's as traded, EUR.USD's midpoints on IDEALPRO's tick.
            let day = try #require(BarSize("1 day"))
            let march = try store.bars(symbol: "ES 2014-03", barSize: day)
            let source = try #require(futures.instrument(symbol: "ESH2014")).series.bars
            #expect(!march.isEmpty && march.allSatisfy { bar in source.contains { $0.timestamp == bar.timestamp && $0.close == bar.close } })
            let hourly = try store.bars(symbol: "EUR.USD", barSize: try #require(BarSize("1 hour")))
            let pairSource = try #require(fx.instrument(symbol: "EURUSD")).series.bars
            for bar in hourly {
                let original = try #require(pairSource.first { $0.timestamp == bar.timestamp }, "\(bar.timestamp)")
                #expect(abs(bar.close.doubleValue - original.close.doubleValue) <= 0.000025 + 1e-12)
            }
            // A backtest splices the stored months into ES continuous.
            let spliced = try await Self.backtest(
                ["--strategy", "sma-cross", "--data", "sqlite:\(path)", "--symbols", "ES continuous", "--fast-period", "2",
                 "--slow-period", "4", "--sizing", "fixed:1"], out: dir + "/es")
            #expect(!spliced.hash.isEmpty)
        }
    }

    @Test func continuousFuturesAndBadNamesAreRefusedWithTheReason() {
        for (symbol, reason) in [("ES continuous", "download the contract months"), ("ES 2014-02", "listed in March")] {
            do {
                _ = try BarDownloadJob(symbols: [symbol], bar: "1 day", duration: "30 D", end: nil, store: "x.sqlite", catalogue: nil)
                Issue.record("\(symbol) was accepted")
            } catch {
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }

    /// Runs `ibtrader backtest … --benchmark none --out DIR` and reads the order-list hash and trade count.
    static func backtest(_ arguments: [String], out: String) async throws -> (hash: String, trades: Int) {
        let command = try BacktestCommand.parse(arguments + ["--benchmark", "none", "--out", out])
        try await command.run()
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/summary.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let hash = try #require(json["order_list_hash"] as? String)
        return (hash, json["trades"] as? Int ?? 0)
    }
}
