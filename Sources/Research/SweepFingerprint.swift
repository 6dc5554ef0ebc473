import Backtest
import Foundation
import TradingModel

/// A stable hash of everything a sweep holds fixed: the strategy's settings, the backtest settings, the periods per
/// year and every bar (symbol, time, OHLCV). Equal on every machine for equal inputs (FNV-1a 64 over a canonical
/// text with sorted JSON keys).
///
/// Built from parts so that shards which each read only some symbols (file shards) give the whole sweep's
/// fingerprint when merged: the settings' digest, the periods per year, then each symbol with its bars' digest, in
/// the sweep's symbol order.
public enum SweepFingerprint {
    /// The fingerprint, 16 hex digits.
    public static func make(evaluator: BacktestEvaluator, data: MarketData) -> String {
        combine(
            settings: settingsDigest(evaluator), periodsPerYear: evaluator.periodsPerYear,
            symbols: data.series.indices.map { (data.universe.instruments[$0].symbol.rawValue, barsDigest(data.series[$0])) })
    }

    /// The fingerprint from its parts.
    public static func combine(settings: String, periodsPerYear: Int, symbols: [(symbol: String, bars: String)]) -> String {
        var text = settings + "\n\(periodsPerYear)\n"
        for entry in symbols { text += entry.symbol + "," + entry.bars + "\n" }
        return StableHash.fnv1a64Hex(text)
    }

    /// The digest of the strategy's and the backtest's settings and the sweep's mode (not the periods per year: a file
    /// shard does not know the whole sweep's).
    public static func settingsDigest(_ evaluator: BacktestEvaluator) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var text = ""
        switch evaluator.strategy {
        case .builtIn(let spec):
            if let encoded = try? encoder.encode(spec) { text += String(decoding: encoded, as: UTF8.self) }
        case .custom(let custom):
            text += custom.name + "\n" + custom.identity
        }
        text += "\n"
        if let config = try? encoder.encode(evaluator.config) { text += String(decoding: config, as: UTF8.self) }
        if evaluator.eachSymbol { text += "\neach symbol alone" }
        return StableHash.fnv1a64Hex(text)
    }

    /// The digest of one symbol's bars, 16 hex digits: FNV-1a 64 taken a 64-bit value at a time over each bar's
    /// time and OHLCV units (a byte at a time took 2.4 s of a 500-symbol sweep's load: 18 % of it, perf).
    public static func barsDigest(_ bars: [Bar]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for bar in bars {
            for value in [bar.timestamp.nanoseconds, bar.open.units, bar.high.units, bar.low.units, bar.close.units, bar.volume.units] {
                hash = (hash ^ UInt64(bitPattern: value)) &* 0x0000_0100_0000_01b3
            }
        }
        return StableHash.hex(hash)
    }
}
