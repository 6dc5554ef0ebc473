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
    private var states: [IndicatorState]

    /// Creates a runner with fresh indicator state for every spec.
    public init(specs: [IndicatorSpec]) {
        self.specs = specs
        columnNames = specs.flatMap(\.columnNames)
        states = specs.map { IndicatorState(kind: $0.kind) }
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
            states[index].update(bar, into: &output, at: &column)
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

/// The streaming state behind one spec.
private enum IndicatorState: Sendable {
    case sma(SMA), ema(EMA), wma(WMA), rsi(RSI), atr(ATR), bollinger(BollingerBands), macd(MACD)
    case stochastic(Stochastic), roc(ROC), momentum(Momentum), standardDeviation(StandardDeviation)
    case trueRange(TrueRange), williamsR(WilliamsR), cci(CCI), obv(OBV), mfi(MFI)
    case rollingMax(RollingMax), rollingMin(RollingMin)

    init(kind: IndicatorSpec.Kind) {
        switch kind {
        case .sma(let p): self = .sma(SMA(period: p))
        case .ema(let p): self = .ema(EMA(period: p))
        case .wma(let p): self = .wma(WMA(period: p))
        case .rsi(let p): self = .rsi(RSI(period: p))
        case .atr(let p): self = .atr(ATR(period: p))
        case .bollinger(let p, let d): self = .bollinger(BollingerBands(period: p, deviations: d))
        case .macd(let f, let s, let g): self = .macd(MACD(fast: f, slow: s, signal: g))
        case .stochastic(let k, let sk, let sd): self = .stochastic(Stochastic(fastK: k, slowK: sk, slowD: sd))
        case .roc(let p): self = .roc(ROC(period: p))
        case .momentum(let p): self = .momentum(Momentum(period: p))
        case .standardDeviation(let p): self = .standardDeviation(StandardDeviation(period: p))
        case .trueRange: self = .trueRange(TrueRange())
        case .williamsR(let p): self = .williamsR(WilliamsR(period: p))
        case .cci(let p): self = .cci(CCI(period: p))
        case .obv: self = .obv(OBV())
        case .mfi(let p): self = .mfi(MFI(period: p))
        case .rollingMax(let p): self = .rollingMax(RollingMax(period: p))
        case .rollingMin(let p): self = .rollingMin(RollingMin(period: p))
        }
    }

    // Each case updates a local copy and writes it back; the payloads are small value types
    // whose buffers are uniquely referenced, so no copy of their storage is made.
    mutating func update(_ bar: OHLCVBar, into output: inout [Double?], at column: inout Int) {
        func put(_ value: Double?) {
            output[column] = value
            column += 1
        }
        switch self {
        case .sma(var x): put(x.update(bar.close)); self = .sma(x)
        case .ema(var x): put(x.update(bar.close)); self = .ema(x)
        case .wma(var x): put(x.update(bar.close)); self = .wma(x)
        case .rsi(var x): put(x.update(bar.close)); self = .rsi(x)
        case .atr(var x): put(x.update(high: bar.high, low: bar.low, close: bar.close)); self = .atr(x)
        case .bollinger(var x):
            let v = x.update(bar.close)
            put(v?.upper); put(v?.middle); put(v?.lower)
            self = .bollinger(x)
        case .macd(var x):
            let v = x.update(bar.close)
            put(v?.macd); put(v?.signal); put(v?.histogram)
            self = .macd(x)
        case .stochastic(var x):
            let v = x.update(high: bar.high, low: bar.low, close: bar.close)
            put(v?.slowK); put(v?.slowD)
            self = .stochastic(x)
        case .roc(var x): put(x.update(bar.close)); self = .roc(x)
        case .momentum(var x): put(x.update(bar.close)); self = .momentum(x)
        case .standardDeviation(var x): put(x.update(bar.close)); self = .standardDeviation(x)
        case .trueRange(var x): put(x.update(high: bar.high, low: bar.low, close: bar.close)); self = .trueRange(x)
        case .williamsR(var x): put(x.update(high: bar.high, low: bar.low, close: bar.close)); self = .williamsR(x)
        case .cci(var x): put(x.update(high: bar.high, low: bar.low, close: bar.close)); self = .cci(x)
        case .obv(var x): put(x.update(close: bar.close, volume: bar.volume)); self = .obv(x)
        case .mfi(var x):
            put(x.update(high: bar.high, low: bar.low, close: bar.close, volume: bar.volume))
            self = .mfi(x)
        case .rollingMax(var x): put(x.update(bar.high)); self = .rollingMax(x)
        case .rollingMin(var x): put(x.update(bar.low)); self = .rollingMin(x)
        }
    }
}
