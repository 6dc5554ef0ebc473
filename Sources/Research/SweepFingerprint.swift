import Backtest
import Foundation
import TradingModel

/// A stable hash of everything a sweep holds fixed: the strategy's settings, the backtest settings, the periods per
/// year and every bar (symbol, time, OHLCV). Equal on every machine for equal inputs (FNV-1a 64 over a canonical
/// text with sorted JSON keys).
public enum SweepFingerprint {
    /// The fingerprint, 16 hex digits.
    public static func make(evaluator: BacktestEvaluator, data: MarketData) -> String {
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
        text += "\n\(evaluator.periodsPerYear)\n"
        if evaluator.eachSymbol { text += "each symbol alone\n" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: Int64) {
            var v = UInt64(bitPattern: value)
            for _ in 0..<8 {
                hash ^= v & 0xff
                hash &*= 0x0000_0100_0000_01b3
                v >>= 8
            }
        }
        for (k, series) in data.series.enumerated() {
            text += data.universe.instruments[k].symbol.rawValue + ","
            for bar in series {
                mix(bar.timestamp.nanoseconds)
                mix(bar.open.units)
                mix(bar.high.units)
                mix(bar.low.units)
                mix(bar.close.units)
                mix(bar.volume.units)
            }
        }
        text += String(hash, radix: 16)
        return StableHash.fnv1a64Hex(text)
    }
}
