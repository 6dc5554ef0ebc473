import Backtest
import Simulation
import Testing
import TradingEngine
import TradingModel

/// Issue 80: whatever delays a strategy's orders (a listed holiday the data trades on, bars outside the session that
/// hold a market order for the open, a volume cap that fills an order in parts, latency), a built-in strategy never
/// stacks an entry on one it is still waiting for: its position never exceeds its sizing.
@Suite("pending orders count")
struct PendingOrdersPropertyTests {
    /// Minute bars from Wednesday 2020-01-15 to Wednesday 2020-01-22 (Monday the 20th is Martin Luther King Jr. Day),
    /// a random walk, with pre-market and after-hours minutes on some days (when `extended`), small random volumes.
    static func bars(seed: UInt64, extended: Bool, holiday: Bool) -> [Bar] {
        var rng = SplitMix64(seed: seed)
        var bars: [Bar] = []
        var price = 100.0
        for day in [15, 16, 17, 20, 21, 22] where holiday || day != 20 {
            // 14:30 UTC is 09:30 New York in January; extended hours from 12:00 (07:00) to 23:00 (18:00).
            let dayStart = Timestamp(nanoseconds: CivilDate.dayNumber(year: 2020, month: 1, day: day) * Timestamp.nanosecondsPerDay)
            let minutes = extended && Bool.random(using: &rng) ? Array(12 * 60..<23 * 60) : Array(14 * 60 + 30..<21 * 60)
            for minute in minutes {
                let open = price
                price = max(1, price * (1 + Double.random(in: -0.003...0.003, using: &rng)))
                let high = max(open, price) + 0.01
                let low = min(open, price) - 0.01
                func p(_ x: Double) -> Price { Price(units: Int64((x * 100).rounded()) * (FixedPoint.scale / 100)) }
                bars.append(Bar(
                    timestamp: dayStart + .seconds(Int64(minute) * 60), open: p(open), high: p(high), low: p(low), close: p(price),
                    volume: Quantity(Int64.random(in: 50...2_000, using: &rng))))
            }
        }
        return bars
    }

    /// The position after each fill, in time order.
    static func positions(_ result: BacktestResult) -> [Int64] {
        var position: Int64 = 0
        return result.fills.sorted { $0.timestamp < $1.timestamp }.map { fill in
            position += fill.side == .buy ? fill.quantity.units : -fill.quantity.units
            return position
        }
    }

    static func config(seed: UInt64) -> BacktestConfig {
        var rng = SplitMix64(seed: seed &+ 99)
        var config = BacktestConfig()
        config.simulation.sessions = TradingSessions()
        config.simulation.maxVolumeParticipation = [nil, 0.5, 0.1, 0.02][Int.random(in: 0..<4, using: &rng)]
        config.simulation.latency = .seconds(Int64.random(in: 0...90, using: &rng))
        return config
    }

    @Test("sma-cross with fixed:100 holds at most 100 shares, never short", arguments: 0..<30)
    func crossover(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let fast = Int.random(in: 2...8, using: &rng)
        let strategy = MovingAverageCrossover(config: MovingAverageCrossoverConfig(
            fastPeriod: fast, slowPeriod: fast + Int.random(in: 2...20, using: &rng), sizing: .fixedQuantity(Quantity(100))))
        let bars = Self.bars(seed: seed, extended: seed % 3 != 0, holiday: seed % 2 == 0)
        let result = BacktestRunner.run(strategy: strategy, bars: bars, config: Self.config(seed: seed))
        let positions = Self.positions(result)
        #expect(!positions.isEmpty)
        let scale = FixedPoint.scale
        #expect(positions.allSatisfy { $0 >= 0 && $0 <= 100 * scale }, "positions \(positions.map { $0 / scale })")
    }

    @Test("rsi and bollinger with fixed:100 hold at most 100 shares either way", arguments: 0..<20)
    func meanReversion(seed: UInt64) {
        let bars = Self.bars(seed: seed, extended: true, holiday: true)
        let sizing = PositionSizer.fixedQuantity(Quantity(100))
        let results = [
            BacktestRunner.run(
                strategy: RSIMeanReversion(config: RSIMeanReversionConfig(period: 5, allowShort: true, sizing: sizing)),
                bars: bars, config: Self.config(seed: seed)),
            BacktestRunner.run(
                strategy: BollingerMeanReversion(config: BollingerMeanReversionConfig(period: 10, allowShort: true, sizing: sizing)),
                bars: bars, config: Self.config(seed: seed)),
        ]
        let scale = FixedPoint.scale
        for result in results {
            let positions = Self.positions(result)
            #expect(positions.allSatisfy { abs($0) <= 100 * scale }, "positions \(positions.map { $0 / scale })")
        }
    }

    @Test("a listed holiday the data trades on trades like any day, and the summary says so once")
    func holidayTradesAsAnOrdinaryDay() {
        let bars = Self.bars(seed: 7, extended: false, holiday: true)
        let strategy = MovingAverageCrossover(config: MovingAverageCrossoverConfig(sizing: .fixedQuantity(Quantity(100))))
        var config = BacktestConfig()
        config.simulation.sessions = TradingSessions()
        let result = BacktestRunner.run(strategy: strategy, bars: bars, config: config)
        let holiday = CivilDate.dayNumber(year: 2020, month: 1, day: 20)
        #expect(result.openedDays == [holiday])
        let onHoliday = result.orders.filter { USEquityCalendar.newYorkDay(of: $0.createdAt) == holiday }
        #expect(!onHoliday.isEmpty && onHoliday.allSatisfy { $0.state == .filled }, "\(onHoliday.map(\.state))")
        let notes = result.warnings(format: { "\($0)" }).filter { $0.contains("exchange calendar lists as closed") }
        #expect(notes.count == 1 && notes[0].contains("2020-01-20 (Martin Luther King Jr. Day)"), "\(notes)")
    }
}
