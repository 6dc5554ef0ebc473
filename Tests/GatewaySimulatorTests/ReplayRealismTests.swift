import Backtest
import BundledData
import Foundation
import Simulation
import TWSProtocol
import Testing
import TWSTestSupport
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator

/// Issue 21, simulator realism: the 5-second bars a data file replays as aggregate back to each of its bars exactly,
/// and a coarse bar's intraday path is a seeded bridge through open, high, low and close with a U-shaped volume
/// profile, not straight lines.
@Suite(.ownThread) struct ReplayRealismTests {
    // MARK: - Exact aggregates over the bundled files

    @Test("1-minute SPY: the 5-second bars of every source bar aggregate to it")
    func oneMinuteFile() throws {
        let series = try Self.series(.spy1min, "SPY_1min.csv", resolution: .minutes(1))
        try Self.expectExactAggregates(series, bars: Array(series.bars.indices), fiveSecondBarsPerBar: 12)
    }

    @Test("1-minute stocks: the 5-second bars of every source bar aggregate to it", arguments: ["AAPL", "GOOG", "IBM", "MSFT"])
    func oneMinuteStocks(symbol: String) throws {
        let series = try Self.series(.stocks1min, "\(symbol)_1min.csv", resolution: .minutes(1))
        #expect(series.bars.count == 20 * 390)
        try Self.expectExactAggregates(series, bars: Array(series.bars.indices), fiveSecondBarsPerBar: 12)
    }

    /// The generated minutes keep each session's real open, close (to the cent) and volume (PROVENANCE.md).
    @Test("1-minute stocks: every session opens, closes and trades as the real day", arguments: ["AAPL", "GOOG", "IBM", "MSFT"])
    func oneMinuteStocksKeepTheRealDays(symbol: String) throws {
        let minutes = try Self.series(.stocks1min, "\(symbol)_1min.csv", resolution: .minutes(1)).bars
        let days = try Self.series(.stocksUnadjusted, "\(symbol)_1d.csv", resolution: .days(1)).bars
        let sessions = Dictionary(grouping: minutes) { $0.timestamp.dayNumber }
        #expect(sessions.count == 20)
        for (day, bars) in sessions {
            let real = try #require(days.first { $0.timestamp.dayNumber == day })
            let first = try #require(bars.first), last = try #require(bars.last)
            #expect(abs(first.open.doubleValue - real.open.doubleValue) <= 0.005 + 1e-9, "\(symbol) \(first.timestamp)")
            #expect(abs(last.close.doubleValue - real.close.doubleValue) <= 0.005 + 1e-9, "\(symbol) \(last.timestamp)")
            #expect(bars.reduce(Quantity.zero) { $0 + $1.volume } == real.volume, "\(symbol) \(first.timestamp)")
        }
    }

    @Test("5-minute SPY: the 5-second bars of every source bar aggregate to it")
    func fiveMinuteFile() throws {
        let series = try Self.series(.spy5min, "SPY_5min.csv", resolution: .minutes(5))
        try Self.expectExactAggregates(series, bars: Array(series.bars.indices), fiveSecondBarsPerBar: 60)
    }

    /// No hourly file is bundled: hourly bars are built from the 1-minute SPY file (first open, highest high, lowest
    /// low, last close, summed volume per UTC hour), so they are real prices and volumes.
    @Test("1-hour bars (from the 1-minute SPY file): the 5-second bars of every bar aggregate to it")
    func hourlyBars() throws {
        let minutes = try Self.series(.spy1min, "SPY_1min.csv", resolution: .minutes(1)).bars
        var hours: [Bar] = []
        for bar in minutes {
            let hour = Timestamp(nanoseconds: bar.timestamp.nanoseconds / 3_600_000_000_000 * 3_600_000_000_000)
            if let last = hours.last, last.timestamp == hour {
                hours[hours.count - 1] = Bar(
                    timestamp: hour, open: last.open, high: max(last.high, bar.high), low: min(last.low, bar.low),
                    close: bar.close, volume: last.volume + bar.volume)
            } else {
                hours.append(Bar(timestamp: hour, open: bar.open, high: bar.high, low: bar.low, close: bar.close,
                                 volume: bar.volume))
            }
        }
        let series = InstrumentSeries(bars: hours, resolution: .hours(1))
        #expect(hours.count > 500)
        try Self.expectExactAggregates(series, bars: Array(series.bars.indices), fiveSecondBarsPerBar: 720)
    }

    /// Daily files, sampled (a day is 4,680 five-second bars): AAPL as traded, SPY, the S&P 500 index (volumes in
    /// the billions) and two sp500 files with published rows whose open or close lies outside their low–high range:
    /// both readers skip and count those (4 each), as the backtest does, and replay the rest exactly.
    @Test(arguments: [
        (BundledDataSet.stocksUnadjusted, "AAPL_1d.csv", Int64(1)), (.spy, "SPY_1d.csv", 1),
        (.benchmark, "GSPC_1d.csv", 1), (.sp500, "PDCO_1d.csv", 100), (.sp500, "FISV_1d.csv", 100),
    ])
    func dailyFile(set: BundledDataSet, file: String, volumeMultiplier: Int64) throws {
        let series = try Self.series(
            set, file, resolution: .days(1), volumeMultiplier: volumeMultiplier, skipped: set == .sp500 ? 4 : 0)
        var random = SplitMix64(seed: 21)
        let sample = Set((0..<6).map { _ in Int(random.next() % UInt64(series.bars.count)) })
        try Self.expectExactAggregates(series, bars: sample.sorted(), fiveSecondBarsPerBar: 4_680)
    }

    // MARK: - Edge cases

    /// Hand-made bars that break naive paths, at every resolution that gets a bridge and at 1 minute.
    @Test(arguments: [TimeSpan.minutes(1), .minutes(5), .hours(1), .days(1)])
    func edgeCases(resolution: TimeSpan) throws {
        func p(_ cents: Int64) -> Price { Price(units: cents * 1_000_000) }
        let shapes: [(name: String, open: Int64, high: Int64, low: Int64, close: Int64, volume: Int64)] = [
            ("doji", 10_000, 10_150, 9_900, 10_000, 1_234_567),
            ("flat: high == low", 5_000, 5_000, 5_000, 5_000, 900),
            ("zero volume", 10_000, 10_100, 9_950, 10_050, 0),
            ("7 shares (fewer than the 5-second bars)", 2_000, 2_010, 1_990, 2_005, 7),
            ("a prime volume", 2_000, 2_003, 1_999, 2_001, 1_000_003),
            ("opens at the high, closes at the low", 3_000, 3_000, 2_900, 2_900, 4_681),
            ("opens at the low, closes at the high", 2_900, 3_000, 2_900, 3_000, 4_679),
            ("one tick of range", 1_000, 1_001, 1_000, 1_001, 13),
        ]
        let day = Timestamp(year: 2020, month: 3, day: 2)
        let step = resolution.nanoseconds >= Timestamp.nanosecondsPerDay ? TimeSpan.days(1) : .hours(1)
        let bars = shapes.enumerated().map { n, s in
            Bar(timestamp: day + TimeSpan(nanoseconds: step.nanoseconds * Int64(n)), open: p(s.open), high: p(s.high),
                low: p(s.low), close: p(s.close), volume: Quantity(s.volume))
        }
        let series = InstrumentSeries(bars: bars, resolution: resolution)
        let perBar = Int(min(resolution.nanoseconds, 23_400 * Timestamp.nanosecondsPerSecond) / 5_000_000_000)
        try Self.expectExactAggregates(series, bars: Array(bars.indices), fiveSecondBarsPerBar: perBar)
        let flat = try Self.fiveSecondBars(series, 1)
        #expect(flat.allSatisfy { $0.open == p(5_000) && $0.high == p(5_000) && $0.low == p(5_000) })
        #expect(try Self.fiveSecondBars(series, 2).allSatisfy { $0.volume == .zero })
        let seven = try Self.fiveSecondBars(series, 3).map(\.volume)
        #expect(seven.filter { $0 > .zero }.count == 7, "whole shares: 7 bars of one share, the rest none")
    }

    // MARK: - The bridge

    @Test("a daily bar's 5-second path wiggles: not 3 straight lines, and the same on every run")
    func dailyPathIsAWalkAndDeterministic() throws {
        let series = try Self.series(.stocksUnadjusted, "AAPL_1d.csv", resolution: .days(1))
        let i = 2_000
        let closes = try Self.fiveSecondBars(series, i).map(\.close)
        var turns = 0
        for k in 2..<closes.count {
            let before = closes[k - 1].units - closes[k - 2].units, after = closes[k].units - closes[k - 1].units
            if before * after < 0 { turns += 1 }
        }
        // A piecewise-linear path turns at most twice; a random walk about every other step.
        #expect(turns > 1_000, "\(turns) turns")
        let original = try Self.fiveSecondBars(series, i)
        let again = try Self.fiveSecondBars(InstrumentSeries(bars: series.bars, resolution: .days(1)), i)
        #expect(again == original, "a series built afresh from the same bars replays the same path")
        let other = try Self.fiveSecondBars(InstrumentSeries(bars: series.bars, resolution: .days(1), seed: 99), i)
        #expect(other.map(\.close) != closes, "another seed, another path")
        #expect(Self.aggregate(other) == Self.aggregate(original), "… through the same OHLCV")
    }

    @Test("a point of the path computed alone equals the same point reached by walking the whole bar")
    func pointsAgreeWithRanges() {
        let bar = Bar(timestamp: Timestamp(year: 2012, month: 5, day: 1), open: Price(units: 10_000_000_000),
                      high: Price(units: 10_250_000_000), low: Price(units: 9_800_000_000),
                      close: Price(units: 9_900_000_000), volume: Quantity(5_000_000))
        let bridge = BarBridge(bar: bar, steps: 4_680, sessionClock: true, seed: 5)
        let path = (0...4_680).map { bridge.value(at: $0) }
        #expect(path.first == bar.open.units && path.last == bar.close.units)
        #expect(path.min() == bar.low.units && path.max() == bar.high.units)
        #expect(path[bridge.firstStep] == (bridge.highFirst ? bar.high.units : bar.low.units))
        var random = SplitMix64(seed: 3)
        for _ in 0..<200 {
            let a = Int(random.next() % 4_681), b = Int(random.next() % 4_681)
            let slice = path[min(a, b)...max(a, b)]
            let range = bridge.extremes(from: min(a, b), through: max(a, b))
            #expect(range.low == slice.min() && range.high == slice.max(), "steps \(min(a, b))…\(max(a, b))")
        }
    }

    /// The order of the extremes follows the bar: over 4,000 seeds the share of high-first paths is the model's
    /// b² / (a² + b²) within 3 points (a and b: the distances travelled going high first and low first).
    @Test(arguments: [
        (10_000, 10_200, 9_700, 9_750),  // down day: high first is likelier
        (10_000, 10_300, 9_800, 10_250),  // up day: low first is likelier
        (10_000, 10_100, 9_900, 10_000),  // symmetric doji: even odds
        (10_000, 10_000, 9_600, 9_600),  // opens at the high, closes at the low
    ])
    func extremesOrder(open: Int64, high: Int64, low: Int64, close: Int64) {
        let bar = Bar(timestamp: Timestamp(year: 2012, month: 5, day: 1), open: Price(units: open * 1_000_000),
                      high: Price(units: high * 1_000_000), low: Price(units: low * 1_000_000),
                      close: Price(units: close * 1_000_000), volume: Quantity(1_000))
        let range = Double(high - low)
        let a = Double(high - open) + range + Double(close - low), b = Double(open - low) + range + Double(high - close)
        let model = b * b / (a * a + b * b)
        let runs = 4_000
        var highFirst = 0
        for seed in 0..<runs {
            let bridge = BarBridge(bar: bar, steps: 4_680, sessionClock: true, seed: UInt64(seed))
            if bridge.highFirst { highFirst += 1 }
            #expect(bridge.firstStep >= 1 && bridge.firstStep < bridge.secondStep && bridge.secondStep < 4_680)
        }
        #expect(abs(Double(highFirst) / Double(runs) - model) < 0.03, "\(highFirst) of \(runs), model \(model)")
        if close < open { #expect(highFirst > runs / 2) }
        if close > open { #expect(highFirst < runs / 2) }
    }

    @Test("a session's volume is U-shaped: the first and last half hours trade several times the midday's")
    func volumeProfile() throws {
        let series = try Self.series(.stocksUnadjusted, "IBM_1d.csv", resolution: .days(1))
        let bars = try Self.fiveSecondBars(series, 1_500)
        #expect(bars.count == 4_680)
        func volume(_ range: Range<Int>) -> Int64 { bars[range].reduce(0) { $0 + $1.volume.wholeUnits } }
        let first = volume(0..<360), middle = volume(2_160..<2_520), last = volume(4_320..<4_680)
        // The rate 1 + 3(2x − 1)²: about 3.6 over the first and last half hours against 1.0 at midday.
        #expect(first > 3 * middle && last > 3 * middle, "\(first) / \(middle) / \(last)")
        #expect(abs(first - last) * 50 < first, "symmetric")
        #expect(BarBridge.volumeShare(0) == 0 && BarBridge.volumeShare(0.5) == 0.5 && BarBridge.volumeShare(1) == 1)
    }

    // MARK: - Through the wire

    /// reqRealTimeBars over a whole session of bundled AAPL, as a client gets them (prices rounded to the tick,
    /// volumes as decimals): 4,680 bars that aggregate to the day's bar, and quotes on the same path.
    @Test func realTimeBarsOfASessionAggregateToTheDay() throws {
        let data = try MarketDataSet.bundled(.stocksUnadjusted)
        let instrument = try #require(data.instrument(symbol: "AAPL"))
        var state = GatewayState(data: data, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 1, serverVersion: 200)
        let open = state.now
        let day = try #require(instrument.series.bars.first { $0.timestamp.dayNumber == open.dayNumber })
        _ = state.handle(.realTimeBars(TWSRealTimeBarsRequest(
            requestID: 4, contract: stock("AAPL"), whatToShow: "TRADES", useRTH: true)), from: 1, wallTime: 0)
        var bars: [TWSRealTimeBar] = []
        var quotesOnThePath = 0
        for _ in 0..<78 {  // 5-minute advances, like a client's replay clock, checking the quote after each
            for case .realTimeBar(_, let bar) in sent(state.advance(to: state.now + .minutes(5))) { bars.append(bar) }
            if let quote = QuoteModel.quote(instrument, at: state.now), quote.last.doubleValue == bars.last?.close {
                quotesOnThePath += 1
            }
        }
        #expect(quotesOnThePath == 78, "the last price is the close of the latest 5-second bar")
        #expect(bars.count == 4_680)
        #expect(bars.first?.time == open.nanoseconds / 1_000_000_000)
        #expect(bars.first?.open == day.open.doubleValue && bars.last?.close == day.close.doubleValue)
        #expect(bars.map(\.high).max() == day.high.doubleValue && bars.map(\.low).min() == day.low.doubleValue)
        #expect(bars.reduce(Decimal(0)) { $0 + ($1.volume ?? 0) } == Decimal(day.volume.wholeUnits))
        #expect(Set(bars.map(\.close)).count > 100, "the price moves through the day")
    }

    /// The path now moves more than the spread in 5 seconds: folded tick by tick, as a client does, the book is
    /// never crossed, and it moves at most steps.
    @Test func quoteTicksNeverCrossTheBookInBetween() throws {
        let data = try MarketDataSet.bundled(.stocksUnadjusted)
        var state = GatewayState(data: data, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 1, serverVersion: 200)
        var bid = 0.0, ask = 0.0
        var states = 0, crossed = 0, jumps = 0
        func fold(_ actions: [GatewayAction]) {
            for case .tickPrice(let tick) in sent(actions) {
                switch tick.tickType {
                case .bid: bid = tick.price
                case .ask: ask = tick.price
                default: continue
                }
                states += 1
                if bid >= ask, ask > 0 { crossed += 1 }
            }
        }
        fold(state.handle(.marketData(TWSMarketDataRequest(requestID: 2, contract: stock("AAPL"))), from: 1, wallTime: 0))
        #expect(bid > 0 && ask > bid)
        for _ in 0..<4_680 {
            let before = (bid, ask)
            fold(state.advance(to: state.now + .seconds(5)))
            if bid > before.1 || ask < before.0 { jumps += 1 }
        }
        #expect(jumps > 100, "steps wider than the spread: \(jumps)")
        #expect(states > 4_000 && crossed == 0, "\(crossed) crossed of \(states)")
    }

    // MARK: - Helpers

    /// One bundled file as the simulator loads it.
    static func series(
        _ set: BundledDataSet, _ file: String, resolution: TimeSpan, volumeMultiplier: Int64 = 1, skipped: Int = 0
    ) throws -> InstrumentSeries {
        let path = try set.directory().appendingPathComponent(file).path
        let loaded = try BarCSVLoader.load(path: path, policy: .skip)
        #expect(loaded.skippedRows == skipped)
        return InstrumentSeries(
            bars: try MarketData.scaledVolume(loaded.bars, by: volumeMultiplier, file: path).bars, resolution: resolution)
    }

    /// The 5-second bars of source bar `i`, as reqRealTimeBars summarizes them.
    static func fiveSecondBars(_ series: InstrumentSeries, _ i: Int) throws -> [Bar] {
        let window = series.windows[i]
        var bars: [Bar] = []
        var t = Timestamp(nanoseconds: window.start)
        while t.nanoseconds < window.end {
            let (bar, count) = try #require(series.summarize(from: t, to: t + .seconds(5), now: t + .seconds(5)))
            #expect(count == 1, "a 5-second bar belongs to one source bar")
            bars.append(bar)
            t = t + .seconds(5)
        }
        return bars
    }

    /// First open, highest high, lowest low, last close, summed volume (stamped at the epoch).
    static func aggregate(_ bars: [Bar]) -> Bar? {
        guard let first = bars.first, let last = bars.last else { return nil }
        return Bar(timestamp: .zero, open: first.open, high: bars.map(\.high).max() ?? first.high,
                   low: bars.map(\.low).min() ?? first.low, close: last.close,
                   volume: bars.reduce(Quantity.zero) { $0 + $1.volume })
    }

    /// Every listed bar's 5-second bars: the expected count, each inside the bar's range with whole-share volume,
    /// and together exactly the bar.
    static func expectExactAggregates(_ series: InstrumentSeries, bars: [Int], fiveSecondBarsPerBar: Int) throws {
        var checked = 0
        for i in bars {
            let source = series.bars[i]
            let parts = try fiveSecondBars(series, i)
            #expect(parts.count == fiveSecondBarsPerBar)
            let inside = parts.allSatisfy {
                $0.low >= source.low && $0.high <= source.high && $0.volume >= .zero
                    && $0.volume.units % Quantity(1).units == 0
            }
            #expect(inside, "bar \(i) at \(source.timestamp): a 5-second bar leaves the range or splits a share")
            let expected = Bar(timestamp: .zero, open: source.open, high: source.high, low: source.low,
                               close: source.close, volume: source.volume)
            let total = aggregate(parts)
            #expect(total == expected, "bar \(i) at \(source.timestamp): \(String(describing: total)) vs \(expected)")
            if total == expected { checked += 1 }
        }
        #expect(checked == bars.count && checked > 0)
    }
}
