import Backtest
import Foundation
import Testing
import TradingEngine
import TradingModel

/// The performance allocator's schedules and trading (issue 22): which bars reallocate under `daily`, `weekly`,
/// `monthly` and every N bars; that every order is the one the trading rule asks for (a weight cut sells
/// down to the new capital); and shorts, with a base strategy that may go short.
@Suite struct PerformanceAllocatorTradingTests {
    // MARK: - Schedules

    /// Two symbols with a bar at every time: 7 hourly bars a day (14:00–20:00 UTC) for the daily schedule, else
    /// daily bars on the weekdays from Wednesday 2024-01-03 to 2024-04-05, without Monday 2024-01-15, Monday
    /// 2024-02-19 and Friday 2024-03-01 (so a week and a month start on a later day).
    static func times(intraday: Bool) -> [Timestamp] {
        var times: [Timestamp] = []
        var day = Timestamp(year: 2024, month: 1, day: 3)
        let skipped = [Timestamp(year: 2024, month: 1, day: 15), Timestamp(year: 2024, month: 2, day: 19),
                       Timestamp(year: 2024, month: 3, day: 1)]
        while day < Timestamp(year: 2024, month: intraday ? 1 : 4, day: intraday ? 13 : 6) {
            if (day.dayNumber + 3) % 7 < 5, !skipped.contains(day) {
                times += intraday ? (14...20).map { day + .seconds(Int64($0) * 3600) } : [day]
            }
            day = day + .days(1)
        }
        return times
    }

    static func data(_ times: [Timestamp]) -> MarketData {
        let series = (0..<2).map { k in
            times.indices.map { t in
                let close = Price(approximately: 50 + Double(k) * 10 + Double((t * (k + 3)) % 7) + Double(t) * 0.05)
                return Bar(timestamp: times[t], open: close, high: close, low: close, close: close, volume: Quantity(1_000))
            }
        }
        return MarketData(universe: Universe(symbols: [Symbol("AAA"), Symbol("BBB")]), series: series)
    }

    /// The first time step of each new period (the first period is where the run starts: no reallocation), by
    /// Foundation's Gregorian calendar in UTC with weeks from Monday; every N: steps N, 2N, … (counting from 1).
    static func expectedReallocations(_ times: [Timestamp], _ schedule: RebalanceSchedule) -> [Timestamp] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.firstWeekday = 2
        func period(_ time: Timestamp) -> [Int] {
            let date = Date(timeIntervalSince1970: Double(time.nanoseconds / Timestamp.nanosecondsPerSecond))
            let c = calendar.dateComponents([.year, .month, .day, .weekOfYear, .yearForWeekOfYear], from: date)
            switch schedule {
            case .daily: return [c.year ?? 0, c.month ?? 0, c.day ?? 0]
            case .weekly: return [c.yearForWeekOfYear ?? 0, c.weekOfYear ?? 0]
            case .monthly: return [c.year ?? 0, c.month ?? 0]
            case .everyBars: return []
            }
        }
        if case let .everyBars(n) = schedule { return times.indices.filter { ($0 + 1) % n == 0 }.map { times[$0] } }
        return times.indices.dropFirst().filter { period(times[$0]) != period(times[$0 - 1]) }.map { times[$0] }
    }

    static let schedules: [RebalanceSchedule] = [.daily, .weekly, .monthly, .everyBars(7)]

    @Test(arguments: schedules)
    func reallocatesOnTheFirstBarOfEachNewPeriod(_ schedule: RebalanceSchedule) {
        let times = Self.times(intraday: schedule == .daily)
        let config = PerformanceAllocatorConfig(
            base: .movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 2, slowPeriod: 3)),
            window: 3, reallocation: schedule, topCount: 2, maxWeight: 0.5, step: 1)
        let result = BacktestRunner.run(spec: .performanceAllocator(config: config), data: Self.data(times))
        var reallocated: [Timestamp] = []
        for record in result.allocations where reallocated.last != record.time { reallocated.append(record.time) }
        let expected = Self.expectedReallocations(times, schedule)
        #expect(reallocated == expected, "\(schedule)")
        #expect(result.allocations.count == 2 * expected.count, "one record per symbol and reallocation")
        switch schedule {
        case .daily: #expect(expected.count == 7 && expected.allSatisfy { $0.nanoseconds % Timestamp.nanosecondsPerDay == 14 * 3_600_000_000_000 })
        case .weekly:
            // Tuesday 2024-01-16 and Tuesday 2024-02-20 start their weeks (the Mondays are missing).
            #expect(expected.contains(Timestamp(year: 2024, month: 1, day: 16)) && expected.contains(Timestamp(year: 2024, month: 2, day: 20)))
            #expect(expected.count == 13)
        case .monthly:
            #expect(expected == [Timestamp(year: 2024, month: 2, day: 1), Timestamp(year: 2024, month: 3, day: 4),
                                 Timestamp(year: 2024, month: 4, day: 1)])
        case .everyBars: #expect(expected.count == times.count / 7)
        }
    }

    // MARK: - Trading

    /// The orders the trading rule gives, replayed over the run's own fills, reallocations and equity: at the
    /// end of each time step, for each symbol with a bar, when the signal differs from the held direction, or at a
    /// reallocation while holding, the position becomes `signal × floor(w × E_R / close)`, where w is the weight and
    /// E_R the equity of the latest reallocation R (0 before the first).
    static func expectedOrders(
        _ result: BacktestResult, data: MarketData, signals: [[Double]]
    ) -> [(time: Timestamp, symbol: Int, side: Side, quantity: Int64)] {
        let equity = Dictionary(uniqueKeysWithValues: (0..<result.equityCurve.count).map {
            (result.equityCurve.time(at: $0), result.equityCurve.equity(at: $0).doubleValue)
        })
        var capital = [Double](repeating: 0, count: data.universe.count)
        var byTime: [Timestamp: [AllocationRecord]] = [:]
        for record in result.allocations { byTime[record.time, default: []].append(record) }
        var orders: [(time: Timestamp, symbol: Int, side: Side, quantity: Int64)] = []
        let times = Set(data.series.flatMap { $0.map(\.timestamp) }).sorted()
        for time in times {
            let reallocation = byTime[time]
            for record in reallocation ?? [] { capital[record.instrument.index] = record.weight * (equity[time] ?? .nan) }
            for k in data.series.indices {
                guard let index = data.series[k].firstIndex(where: { $0.timestamp == time }) else { continue }
                let held = result.fills.filter { $0.instrument.index == k && $0.timestamp <= time }
                    .reduce(Int64(0)) { $0 + $1.side.sign * $1.quantity.units } / FixedPoint.scale
                let signal = signals[k][index]
                let heldSign: Double = held > 0 ? 1 : held < 0 ? -1 : 0
                guard signal != heldSign || (reallocation != nil && held != 0) else { continue }
                let desired = Int64(signal) * Int64((capital[k] / data.series[k][index].close.doubleValue).rounded(.down))
                if desired != held { orders.append((time, k, desired > held ? .buy : .sell, abs(desired - held))) }
            }
        }
        return orders
    }

    static func actualOrders(_ result: BacktestResult) -> [(time: Timestamp, symbol: Int, side: Side, quantity: Int64)] {
        result.orders.map { ($0.createdAt, $0.instrument.index, $0.side, $0.quantity.units / FixedPoint.scale) }
    }

    static func same(
        _ a: [(time: Timestamp, symbol: Int, side: Side, quantity: Int64)],
        _ b: [(time: Timestamp, symbol: Int, side: Side, quantity: Int64)]
    ) -> Bool {
        func key(_ o: (time: Timestamp, symbol: Int, side: Side, quantity: Int64)) -> String {
            "\(o.time.nanoseconds) \(o.symbol) \(o.side.rawValue) \(o.quantity)"
        }
        return a.map(key).sorted() == b.map(key).sorted()
    }

    /// The closes of each symbol of the reference data set, and its SMA 10/30 long/flat signals.
    static func referenceSignals(_ data: MarketData, short: Bool) -> [[Double]] {
        data.series.map { bars in
            let closes = bars.map(\.close.doubleValue)
            return short ? Self.longShortSignals(closes) : PerformanceAllocatorReferenceTests.signals(closes)
        }
    }

    @Test func everyOrderIsTheTradingRulesAndAWeightCutSellsDown() {
        let data = PerformanceAllocatorReferenceTests.marketData()
        let result = BacktestRunner.run(
            spec: .performanceAllocator(config: PerformanceAllocatorReferenceTests.config()), data: data)
        let expected = Self.expectedOrders(result, data: data, signals: Self.referenceSignals(data, short: false))
        let actual = Self.actualOrders(result)
        #expect(Self.same(actual, expected), "\(actual.count) orders, \(expected.count) expected")
        // Sells at a reallocation that leave a long position open: weight cuts selling down to the new capital.
        let reallocations = Set(result.allocations.map(\.time))
        let cuts = result.orders.filter { order in
            guard order.side == .sell, reallocations.contains(order.createdAt) else { return false }
            let held = result.fills.filter { $0.instrument == order.instrument && $0.timestamp <= order.createdAt }
                .reduce(Int64(0)) { $0 + $1.side.sign * $1.quantity.units }
            return held > order.quantity.units
        }
        #expect(cuts.count >= 3, "weight cuts exercised: \(cuts.count)")
        // Each fills at the next open (but those of the last bar, which has no next).
        let last = data.series[0].last?.timestamp
        #expect(cuts.allSatisfy { $0.state == .filled || $0.createdAt == last })
    }

    // MARK: - Shorts

    /// SMA 10/30 with shorts: +1 from a strict cross up, −1 from a strict cross down, 0 before the first cross.
    static func longShortSignals(_ closes: [Double]) -> [Double] {
        func sma(_ t: Int, _ n: Int) -> Double? { t + 1 >= n ? closes[(t + 1 - n)...t].reduce(0, +) / Double(n) : nil }
        var signal = [Double](repeating: 0, count: closes.count)
        var state = 0.0
        for t in closes.indices {
            if t >= 1, let f = sma(t, 10), let s = sma(t, 30), let f0 = sma(t - 1, 10), let s0 = sma(t - 1, 30) {
                if f > s && f0 <= s0 { state = 1 }
                if f < s && f0 >= s0 { state = -1 }
            }
            signal[t] = state
        }
        return signal
    }

    @Test func aBaseThatMayGoShortScoresShortsAndSellsShort() {
        let data = PerformanceAllocatorReferenceTests.marketData()
        var config = PerformanceAllocatorReferenceTests.config()
        config.base = .movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 10, slowPeriod: 30, allowShort: true))
        #expect(config.allowsShort)
        let result = BacktestRunner.run(spec: .performanceAllocator(config: config), data: data)

        // allocations.csv against the reference formulas with signals in {−1, 0, 1}.
        let expected = PerformanceAllocatorReferenceTests.reference(signals: Self.longShortSignals)
        let actual = PerformanceAllocatorReferenceTests.produced(result)
        #expect(actual.count == expected.count)
        for (a, e) in zip(actual, expected) {
            #expect(a.day == e.day && a.symbol == e.symbol)
            let close = PerformanceAllocatorReferenceTests.close
            #expect(close(a.shadow, e.shadow) && close(a.score, e.score), "\(a.symbol) \(a.day): \(a) vs \(e)")
            #expect(close(a.target, e.target) && close(a.weight, e.weight), "\(a.symbol) \(a.day): \(a) vs \(e)")
        }
        // The shadow returns differ from long/flat's: short signals count falling closes as gains.
        let longFlat = PerformanceAllocatorReferenceTests.reference()
        #expect(zip(expected, longFlat).contains { $0.shadow != nil && $0.shadow != $1.shadow })

        // Orders follow the trading rule with the signed signal, and short positions are held.
        let orders = Self.expectedOrders(result, data: data, signals: Self.referenceSignals(data, short: true))
        #expect(Self.same(Self.actualOrders(result), orders))
        var held = [Int64](repeating: 0, count: data.universe.count)
        var shortEntries = 0
        for fill in result.fills {
            let before = held[fill.instrument.index]
            held[fill.instrument.index] += fill.side.sign * fill.quantity.units
            if before >= 0, held[fill.instrument.index] < 0 { shortEntries += 1 }
        }
        #expect(shortEntries >= 3, "short positions opened: \(shortEntries)")
    }
}
