import Indicators
import TradingModel

/// Settings of `RSIMeanReversion`.
public struct RSIMeanReversionConfig: Hashable, Sendable, Codable {
    /// RSI period (Wilder).
    public var period: Int
    /// Enter long when RSI falls below this.
    public var oversold: Double
    /// Enter short (if allowed) when RSI rises above this.
    public var overbought: Double
    /// Exit a long when RSI rises above this; exit a short when it falls below `100 − exitLevel`.
    public var exitLevel: Double
    /// Allow short entries.
    public var allowShort: Bool
    /// Entry size.
    public var sizing: PositionSizer
    /// Optional ATR bracket on entries.
    public var atrStops: ATRStopConfig?

    /// Creates a config; defaults: RSI(14), 30/70, exit at 50, long only, 100 shares.
    public init(
        period: Int = 14, oversold: Double = 30, overbought: Double = 70, exitLevel: Double = 50,
        allowShort: Bool = false, sizing: PositionSizer = .fixedQuantity(Quantity(100)), atrStops: ATRStopConfig? = nil
    ) {
        self.period = period
        self.oversold = oversold
        self.overbought = overbought
        self.exitLevel = exitLevel
        self.allowShort = allowShort
        self.sizing = sizing
        self.atrStops = atrStops
    }
}

/// RSI mean reversion on every instrument: buy oversold, sell when RSI recovers past `exitLevel`
/// (and the mirror image for shorts when allowed). Entries only when flat with no open orders.
///
/// Neutral is not a signal: while the last `period + 1` closes are one price (no change in the RSI's window), the RSI
/// is TA-Lib's 0 for "no movement" (or a stale value decaying towards it), not oversold, and the strategy neither
/// enters nor exits (`UnmovedCloses`).
public struct RSIMeanReversion: Strategy {
    struct Slot: Sendable {
        var rsi: SharedReading<RSIIndicator>
        var atr: ATRIndicator
        var unmoved = UnmovedCloses()
    }
    /// The configuration.
    public let config: RSIMeanReversionConfig
    var slots: [Slot] = []
    /// RSIs a sweep computed once for all its configurations (`nil`: each computed here).
    let shared: SharedIndicators?

    /// Creates the strategy.
    /// - Parameter shared: columns to read the RSI from (a sweep's); results are the same without them.
    public init(config: RSIMeanReversionConfig = RSIMeanReversionConfig(), shared: SharedIndicators? = nil) {
        self.config = config
        self.shared = shared
    }

    /// Per-instrument: `.barsClosed` carries nothing for it, so the engine need not deliver it.
    @inlinable public static var handlesBarsClosed: Bool { false }

    /// Reacts to bars; other events are ignored.
    public mutating func handle(_ event: StrategyEvent, in context: borrowing some StrategyContext) -> [StrategyAction] {
        guard case let .bar(id, bar) = event else { return [] }
        let i = id.index
        while slots.count <= i {
            slots.append(Slot(
                rsi: SharedReading(
                    RSIIndicator(period: config.period), column: shared?.column(.rsi(period: config.period), instrument: slots.count)),
                atr: ATRIndicator(period: config.atrStops?.period ?? 14)))
        }
        let close = bar.close.doubleValue
        let atr = slots[i].atr.update(high: bar.high.doubleValue, low: bar.low.doubleValue, close: close)
        slots[i].unmoved.update(bar.close)
        guard let rsi = slots[i].rsi.update(close), !slots[i].unmoved.isFlat(over: max(config.period, 1) + 1) else {
            return []
        }
        let position = context.position(for: id).quantity.units
        let signal: MeanReversionSignal
        if position > 0 {
            signal = rsi > config.exitLevel ? .exitLong : .none
        } else if position < 0 {
            signal = rsi < 100 - config.exitLevel ? .exitShort : .none
        } else if rsi < config.oversold {
            signal = .enterLong
        } else if rsi > config.overbought && config.allowShort {
            signal = .enterShort
        } else {
            signal = .none
        }
        return MeanReversionExecutor(sizing: config.sizing, atrStops: config.atrStops)
            .actions(for: signal, id: id, bar: bar, atr: atr, context: context)
    }
}

extension RSIMeanReversionConfig {
    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        period = try c.decode(.period, default: d.period)
        oversold = try c.decode(.oversold, default: d.oversold)
        overbought = try c.decode(.overbought, default: d.overbought)
        exitLevel = try c.decode(.exitLevel, default: d.exitLevel)
        allowShort = try c.decode(.allowShort, default: d.allowShort)
        sizing = try c.decode(.sizing, default: d.sizing)
        atrStops = try c.decodeOptional(.atrStops, default: d.atrStops)
    }
}
