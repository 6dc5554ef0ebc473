import Analytics
import Foundation
import InteractiveBrokers
import LiveSession
import Storage
import TWSClient
import TWSProtocol
import TraderConfig
import TradingModel

/// `ibtrader data download`: qualify the symbols, plan the chunks and download them into a bar store.
public struct BarDownloadJob: Sendable {
    /// The symbols as typed: stocks (`AAPL`), futures contract months (`ES 2026-12`, `ESZ2026`) and currency pairs
    /// (`EUR.USD`), each stored under its canonical name (`ES 2026-12`, `EUR.USD`).
    public var symbols: [String]
    /// The bar size.
    public var barSize: BarSize
    /// How far back from `end`.
    public var duration: HistoricalDuration
    /// The last day (`YYYY-MM-DD`, through its end in UTC; `nil`: now).
    public var end: String?
    /// `TRADES`, `MIDPOINT`, … (a currency pair's TRADES are its MIDPOINT: IB has no trades for a currency).
    public var whatToShow = "TRADES"
    /// Regular trading hours only.
    public var regularHoursOnly = false
    /// The SQLite bar store: the downloaded bars and which chunks are done (what makes a download resumable).
    public var store: String
    /// A Parquet catalogue the downloaded series are written into once the download ends (`nil`: the store only).
    public var catalogue: String?
    /// The contract of every stock symbol: security type, exchange, currency (a future or a pair is asked for as
    /// its name says: `FUT` on its exchange with month and multiplier, `CASH` on IDEALPRO).
    public var contract = (securityType: "STK", exchange: "SMART", currency: "USD")

    /// A job, checked: a TWS bar size, IB's duration form, a date from 1970 to 2200, and at most 50,000 requests
    /// (IB allows 60 per 10 minutes: that many take almost six days).
    /// - Parameters:
    ///   - store: the bar store (`nil` with a catalogue: `.downloads.sqlite` inside it, which catalogue readers skip).
    ///   - catalogue: a Parquet catalogue to write the downloaded series into at the end.
    /// - Throws: `TraderError` naming the option.
    public init(
        symbols: [String], bar: String, duration: String, end: String?, store: String?, catalogue: String? = nil
    ) throws(TraderError) {
        guard !symbols.isEmpty else { throw TraderError("give at least one symbol") }
        guard let store = store ?? catalogue.map({ URL(fileURLWithPath: $0).appendingPathComponent(".downloads.sqlite").path })
        else { throw TraderError("give --store PATH (a SQLite bar store), --catalogue DIR (a Parquet catalogue), or both") }
        self.catalogue = catalogue
        for symbol in symbols {
            let kind: InstrumentKind
            do { kind = try InstrumentKind.checked(symbol) } catch { throw TraderError(error.description) }
            if case let .future(future) = kind, future.month == nil {
                throw TraderError(
                    "'\(symbol)': download the contract months (\(future.spec.root) 2026-09, \(future.spec.root) 2026-12, …); "
                        + "a backtest of '\(symbol)' splices them from the store")
            }
        }
        guard let size = BarSize(bar) else {
            throw TraderError("--bar '\(bar)' is not a TWS bar size (\(BarSize.supported.map(\.text).joined(separator: ", ")))")
        }
        guard let span = HistoricalDuration(duration) else {
            throw TraderError("--duration '\(duration)' is not 'N S|D|W|M|Y' (e.g. '30 D'), at most 200 Y")
        }
        if let end {
            do { _ = try ConfigKind.date.read(.scalar(end, origin: .flag("--end")), "end") } catch {
                throw TraderError(error.description)
            }
        }
        let requests = (span.span.nanoseconds / ChunkPolicy(barSize: size).span.nanoseconds + 1) * Int64(symbols.count)
        guard requests <= 50_000 else {
            throw TraderError(
                "--duration '\(duration)' of '\(size)' bars needs about \(requests) requests (IB allows 60 per "
                    + "10 minutes); download a shorter range or a larger bar size")
        }
        self.symbols = symbols
        barSize = size
        self.duration = span
        self.end = end
        self.store = store
    }

    /// Downloads over `client` and returns the report.
    /// - Parameters:
    ///   - client: a connected TWS connection.
    ///   - now: the time the chunk grid ends at when no end is given.
    ///   - progress: told of each planned and stored chunk.
    public func run(
        on client: TWSConnection, now: Timestamp, progress: (BarDownloadEvent) -> Void
    ) async throws -> BarDownloadReport {
        let endTime = end.flatMap(CivilTime.parseDay).map { Timestamp(seconds: $0) + .days(1) } ?? now
        let barStore: BarStore
        do { barStore = try BarStore(path: store) } catch { throw TraderError("\(error)") }
        var partials: [Symbol: TWSContract] = [:]
        let wanted = symbols.map { typed in
            // Stored under the instrument's one name (`ESZ2026` as `ES 2026-12`), where a universe finds it.
            let symbol = Symbol(InstrumentKind.canonicalName(of: typed))
            partials[symbol] = contract.securityType.uppercased() == "STK" ? ContractBook.contract(named: typed) : nil
            return symbol
        }
        let series = wanted.map { symbol in
            let shown = partials[symbol].map { SessionSettings.whatToShow(whatToShow, for: $0) } ?? whatToShow
            return DownloadSeries(
                symbol: symbol, barSize: barSize, whatToShow: shown.uppercased(), regularHoursOnly: regularHoursOnly)
        }
        let plan = BarDownloadPlan(series: series, range: (endTime - duration.span)..<endTime, now: now)
        var contracts: [Symbol: TWSContract] = [:]
        for symbol in wanted {
            let partial = partials[symbol] ?? TWSContract(
                symbol: symbol.rawValue, securityType: contract.securityType, exchange: contract.exchange,
                currency: contract.currency)
            contracts[symbol] = try await client.qualify(partial).contract
        }
        let source = TWSHistoricalBarSource(connection: client, contracts: contracts)
        let downloader = BarDownloader(store: barStore, source: source, sleep: { try await Task.sleep(for: $0) })
        let report: BarDownloadReport
        do {
            report = try await downloader.run(plan, progress: progress)
        } catch {
            throw TraderError("\(error)")
        }
        if let catalogue {
            // The whole of each downloaded series, so the catalogue holds what the store does (an earlier run's
            // chunks too); files merge, so a resumed download rewrites the years it touched with the same bars.
            let names = wanted.map(\.rawValue).joined(separator: ",")
            _ = try CatalogueJob.importData(
                "sqlite:\(store)", into: catalogue, symbols: names, barSize: barSize.text, badRows: "fail")
        }
        return report
    }

    /// `12 chunks fetched (3400 bars), 2 already done → bars.sqlite`, and `… → the catalogue DIR` when one is written.
    public func summary(_ report: BarDownloadReport) -> String {
        let line = Self.summary(report, store: store)
        guard let catalogue else { return line }
        return line + "\nwritten into the catalogue \(catalogue) (\(barSize)): ibtrader backtest --data parquet:\(catalogue)"
    }

    /// `12 chunks fetched (3400 bars), 2 already done → bars.sqlite`.
    public static func summary(_ report: BarDownloadReport, store: String) -> String {
        var text =
            "\(report.fetchedChunks) chunk\(report.fetchedChunks == 1 ? "" : "s") fetched (\(report.barsStored) bars"
        if report.emptyChunks > 0 { text += ", \(report.emptyChunks) without data" }
        text += "), \(report.skippedChunks) already done"
        if report.pacingRetries > 0 {
            text += ", \(report.pacingRetries) pacing wait\(report.pacingRetries == 1 ? "" : "s")"
        }
        return text + " → \(store)"
    }
}

extension CivilTime {
    /// Epoch seconds of a `YYYY-MM-DD` day from 1970 to 2200 (`nil` outside: no overflow on later arithmetic).
    static func parseDay(_ text: String) -> Int64? {
        guard let seconds = parse(text), seconds >= 0, seconds <= 7_258_118_400 else { return nil }
        return seconds
    }
}

extension TWSConnection {
    /// Qualifies a contract: exactly one match, or a clear error (none, or ambiguous with the candidates listed).
    public func qualify(_ contract: TWSContract) async throws -> TWSContractDetails {
        let details: [TWSContractDetails]
        do {
            details = try await contractDetails(contract)
        } catch {
            throw TraderError("\(contract.symbol): \(error)")
        }
        guard let first = details.first else {
            throw TraderError(
                "\(contract.symbol): no security definition found (\(contract.securityType) \(contract.exchange) \(contract.currency))")
        }
        guard details.count == 1 else {
            let candidates = details.map { "\($0.contract.symbol) conId \($0.contract.contractID) \($0.contract.primaryExchange)" }
            throw TraderError(
                "\(contract.symbol) is ambiguous; use --primary-exchange. Candidates: \(candidates.joined(separator: "; "))")
        }
        return first
    }
}
