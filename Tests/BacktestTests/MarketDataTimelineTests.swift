import Backtest
import Simulation
import Testing
import TradingModel

/// The merged timeline of several series: every bar once, in (time, instrument) order, whatever the series' shapes.
@Suite struct MarketDataTimelineTests {
    /// The definition the merge must meet: at each step, of every series' next bar the earliest, the lowest
    /// instrument on a tie (a scan of every head per bar: the former implementation, O(bars × instruments)).
    static func reference(_ series: [[Bar]]) -> [[Int32]] {
        var cursors = Array(repeating: 0, count: series.count)
        var merged: [[Int32]] = []
        while true {
            var best = -1
            var bestTime = Int64.max
            for k in series.indices where cursors[k] < series[k].count {
                let t = series[k][cursors[k]].timestamp.nanoseconds
                if t < bestTime {
                    bestTime = t
                    best = k
                }
            }
            guard best >= 0 else { return merged }
            merged.append([Int32(best), Int32(cursors[best])])
            cursors[best] += 1
        }
    }

    static func bar(_ minute: Int64) -> Bar {
        let price = Price(units: 100_0000_0000)
        return Bar(
            timestamp: Timestamp(nanoseconds: minute * 60_000_000_000), open: price, high: price, low: price,
            close: price, volume: Quantity(1))
    }

    /// Random universes: late starts, gaps, early ends, empty series, shared and distinct times, and a series whose
    /// times go backwards (bad data keeps the same order as the definition, not a crash).
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func theMergeEqualsTheDefinition(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let count = 2 + Int(random.next() % 40)
        var series: [[Bar]] = []
        for k in 0..<count {
            var minute = Int64(random.next() % 50)
            var bars: [Bar] = []
            let length = k == 1 ? 0 : Int(random.next() % 300)
            for _ in 0..<length {
                bars.append(Self.bar(minute))
                minute += Int64(1 + random.next() % 3)
                if k == 2, random.next() % 10 == 0 { minute -= 5 }
            }
            series.append(bars)
        }
        let symbols = (0..<count).map { Symbol("S\($0)") }
        let data = MarketData(universe: Universe(symbols: symbols), series: series)
        #expect(data.timeline.map { [$0.instrument, $0.index] } == Self.reference(series))
        #expect(data.timeline.count == series.reduce(0) { $0 + $1.count })
    }

    /// Aligned series (the shape of a catalogue universe): each time step lists every instrument in order.
    @Test func alignedSeriesInterleaveByInstrumentAtEveryStep() {
        let series = (0..<5).map { _ in (0..<100).map { Self.bar(Int64($0)) } }
        let data = MarketData(universe: Universe(symbols: (0..<5).map { Symbol("S\($0)") }), series: series)
        for (k, entry) in data.timeline.enumerated() {
            #expect(entry.instrument == Int32(k % 5) && entry.index == Int32(k / 5))
        }
    }
}
