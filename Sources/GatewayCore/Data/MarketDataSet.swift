import Backtest
import BundledData
import Foundation
import TradingModel

/// The simulator's universe: every instrument it serves, by symbol and by contract id.
///
/// ```swift
/// let data = try MarketDataSet.load(directory: URL(fileURLWithPath: "data/"))
/// let data = try MarketDataSet.bundled(.stocksUnadjusted)
/// let data = MarketDataSet.synthetic(count: 5, seed: 42)
/// ```
public struct MarketDataSet: Sendable {
    /// The instruments, sorted by symbol; `instruments[i].id.index == i`.
    public let instruments: [SimulatedInstrument]
    /// A one-line description for the start-up line and `--list`.
    public let name: String
    /// Malformed rows skipped while loading (`load(badRows: .skip)`), said on the start-up line.
    public internal(set) var skippedRows = 0
    private let bySymbol: [String: Int]
    private let byContractID: [Int: Int]

    /// Builds a universe from series keyed by symbol.
    /// - Parameters:
    ///   - series: the price series per symbol.
    ///   - names: optional `(longName, industry)` per symbol.
    ///   - name: the data set's description.
    public init(series: [String: InstrumentSeries], names: [String: (String, String)] = [:], name: String) {
        let symbols = series.keys.sorted()
        var list: [SimulatedInstrument] = []
        for (i, symbol) in symbols.enumerated() {
            guard let s = series[symbol] else { continue }
            let known = names[symbol]
            list.append(SimulatedInstrument(
                id: InstrumentID(index: i), symbol: symbol, contractID: 100_000 + i,
                primaryExchange: Self.nasdaqListed.contains(symbol) ? "NASDAQ" : "NYSE",
                longName: known?.0 ?? "\(symbol) (simulated)", industry: known?.1 ?? "", series: s))
        }
        self.instruments = list
        self.name = name
        self.bySymbol = Dictionary(uniqueKeysWithValues: list.map { ($0.symbol, $0.id.index) })
        self.byContractID = Dictionary(uniqueKeysWithValues: list.map { ($0.contractID, $0.id.index) })
    }

    /// Symbols listed on NASDAQ among the bundled ones (the rest are reported as NYSE).
    static let nasdaqListed: Set<String> = ["AAPL", "MSFT", "GOOG", "GOOGL", "AMZN", "INTC", "CSCO", "ORCL", "QCOM",
                                            "ADBE", "AMGN", "GILD", "COST", "SBUX", "NVDA", "SPY", "IXIC"]

    /// The instrument with a symbol.
    public func instrument(symbol: String) -> SimulatedInstrument? {
        bySymbol[symbol.uppercased()].map { instruments[$0] }
    }

    /// The instrument with a contract id.
    public func instrument(contractID: Int) -> SimulatedInstrument? {
        byContractID[contractID].map { instruments[$0] }
    }

    /// The instrument behind an engine id.
    public func instrument(_ id: InstrumentID) -> SimulatedInstrument { instruments[id.index] }

    /// The default replay start: the first session open at least one year (366 days) after the latest first bar, so
    /// there is a year of history behind "now". Data a year long or shorter starts at the first session open halfway
    /// through the span all symbols share (January's 1-minute bars: mid-month, half for warm-up, half to replay).
    public var defaultStart: Timestamp {
        let firsts = instruments.compactMap(\.series.firstTime)
        guard let latestFirst = firsts.max() else { return Timestamp(seconds: 0) }
        if let afterAYear = firstSessionOpen(atOrAfter: (latestFirst + .days(366)).nanoseconds) { return afterAYear }
        let earliestLast = instruments.compactMap(\.series.lastTime).min() ?? latestFirst
        let halfway = latestFirst.nanoseconds + max(earliestLast.nanoseconds - latestFirst.nanoseconds, 0) / 2
        if let start = firstSessionOpen(atOrAfter: halfway) { return start }
        let latestOpen = instruments.compactMap { $0.series.windows.last?.start }.max()
        return Timestamp(nanoseconds: latestOpen ?? halfway)
    }

    /// The earliest session open of any symbol at or after `target` (nanoseconds), or `nil` when none is.
    private func firstSessionOpen(atOrAfter target: Int64) -> Timestamp? {
        var best: Int64?
        for instrument in instruments {
            let windows = instrument.series.windows
            var low = 0, high = windows.count
            while low < high {
                let mid = (low + high) / 2
                if windows[mid].start < target { low = mid + 1 } else { high = mid }
            }
            if low < windows.count { best = min(best ?? windows[low].start, windows[low].start) }
        }
        return best.map { Timestamp(nanoseconds: $0) }
    }

    // MARK: - Loading

    /// Loads every `SYMBOL_*.csv` of a folder (the file with the longest bars wins when a symbol has several) and
    /// `sectors.csv` (symbol,name,sector,industry) when present, with the backtest's reader (`BarCSVLoader`): the
    /// same columns (`adj_close` and all), the same bad-row rules, and the bar size from the rows' times (a file name
    /// that declares another is an error naming both), so a folder replays as the backtest reads it.
    /// - Parameters:
    ///   - directory: the folder.
    ///   - volumeMultiplier: factor from the files' volume unit to shares.
    ///   - badRows: skip malformed rows (counted in `skippedRows` and the name) or fail on the first, naming its
    ///     file and line.
    /// - Throws: `MarketDataError` when the folder cannot be read, a file is malformed, or it holds no bars.
    public static func load(
        directory: URL, volumeMultiplier: Int64 = 1, badRows: BadRowPolicy = .fail
    ) throws(MarketDataError) -> MarketDataSet {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw MarketDataError("cannot read data folder \(directory.path): \(error.localizedDescription)")
        }
        var series: [String: InstrumentSeries] = [:]
        var skipped = 0
        for file in files where file.hasSuffix(".csv") && file.contains("_") {
            let stem = String(file.dropLast(4))
            guard let underscore = stem.firstIndex(of: "_") else { continue }
            let symbol = String(stem[..<underscore]).uppercased().replacingOccurrences(of: "^", with: "")
            let path = directory.appendingPathComponent(file).path
            let bars: [Bar]
            let resolution: TimeSpan
            do throws(BarLoadingError) {
                let loaded = try BarCSVLoader.load(path: path, policy: badRows)
                resolution = try BarFileName.checkedLength(loaded.bars, file: path)
                let scaled = try MarketData.scaledVolume(loaded.bars, by: volumeMultiplier, file: path, policy: badRows)
                bars = scaled.bars
                skipped += loaded.skippedRows + scaled.skipped
            } catch {
                throw MarketDataError(error.description)
            }
            guard !bars.isEmpty else { continue }
            if let existing = series[symbol], existing.resolution.nanoseconds >= resolution.nanoseconds { continue }
            series[symbol] = InstrumentSeries(bars: bars, resolution: resolution)
        }
        guard !series.isEmpty else { throw MarketDataError("no SYMBOL_*.csv bars in \(directory.path)") }
        let names = Self.names(in: directory)
        var set = MarketDataSet(series: series, names: names, name: directory.path + Self.skippedNote(skipped))
        set.skippedRows = skipped
        return set
    }

    /// The `(longName, industry)` of each symbol in a folder's `sectors.csv` (`symbol,name,sector,industry`), and the
    /// bundled symbols' names.
    public static func names(in directory: URL) -> [String: (String, String)] {
        var names: [String: (String, String)] = [:]
        if let text = try? String(contentsOf: directory.appendingPathComponent("sectors.csv"), encoding: .utf8) {
            for line in text.split(whereSeparator: \.isNewline).dropFirst() {
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                if f.count >= 4 { names[String(f[0]).uppercased()] = (String(f[1]), String(f[3])) }
            }
        }
        for (symbol, longName) in Self.knownNames where names[symbol] == nil { names[symbol] = (longName, "") }
        return names
    }

    /// Loads a bundled data set, as the backtest reads it: its volume unit converted to shares
    /// (`BundledDataSet.volumeMultiplier`), malformed rows skipped and counted (`backtest.badRows: auto`).
    /// - Throws: `MarketDataError` when the resources are missing.
    public static func bundled(_ set: BundledDataSet) throws(MarketDataError) -> MarketDataSet {
        let directory: URL
        do { directory = try set.directory() } catch { throw MarketDataError(String(describing: error)) }
        let loaded = try load(directory: directory, volumeMultiplier: set.volumeMultiplier, badRows: .skip)
        var bundled = MarketDataSet(
            series: Dictionary(uniqueKeysWithValues: loaded.instruments.map { ($0.symbol, $0.series) }),
            names: Dictionary(uniqueKeysWithValues: loaded.instruments.map { ($0.symbol, ($0.longName, $0.industry)) }),
            name: "bundled:\(set.rawValue) (\(set.summary))" + Self.skippedNote(loaded.skippedRows))
        bundled.skippedRows = loaded.skippedRows
        return bundled
    }

    /// `; 78 malformed rows skipped` for the start-up line (empty when none was).
    static func skippedNote(_ count: Int) -> String {
        count == 0 ? "" : "; \(count) malformed row\(count == 1 ? "" : "s") skipped"
    }

    static let knownNames: [String: String] = [
        "AAPL": "APPLE INC", "MSFT": "MICROSOFT CORP", "IBM": "INTL BUSINESS MACHINES CORP", "GOOG": "GOOGLE INC-CL A",
        "SPY": "SPDR S&P 500 ETF TRUST", "GSPC": "S&P 500 INDEX (as a stock)", "IXIC": "NASDAQ COMPOSITE (as a stock)",
    ]
}
