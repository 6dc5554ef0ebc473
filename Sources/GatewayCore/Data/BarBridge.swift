import Foundation
import Simulation
import TradingModel

/// The intraday path of one coarse bar (longer than a minute): a seeded random walk pinned to the bar's open, high,
/// low and close, on a grid of `steps` 5-second steps (4,680 for a daily bar's 14:30–21:00 UTC session).
///
/// The model, step by step:
/// 1. **Bounds.** `low` and `high` are the bar's low and high, widened to the open and close should either lie outside
///    them (the CSV loader already widens the 78 such rows the sp500 set keeps as published).
/// 2. **Which extreme first.** With `range = high − low`, going high first travels
///    `a = (high − open) + range + (close − low)` and going low first `b = (open − low) + range + (high − close)`.
///    High comes first with probability `b² / (a² + b²)`: the shorter route is the likelier one, so a down day
///    (close < open) more often makes its high first; a doji is even odds.
/// 3. **When.** Each of the three legs (open → first extreme, first → second extreme, second extreme → close) gets
///    a minimum share of the bar, `0.1 × (leg distance / range)²` (so `0.1` for the middle leg), so no leg covers a
///    long way in a few seconds. The rest of the bar (at least 70 %) is split at two sorted draws of the arcsine law
///    (Lévy's law for when a Brownian motion peaks), which puts extremes more often near the open and the close.
/// 4. **In between.** Each leg is a Brownian bridge between its pinned ends with volatility `0.5 × range` per √bar,
///    reflected back into `[low, high]` wherever it would leave it. It is built by bisection: a grid point is drawn
///    from the bridge law given the two points that bracket it. So the path never leaves `[low, high]` and touches
///    both at their pinned steps (and maybe again).
/// 5. **Clock.** Session (daily) bars run on their volume clock, `volumeShare`, so the price moves most when most
///    trades; intraday bars on plain time.
///
/// Every draw is SplitMix64 seeded from the series seed and the bar itself (time, OHLCV); a grid point's draw from
/// that seed and its step. Any point is thus computed alone in O(log steps), without a stored path, and the same bar
/// gives the same path on every run.
struct BarBridge: Sendable {
    /// Brownian volatility per √bar, as a fraction of the range.
    static let volatility = 0.5
    /// Minimum share of the bar for a leg that travels the whole range.
    static let minimumLegShare = 0.1

    /// Grid steps; points run from 0 (the open) to `steps` (the close).
    let steps: Int
    /// The open, in price units.
    let open: Int64
    /// The close, in price units.
    let close: Int64
    /// The lower bound, reached at least once.
    let low: Int64
    /// The upper bound, reached at least once.
    let high: Int64
    /// Step of the first extreme (1 ≤ firstStep < secondStep ≤ steps − 1).
    let firstStep: Int
    /// Step of the second extreme.
    let secondStep: Int
    /// `true` when the high comes first.
    let highFirst: Bool
    /// `true` for a session bar (volume clock).
    let sessionClock: Bool
    /// The bar's seed.
    let seed: UInt64

    /// The path of a bar.
    /// - Parameters:
    ///   - bar: the source bar.
    ///   - steps: 5-second steps in its window (at least 3, so both extremes have a step of their own).
    ///   - sessionClock: `true` for a daily bar (U-shaped volume and volatility).
    ///   - seed: the series seed.
    init(bar: Bar, steps: Int, sessionClock: Bool, seed seriesSeed: UInt64) {
        precondition(steps >= 3, "a bridge needs a step for the open, each extreme and the close")
        self.steps = steps
        self.sessionClock = sessionClock
        open = bar.open.units
        close = bar.close.units
        low = min(bar.low.units, open, close)
        high = max(bar.high.units, open, close)
        var mixed = seriesSeed
        for field in [bar.timestamp.nanoseconds, open, bar.high.units, bar.low.units, close, bar.volume.units] {
            var g = SplitMix64(seed: mixed ^ UInt64(bitPattern: field))
            mixed = g.next()
        }
        seed = mixed
        // The plan's own stream; grid points use seed ^ (step × odd constant), never equal to ~seed for a step ≥ 1.
        var random = SplitMix64(seed: ~mixed)
        let range = Double(high - low)
        guard range > 0 else {
            highFirst = true
            firstStep = 1
            secondStep = 2
            return
        }
        let up = Double(high - open) + range + Double(close - low)
        let down = Double(open - low) + range + Double(high - close)
        highFirst = random.nextUnit() < down * down / (up * up + down * down)
        let first = highFirst ? high : low, second = highFirst ? low : high
        func share(_ distance: Int64) -> Double {
            let x = Double(distance.magnitude) / range
            return Self.minimumLegShare * x * x
        }
        let need = (share(first - open), Self.minimumLegShare, share(close - second))
        let slack = 1 - need.0 - need.1 - need.2
        func arcsine() -> Double { (1 - cos(Double.pi * random.nextUnit())) / 2 }
        let u = arcsine(), v = arcsine()
        let t1 = need.0 + slack * min(u, v)
        let t2 = t1 + need.1 + slack * (max(u, v) - min(u, v))
        let n = Double(steps)
        firstStep = min(max(Int((t1 * n).rounded()), 1), steps - 2)
        secondStep = min(max(Int((t2 * n).rounded()), firstStep + 1), steps - 1)
    }

    /// Share of a session's volume traded by fraction `x` of it: the integral of a U-shaped rate ∝ 1 + 3(2x − 1)²,
    /// twice the average at the open and the close and half of it at midday (F(0) = 0, F(½) = ½, F(1) = 1).
    static func volumeShare(_ x: Double) -> Double {
        let d = 2 * x - 1
        return (x + (d * d * d + 1) / 2) / 2
    }

    /// The path at grid step `k` (clamped to 0…steps), in price units.
    func value(at k: Int) -> Int64 {
        if k <= 0 { return open }
        if k >= steps { return close }
        var (i, vi, j, vj) = leg(containing: k)
        if k == i { return vi }
        while true {
            let m = (i + j) / 2
            let vm = point(m, between: i, vi, and: j, vj)
            if m == k { return vm }
            if k < m { (j, vj) = (m, vm) } else { (i, vi) = (m, vm) }
        }
    }

    /// The lowest and highest path values over grid steps `from…through` (clamped to 0…steps; `from ≤ through`).
    func extremes(from a: Int, through b: Int) -> (low: Int64, high: Int64) {
        let a = max(0, a), b = min(steps, b)
        // Both bounds are attained at the pinned steps and never passed: nothing to walk.
        if a <= firstStep, b >= secondStep { return (low, high) }
        let pins = self.pins
        var result = (low: Int64.max, high: Int64.min)
        for (k, v) in pins where k >= a && k <= b {
            result = (min(result.low, v), max(result.high, v))
        }
        for n in 0..<3 { walk(pins[n].step, pins[n].value, pins[n + 1].step, pins[n + 1].value, a, b, &result) }
        return result
    }

    /// The four pinned points: open, first extreme, second extreme, close.
    var pins: [(step: Int, value: Int64)] {
        [(0, open), (firstStep, highFirst ? high : low), (secondStep, highFirst ? low : high), (steps, close)]
    }

    /// The leg `(i, value, j, value)` whose closed span holds `k` (0 < k < steps).
    private func leg(containing k: Int) -> (Int, Int64, Int, Int64) {
        let first = highFirst ? high : low, second = highFirst ? low : high
        if k < firstStep { return (0, open, firstStep, first) }
        if k < secondStep { return (firstStep, first, secondStep, second) }
        return (secondStep, second, steps, close)
    }

    /// Visits the grid points strictly between `i` and `j` that lie in `a…b`, folding them into `result`.
    private func walk(
        _ i: Int, _ vi: Int64, _ j: Int, _ vj: Int64, _ a: Int, _ b: Int, _ result: inout (low: Int64, high: Int64)
    ) {
        guard j - i > 1, a < j, b > i, result.low > low || result.high < high else { return }
        let m = (i + j) / 2
        let vm = point(m, between: i, vi, and: j, vj)
        if m >= a, m <= b { result = (min(result.low, vm), max(result.high, vm)) }
        walk(i, vi, m, vm, a, b, &result)
        walk(m, vm, j, vj, a, b, &result)
    }

    /// Grid point `m` drawn from the Brownian bridge between `(i, vi)` and `(j, vj)`, reflected into the bounds.
    private func point(_ m: Int, between i: Int, _ vi: Int64, and j: Int, _ vj: Int64) -> Int64 {
        let ti = clock(i), tj = clock(j), tm = clock(m)
        let span = tj - ti
        let mean = Double(vi) + Double(vj - vi) * ((tm - ti) / span)
        let deviation = Self.volatility * Double(high - low) * ((tm - ti) * (tj - tm) / span).squareRoot()
        var random = SplitMix64(seed: seed ^ (UInt64(m) &* 0xD1B5_4A32_D192_ED03))
        return reflect(Int64((mean + deviation * random.nextGaussian()).rounded()))
    }

    /// The bridge's time at grid step `k`, from 0 to 1.
    private func clock(_ k: Int) -> Double {
        let x = Double(k) / Double(steps)
        return sessionClock ? Self.volumeShare(x) : x
    }

    /// Folds a value back into `[low, high]` as a mirror would.
    private func reflect(_ x: Int64) -> Int64 {
        let range = high - low
        guard range > 0 else { return low }
        var r = (x - low) % (2 * range)
        if r < 0 { r += 2 * range }
        return low + (r > range ? 2 * range - r : r)
    }
}
