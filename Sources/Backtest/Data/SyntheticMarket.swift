import Simulation
import TradingModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Seeded synthetic bars: geometric Brownian motion with optional jumps, any number of symbols.
///
/// Per bar: `open = previous close × exp(gap)`, `close = open × exp((μ − σ²/2)dt + σ√dt·z)` plus, with
/// probability `jumpProbability`, a jump `exp(N(0, jumpVolatility))`; high/low extend the body by half-normal
/// wicks. Prices are rounded to `decimals` places and OHLC stays consistent after rounding. Same seed → same bars.
public struct SyntheticMarketConfig: Hashable, Sendable, Codable {
    /// Number of symbols (`SYN000`, `SYN001`, …).
    public var symbols: Int
    /// Bars per symbol.
    public var bars: Int
    /// Annual drift μ.
    public var drift: Double
    /// Annual volatility σ.
    public var volatility: Double
    /// Probability of a jump per bar.
    public var jumpProbability: Double
    /// Standard deviation of a jump's log size.
    public var jumpVolatility: Double
    /// Starting price.
    public var startPrice: Double
    /// Bars per year (sets dt).
    public var barsPerYear: Double
    /// Time between bars.
    public var barInterval: TimeSpan
    /// Time of the first bar.
    public var start: Timestamp
    /// Price decimals.
    public var decimals: Int
    /// Random seed.
    public var seed: UInt64
    /// Bars of a day or longer fall on the US exchanges' trading days only (`USEquityCalendar`: no weekends, no
    /// holidays), as `synthetic:N` makes them: a daily series with a bar on Christmas is no market. Off by default,
    /// so configs and seeds written before it give the same bars.
    public var tradingDaysOnly = false

    /// Creates a config; defaults: 5 daily symbols × 500 bars, μ 8 %, σ 25 %, rare jumps, seed 42.
    public init(
        symbols: Int = 5, bars: Int = 500, drift: Double = 0.08, volatility: Double = 0.25,
        jumpProbability: Double = 0.01, jumpVolatility: Double = 0.05, startPrice: Double = 100,
        barsPerYear: Double = 252, barInterval: TimeSpan = .days(1),
        start: Timestamp = Timestamp(year: 2020, month: 1, day: 2, secondOfDay: 14 * 3600 + 30 * 60),
        decimals: Int = 2, seed: UInt64 = 42
    ) {
        self.symbols = symbols
        self.bars = bars
        self.drift = drift
        self.volatility = volatility
        self.jumpProbability = jumpProbability
        self.jumpVolatility = jumpVolatility
        self.startPrice = startPrice
        self.barsPerYear = barsPerYear
        self.barInterval = barInterval
        self.start = start
        self.decimals = decimals
        self.seed = seed
    }
}

/// Generates `MarketData` from a `SyntheticMarketConfig`.
public enum SyntheticMarket {
    /// Generates every symbol's bars; symbol k uses seed `seed &+ k` and a start price `startPrice + 10k`.
    public static func generate(_ config: SyntheticMarketConfig) -> MarketData {
        let symbols = (0..<config.symbols).map(symbol)
        let series = (0..<config.symbols).map { makeSeries(config, symbol: $0) }
        return MarketData(universe: Universe(symbols: symbols), series: series)
    }

    /// Symbol k's name (`SYN000`, `SYN001`, …).
    public static func symbol(_ k: Int) -> Symbol { Symbol("SYN" + String(1000 + k).dropFirst()) }

    /// Symbol k's bars alone, as `generate` makes them (one symbol at a time keeps a large set out of memory).
    public static func series(_ config: SyntheticMarketConfig, symbol k: Int) -> [Bar] { makeSeries(config, symbol: k) }

    private static func makeSeries(_ c: SyntheticMarketConfig, symbol k: Int) -> [Bar] {
        var rng = SplitMix64(seed: c.seed &+ UInt64(k))
        let dt = 1 / c.barsPerYear
        let sd = c.volatility * dt.squareRoot()
        var step: Int64 = 1
        for _ in 0..<max(0, 8 - c.decimals) { step *= 10 }
        func price(_ x: Double) -> Int64 { max(step, Int64((x * 1e8).rounded()).rounded(toMultipleOf: step)) }
        var close = c.startPrice + 10 * Double(k)
        var bars: [Bar] = []
        bars.reserveCapacity(c.bars)
        let skipsClosedDays = c.tradingDaysOnly && c.barInterval.nanoseconds >= Timestamp.nanosecondsPerDay
        // Intraday bars on trading days fill each regular session (09:30 to the close, early closes too), bar starts.
        let inSessions = c.tradingDaysOnly && c.barInterval.nanoseconds < Timestamp.nanosecondsPerDay
        var day = c.start.dayNumber
        var session = USEquitySession.session(onDay: day)
        var time = c.start
        for i in 0..<c.bars {
            if inSessions {
                time = i == 0 ? session.open : time + c.barInterval
                while !USEquityCalendar.isTradingDay(day) || time >= session.close {
                    day += 1
                    session = USEquitySession.session(onDay: day)
                    time = session.open
                }
            } else if skipsClosedDays {
                if i > 0 { time = time + c.barInterval }
                while !USEquityCalendar.isTradingDay(time.dayNumber) { time = time + .days(1) }
            } else {
                time = c.start + TimeSpan(nanoseconds: c.barInterval.nanoseconds * Int64(i))
            }
            let open = close * exp(0.25 * sd * rng.nextGaussian())
            var next = open * exp((c.drift - 0.5 * c.volatility * c.volatility) * dt + sd * rng.nextGaussian())
            if rng.nextUnit() < c.jumpProbability { next *= exp(c.jumpVolatility * rng.nextGaussian()) }
            let high = max(open, next) * exp(0.5 * sd * abs(rng.nextGaussian()))
            let low = min(open, next) * exp(-0.5 * sd * abs(rng.nextGaussian()))
            let volume = 1 + (1000 * exp(0.5 * rng.nextGaussian())).rounded(.down)
            let o = price(open), cl = price(next)
            let h = max(price(high), max(o, cl)), l = min(price(low), min(o, cl))
            bars.append(Bar(
                timestamp: time,
                open: Price(units: o), high: Price(units: h), low: Price(units: max(l, step)), close: Price(units: cl),
                volume: Quantity(Int64(volume))))
            close = Double(cl) / 1e8
        }
        return bars
    }
}

extension SyntheticMarketConfig {
    /// Decodes a config in which every key is optional; missing keys take the defaults of `init()`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self()
        self = d
        symbols = try c.decode(.symbols, default: d.symbols)
        bars = try c.decode(.bars, default: d.bars)
        drift = try c.decode(.drift, default: d.drift)
        volatility = try c.decode(.volatility, default: d.volatility)
        jumpProbability = try c.decode(.jumpProbability, default: d.jumpProbability)
        jumpVolatility = try c.decode(.jumpVolatility, default: d.jumpVolatility)
        startPrice = try c.decode(.startPrice, default: d.startPrice)
        barsPerYear = try c.decode(.barsPerYear, default: d.barsPerYear)
        barInterval = try c.decode(.barInterval, default: d.barInterval)
        start = try c.decode(.start, default: d.start)
        decimals = try c.decode(.decimals, default: d.decimals)
        seed = try c.decode(.seed, default: d.seed)
        tradingDaysOnly = try c.decode(.tradingDaysOnly, default: d.tradingDaysOnly)
    }
}
