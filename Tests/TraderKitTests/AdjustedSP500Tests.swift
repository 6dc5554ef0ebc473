import Backtest
import BundledData
import Foundation
import Testing
import TWSTestSupport
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// Issue 22: `bundled:sp500` is split- and distribution-adjusted by scripts/bundled-data/adjust_sp500.py;
/// `bundled:sp500-unadjusted` keeps the files as published. The events are the script's table (PROVENANCE.md).
@Suite(.ownThread)
struct AdjustedSP500Tests {
    /// Symbol and ex-date of every event the script applies.
    static let events = [
        ("CAH", "2009-09-01"), ("ESRX", "2010-06-08"), ("GIS", "2010-06-09"), ("ETFC", "2010-06-02"),
        ("DHR", "2010-06-14"), ("STR", "2010-07-01"), ("WY", "2010-07-20"),
    ]

    struct Row {
        var date: String
        var open, close, volume: Double
    }

    /// Parsed here rather than through the loader, so the checks do not share the code they check.
    static func rows(_ set: BundledDataSet, _ symbol: String) throws -> [Row] {
        let url = try set.directory().appendingPathComponent("\(symbol)_1d.csv")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst().map { line in
            let cells = line.split(separator: ",").map(String.init)
            return Row(date: cells[0], open: Double(cells[1])!, close: Double(cells[4])!, volume: Double(cells[5])!)
        }
    }

    /// Open over the previous close at the first bar on or after the ex-date.
    static func gap(_ rows: [Row], at exDate: String) throws -> Double {
        let index = try #require(rows.firstIndex { $0.date >= exDate })
        return rows[index].open / rows[index - 1].close
    }

    @Test(arguments: events)
    func noSplitGapAtTheExDateInTheAdjustedFile(symbol: String, exDate: String) throws {
        let adjusted = try Self.gap(Self.rows(.sp500, symbol), at: exDate)
        let published = try Self.gap(Self.rows(.sp500Unadjusted, symbol), at: exDate)
        #expect(abs(log(adjusted)) < log(1.25), "\(symbol) \(exDate): adjusted gap \(adjusted)")
        #expect(abs(log(published)) > log(1.25), "\(symbol) \(exDate): published gap \(published)")
    }

    @Test func bothSetsHaveTheSameRowsAndDollarVolume() throws {
        let files = { (set: BundledDataSet) in
            try FileManager.default.contentsOfDirectory(atPath: set.directory().path).sorted()
        }
        let names = try files(.sp500)
        #expect(names.count == 525 && names.contains("sectors.csv"))
        #expect(try files(.sp500Unadjusted) == names)
        let adjustedSymbols = Set(Self.events.map(\.0))
        for name in names where name.hasSuffix("_1d.csv") {
            let symbol = String(name.dropLast("_1d.csv".count))
            let adjusted = try Self.rows(.sp500, symbol)
            let published = try Self.rows(.sp500Unadjusted, symbol)
            #expect(adjusted.map(\.date) == published.map(\.date), "\(symbol)")
            // Volume is rounded to whole units and prices to 6 decimals: the bound of that rounding.
            let off = zip(adjusted, published).filter { a, p in
                abs(a.close * a.volume - p.close * p.volume) > 0.5 * a.close + 1e-6 * a.volume + 1e-6
            }
            #expect(off.isEmpty, "\(symbol): dollar volume differs on \(off.map(\.0.date).prefix(3))")
            let changed = zip(adjusted, published).contains { a, p in a.close != p.close }
            #expect(changed == adjustedSymbols.contains(symbol), "\(symbol)")
        }
    }

    /// Buys 100 shares on its first bar and holds them.
    struct BuyAndHold: Strategy {
        var bought = false
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
            guard case .bar(let id, _) = event, !bought else { return [] }
            bought = true
            return [.submit(.market(id, .buy, Quantity(100)))]
        }
    }

    static func holdThrough(_ set: BundledDataSet, _ symbol: String) throws -> BacktestResult {
        let resolved = try DataSourceResolver.resolve("bundled:\(set.rawValue)", symbols: [symbol])
        let market = try BacktestDataLoader.load(resolved, settings: BacktestSettings())
        return BacktestRunner.run(strategy: BuyAndHold(), data: market.data)
    }

    /// The equity change across the ex-date (close before to close on or after it), against 100 × the file's
    /// close-to-close move there, and as a fraction of the holding's value.
    static func moveAcrossExDate(_ set: BundledDataSet, _ symbol: String, _ exDate: String) throws -> (Double, Double) {
        let rows = try rows(set, symbol)
        let result = try holdThrough(set, symbol)
        let curve = Array(result.equityCurve)
        #expect(curve.count == rows.count, "one equity point per bar")
        let index = try #require(rows.firstIndex { $0.date >= exDate })
        let change = curve[index].equity.doubleValue - curve[index - 1].equity.doubleValue
        #expect(abs(change - 100 * (rows[index].close - rows[index - 1].close)) < 0.01, "marked at the file's closes")
        return (change, change / (100 * rows[index - 1].close))
    }

    @Test(arguments: [("DHR", "2010-06-14"), ("ETFC", "2010-06-02")])
    func holdingThroughASplitBooksNoSplitLoss(symbol: String, exDate: String) throws {
        // ETFC's file skips the 20 sessions it traded as ETFCD, a real fall of 17 %: hence 25 %, not a day's move.
        let (_, adjusted) = try Self.moveAcrossExDate(.sp500, symbol, exDate)
        #expect(abs(adjusted) < 0.25, "\(symbol): \(adjusted)")
        let (_, published) = try Self.moveAcrossExDate(.sp500Unadjusted, symbol, exDate)
        #expect(abs(published) > 0.4, "\(symbol): \(published)")
        // The whole holding: final equity is the cash paid plus 100 × the last close of the adjusted file.
        let result = try Self.holdThrough(.sp500, symbol)
        let fill = try #require(result.fills.first)
        let last = try #require(Self.rows(.sp500, symbol).last).close
        let expected = result.initialCash.doubleValue - 100 * fill.price.doubleValue - fill.commission.doubleValue
            + 100 * last
        #expect(abs(result.finalEquity.doubleValue - expected) < 0.01)
        #expect(fill.quantity == Quantity(100))
    }
}
