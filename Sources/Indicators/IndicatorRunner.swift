/// One bar of input for ``IndicatorRunner``.
public struct OHLCVBar: Sendable, Equatable {
    /// Opening price.
    public var open: Double
    /// Highest price.
    public var high: Double
    /// Lowest price.
    public var low: Double
    /// Closing price.
    public var close: Double
    /// Traded volume.
    public var volume: Double

    /// Creates a bar.
    public init(open: Double, high: Double, low: Double, close: Double, volume: Double) {
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
    }
}

/// One named output column: a value per input bar, `nil` where the indicator is still warming up.
public struct IndicatorColumn: Sendable, Equatable {
    /// The column name, e.g. `bb_upper_20_2`.
    public var name: String
    /// One entry per input bar.
    public var values: [Double?]

    /// Creates a column.
    public init(name: String, values: [Double?]) {
        self.name = name
        self.values = values
    }
}

/// Why ``IndicatorRunner/compute(_:open:high:low:close:volume:)`` could not run.
public enum IndicatorInputError: Error, Equatable, Sendable {
    /// The OHLCV arrays do not all have the same length.
    case mismatchedLengths(open: Int, high: Int, low: Int, close: Int, volume: Int)
}

/// Runs a list of ``IndicatorSpec``s over bars, either bar by bar or over whole arrays.
///
/// ```swift
/// let specs = try IndicatorSpec.parse("sma:10,rsi:14")
/// let columns = try IndicatorRunner.compute(specs, bars: bars)
/// columns.map(\.name)   // ["sma_10", "rsi_14"]
/// ```
public struct IndicatorRunner: Sendable {
    /// The specs being computed, in order.
    public let specs: [IndicatorSpec]
    /// All output column names, in order (a spec may produce several columns).
    public let columnNames: [String]
    private var states: [any BarIndicator]

    /// Creates a runner with fresh indicator state for every spec.
    public init(specs: [IndicatorSpec]) {
        self.specs = specs
        columnNames = specs.flatMap(\.columnNames)
        states = specs.map { makeIndicator($0.kind) }
    }

    /// Feeds one bar to every indicator and writes one value per column into `output`.
    ///
    /// `output` is resized to `columnNames.count` if needed, so a caller that reuses it
    /// allocates nothing per bar.
    public mutating func update(_ bar: OHLCVBar, into output: inout [Double?]) {
        if output.count != columnNames.count {
            output = [Double?](repeating: nil, count: columnNames.count)
        }
        var column = 0
        for index in states.indices {
            states[index].write(bar, into: &output, at: &column)
        }
    }

    /// Computes every column over a whole series of bars.
    /// - Returns: one ``IndicatorColumn`` per column name, each with `bars.count` values.
    public static func compute(_ specs: [IndicatorSpec], bars: [OHLCVBar]) -> [IndicatorColumn] {
        var runner = IndicatorRunner(specs: specs)
        var columns = runner.columnNames.map { name in
            var column = IndicatorColumn(name: name, values: [])
            column.values.reserveCapacity(bars.count)
            return column
        }
        var row: [Double?] = []
        for bar in bars {
            runner.update(bar, into: &row)
            for index in columns.indices { columns[index].values.append(row[index]) }
        }
        return columns
    }

    /// Computes every column over parallel OHLCV arrays.
    /// - Throws: ``IndicatorInputError/mismatchedLengths(open:high:low:close:volume:)``.
    public static func compute(
        _ specs: [IndicatorSpec], open: [Double], high: [Double], low: [Double], close: [Double], volume: [Double]
    ) throws(IndicatorInputError) -> [IndicatorColumn] {
        let n = close.count
        guard open.count == n, high.count == n, low.count == n, volume.count == n else {
            throw .mismatchedLengths(
                open: open.count, high: high.count, low: low.count, close: close.count, volume: volume.count)
        }
        let bars = (0..<n).map { i in
            OHLCVBar(open: open[i], high: high[i], low: low[i], close: close[i], volume: volume[i])
        }
        return compute(specs, bars: bars)
    }
}

/// An indicator the runner can feed a whole bar. Mutating through the existential updates the boxed
/// value in place, so no indicator storage is copied per bar.
private protocol BarIndicator: Sendable {
    /// Updates with `bar` and writes this indicator's columns at `column`, advancing it.
    mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int)
}

private func makeIndicator(_ kind: IndicatorSpec.Kind) -> any BarIndicator {
    switch kind {
    case .sma(let p): SMA(period: p)
    case .ema(let p): EMA(period: p)
    case .wma(let p): WMA(period: p)
    case .rsi(let p): RSI(period: p)
    case .atr(let p): ATR(period: p)
    case .bollinger(let p, let d): BollingerBands(period: p, deviations: d)
    case .macd(let f, let s, let g): MACD(fast: f, slow: s, signal: g)
    case .stochastic(let k, let sk, let sd): Stochastic(fastK: k, slowK: sk, slowD: sd)
    case .roc(let p): ROC(period: p)
    case .momentum(let p): Momentum(period: p)
    case .standardDeviation(let p): StandardDeviation(period: p)
    case .trueRange: TrueRange()
    case .williamsR(let p): WilliamsR(period: p)
    case .cci(let p): CCI(period: p)
    case .obv: OBV()
    case .mfi(let p): MFI(period: p)
    case .rollingMax(let p): RollingMax(period: p)
    case .rollingMin(let p): RollingMin(period: p)
    }
}

/// Writes one value and moves to the next column.
private func put(_ value: Double?, _ output: inout [Double?], _ column: inout Int) {
    output[column] = value
    column += 1
}

extension SMA: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(bar.close), &output, &column)
    }
}

extension EMA: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(bar.close), &output, &column)
    }
}

extension WMA: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(bar.close), &output, &column)
    }
}

extension RSI: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(bar.close), &output, &column)
    }
}

extension ROC: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(bar.close), &output, &column)
    }
}

extension Momentum: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(bar.close), &output, &column)
    }
}

extension StandardDeviation: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(bar.close), &output, &column)
    }
}

extension ATR: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(high: bar.high, low: bar.low, close: bar.close), &output, &column)
    }
}

extension TrueRange: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(high: bar.high, low: bar.low, close: bar.close), &output, &column)
    }
}

extension WilliamsR: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(high: bar.high, low: bar.low, close: bar.close), &output, &column)
    }
}

extension CCI: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(high: bar.high, low: bar.low, close: bar.close), &output, &column)
    }
}

extension OBV: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(close: bar.close, volume: bar.volume), &output, &column)
    }
}

extension MFI: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(high: bar.high, low: bar.low, close: bar.close, volume: bar.volume), &output, &column)
    }
}

/// The rolling maximum runs over highs (the channel top), as in a Donchian channel.
extension RollingMax: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(bar.high), &output, &column)
    }
}

/// The rolling minimum runs over lows (the channel bottom), as in a Donchian channel.
extension RollingMin: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        put(update(bar.low), &output, &column)
    }
}

extension BollingerBands: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        let bands = update(bar.close)
        put(bands?.upper, &output, &column)
        put(bands?.middle, &output, &column)
        put(bands?.lower, &output, &column)
    }
}

extension MACD: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        let lines = update(bar.close)
        put(lines?.macd, &output, &column)
        put(lines?.signal, &output, &column)
        put(lines?.histogram, &output, &column)
    }
}

extension Stochastic: BarIndicator {
    fileprivate mutating func write(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        let lines = update(high: bar.high, low: bar.low, close: bar.close)
        put(lines?.slowK, &output, &column)
        put(lines?.slowD, &output, &column)
    }
}

extension IndicatorInputError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .mismatchedLengths(let open, let high, let low, let close, let volume):
            "the columns have different lengths (open \(open), high \(high), low \(low), close \(close), volume \(volume))"
        }
    }
}
