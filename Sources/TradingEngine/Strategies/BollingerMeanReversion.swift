import Indicators
import TradingModel

/// Settings of `BollingerMeanReversion`.
public struct BollingerMeanReversionConfig: Hashable, Sendable, Codable {
    /// Moving-average period.
    public var period: Int
    /// Enter when the close is this many standard deviations beyond the middle band.
    public var entryDeviations: Double
    /// Exit when the close is back within this many deviations of the middle (0 = at the middle).
    public var exitDeviations: Double
    /// Allow short entries above the upper band.
    public var allowShort: Bool
    /// Entry size.
    public var sizing: PositionSizer
    /// Optional ATR bracket on entries.
    public var atrStops: ATRStopConfig?

    /// Creates a config; defaults: 20 bars, enter at 2 σ, exit at the middle, long only, 100 shares.
    public init(
        period: Int = 20, entryDeviations: Double = 2, exitDeviations: Double = 0, allowShort: Bool = false,
        sizing: PositionSizer = .fixedQuantity(Quantity(100)), atrStops: ATRStopConfig? = nil
    ) {
        self.period = period
        self.entryDeviations = entryDeviations
        self.exitDeviations = exitDeviations
        self.allowShort = allowShort
        self.sizing = sizing
        self.atrStops = atrStops
    }
}

/// Bollinger-band mean reversion on every instrument: buy a close below the lower band
/// (`middle − entryDeviations·σ`, population σ), exit when the close recovers to `middle − exitDeviations·σ`;
/// shorts mirror it above the upper band when allowed.
///
/// Neutral is not a signal: while the last `period` closes are one price the bands have zero width (or, until the
/// running sums rebase, a width of rounding residue), and the strategy neither enters nor exits (`UnmovedCloses`).
public struct BollingerMeanReversion: Strategy {
    struct Slot: Sendable {
        var mean: SharedReading<SMAIndicator>
        var deviation: SharedReading<StandardDeviationIndicator>
        var atr: ATRIndicator
        var unmoved = UnmovedCloses()
    }
    /// The configuration.
    public let config: BollingerMeanReversionConfig
    var slots: [Slot] = []
    /// Means and deviations a sweep computed once for all its configurations (`nil`: each computed here).
    let shared: SharedIndicators?

    /// Creates the strategy.
    /// - Parameter shared: columns to read the band's mean and σ from (a sweep's); results are the same without them.
    public init(config: BollingerMeanReversionConfig = BollingerMeanReversionConfig(), shared: SharedIndicators? = nil) {
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
            let i = slots.count
            slots.append(Slot(
                mean: SharedReading(
                    SMAIndicator(period: config.period),
                    column: shared?.column(.average(.simple, period: config.period), instrument: i)),
                deviation: SharedReading(
                    StandardDeviationIndicator(period: config.period),
                    column: shared?.column(.deviation(period: config.period), instrument: i)),
                atr: ATRIndicator(period: config.atrStops?.period ?? 14)))
        }
        let close = bar.close.doubleValue
        let atr = slots[i].atr.update(high: bar.high.doubleValue, low: bar.low.doubleValue, close: close)
        let middle = slots[i].mean.update(close)
        let sigma = slots[i].deviation.update(close)
        slots[i].unmoved.update(bar.close)
        guard let middle, let sigma, sigma > 0, !slots[i].unmoved.isFlat(over: max(config.period, 1)) else { return [] }
        let z = (close - middle) / sigma
        let position = context.position(for: id).quantity.units
        let signal: MeanReversionSignal
        if position > 0 {
            signal = z >= -config.exitDeviations ? .exitLong : .none
        } else if position < 0 {
            signal = z <= config.exitDeviations ? .exitShort : .none
        } else if z < -config.entryDeviations {
            signal = .enterLong
        } else if z > config.entryDeviations && config.allowShort {
            signal = .enterShort
        } else {
            signal = .none
        }
        return MeanReversionExecutor(sizing: config.sizing, atrStops: config.atrStops)
            .actions(for: signal, id: id, bar: bar, atr: atr, context: context)
    }
}

extension BollingerMeanReversionConfig {
    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        period = try c.decode(.period, default: d.period)
        entryDeviations = try c.decode(.entryDeviations, default: d.entryDeviations)
        exitDeviations = try c.decode(.exitDeviations, default: d.exitDeviations)
        allowShort = try c.decode(.allowShort, default: d.allowShort)
        sizing = try c.decode(.sizing, default: d.sizing)
        atrStops = try c.decodeOptional(.atrStops, default: d.atrStops)
    }
}
