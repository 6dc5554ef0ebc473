import Foundation

/// The sample data sets shipped with IBTrader (see `Resources/PROVENANCE.md`).
///
/// `--data bundled:NAME` on the command line resolves through this type. The files live in the package's resource
/// bundle; `IBTRADER_BUNDLED_DATA` overrides the location (a folder holding the data set folders), e.g. for an
/// installed binary that was copied away from its build folder.
public enum BundledDataSet: String, CaseIterable, Sendable {
    /// 524 S&P 500 members, daily, 2009-08-21 .. 2010-08-20, with `sectors.csv`, split- and spin-off-adjusted.
    case sp500
    /// The same 524 as published: unadjusted across their splits and distributions.
    case sp500Unadjusted = "sp500-unadjusted"
    /// GOOG, AAPL, IBM, MSFT daily, split- and dividend-adjusted.
    case stocks
    /// The same four as published: AAPL and MSFT unadjusted across their splits.
    case stocksUnadjusted = "stocks-unadjusted"
    /// The same four, 1-minute bars of January 2011 generated from a documented model (real daily open, close and
    /// volume, SPY's real minutes as the market factor; see PROVENANCE.md). The simulated demo replays it.
    case stocks1min = "stocks-1min"
    /// SPY daily 2010–2011.
    case spy
    /// SPY 1-minute bars, January and March 2011.
    case spy1min = "spy-1min"
    /// SPY 5-minute bars from an IB download, June 2012.
    case spy5min = "spy-5min"
    /// ^GSPC and ^IXIC daily, 1999–2018.
    case benchmark
    /// E-mini S&P 500 futures, one file per contract month (ESZ2013 … ESZ2014), daily, Q4 2013.
    case futures
    /// EUR.USD 1-hour bars, 2017-04 .. 2018-02.
    case fx
    /// The ES contract months of `futures` with EUR.USD and GBP.USD daily midpoints over the same quarter: a
    /// futures-and-currencies universe on one calendar.
    case futuresFX = "futures-fx"

    /// One line describing the data set, for `--help` texts and listings.
    public var summary: String {
        switch self {
        case .sp500:
            return "524 S&P 500 members, daily 2009-08-21..2010-08-20, with sectors (volume in 100s), split- and "
                + "spin-off-adjusted"
        case .sp500Unadjusted:
            return "the same 524 as published (unadjusted across 4 splits and 3 distributions, volume in 100s)"
        case .stocks: return "GOOG 2004-2013, AAPL/IBM/MSFT 2000-2013, daily, split- and dividend-adjusted"
        case .stocksUnadjusted: return "the same four stocks as published (AAPL and MSFT unadjusted across their splits)"
        case .stocks1min: return "AAPL/GOOG/IBM/MSFT 1-minute bars, Jan 2011, modelled on their real days and SPY's real minutes"
        case .spy: return "SPY daily 2010-2011"
        case .spy1min: return "SPY 1-minute bars, Jan + Mar 2011 (UTC, bar end)"
        case .spy5min: return "SPY 5-minute bars, IB download, Jun 2012 (UTC, bar start, volume in 100s)"
        case .benchmark: return "^GSPC and ^IXIC daily 1999-2018"
        case .futures: return "E-mini S&P 500 futures by contract month (ESZ2013..ESZ2014), daily, Oct-Dec 2013"
        case .fx: return "EUR.USD 1-hour bars, 2017-04..2018-02 (UTC, bar start)"
        case .futuresFX: return "the ES contract months with EUR.USD and GBP.USD daily midpoints (OANDA), Oct-Dec 2013"
        }
    }

    /// Shares per unit of the files' volume column: 100 where the publisher counts in lots of 100 (the S&P 500
    /// sets, IB's 5-minute download), 1 elsewhere. The backtest and the simulator both apply it.
    public var volumeMultiplier: Int64 {
        switch self {
        case .sp500, .sp500Unadjusted, .spy5min: 100
        default: 1
        }
    }

    /// The folder that holds this data set's CSV files.
    /// - Throws: `BundledDataError.notFound` when the resource bundle is missing.
    public func directory(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        try Self.root(environment: environment).appendingPathComponent(rawValue, isDirectory: true)
    }

    /// The folder that holds every bundled data set.
    public static func root(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        if let override = environment["IBTRADER_BUNDLED_DATA"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        if let url = Bundle.module.resourceURL?.appendingPathComponent("Resources", isDirectory: true),
           FileManager.default.fileExists(atPath: url.appendingPathComponent("sp500").path) {
            return url
        }
        if let url = Bundle.module.resourceURL,
           FileManager.default.fileExists(atPath: url.appendingPathComponent("sp500").path) {
            return url
        }
        throw BundledDataError.notFound
    }

    /// The benchmark file used by default (`^GSPC` daily).
    public static func defaultBenchmark(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        try BundledDataSet.benchmark.directory(environment: environment).appendingPathComponent("GSPC_1d.csv")
    }
}

/// Why bundled data could not be found.
public enum BundledDataError: Error, CustomStringConvertible, Equatable {
    /// The resource bundle is not next to the executable.
    case notFound
    /// `bundled:NAME` names no data set.
    case unknownDataSet(String)

    public var description: String {
        switch self {
        case .notFound:
            return "the bundled data was not found next to the executable; set IBTRADER_BUNDLED_DATA to its folder "
                + "(Sources/BundledData/Resources in the repository)"
        case .unknownDataSet(let name):
            let names = BundledDataSet.allCases.map(\.rawValue).joined(separator: ", ")
            return "no bundled data set named '\(name)' (available: \(names))"
        }
    }
}
