import Backtest
import Testing
import TradingEngine
import TradingModel

/// Momentum as a quant expects it: replacement buys not denied, hysteresis against churn, and a symbol whose data
/// ends closed at its last price.
@Suite struct RotationRealismTests {
    /// Daily bars at midnight UTC from day 14,610 (2010-01-01), one per close.
    static func bars(_ closes: [Double]) -> [Bar] {
        closes.enumerated().map { day, close in
            let price = Price(approximately: close)
            return Bar(
                timestamp: Timestamp(nanoseconds: Int64(14_610 + day) * Timestamp.nanosecondsPerDay), open: price,
                high: price, low: price, close: price, volume: Quantity(10_000))
        }
    }

    /// A rising line with a kink: `slope` per bar until `turn`, then `after` per bar.
    static func path(_ count: Int, start: Double, slope: Double, turn: Int = .max, after: Double = 0) -> [Double] {
        (0..<count).map { k in start + slope * Double(min(k, turn)) + after * Double(max(0, k - turn)) }
    }

    @Test func aRotationsReplacementBuysAreNotDeniedByItsOwnSells() throws {
        // Leadership passes from A and B to C and D half-way: the rebalance sells two and buys two at the limit of 2.
        let count = 80
        let data = MarketData(
            universe: Universe(symbols: ["A", "B", "C", "D"]),
            series: [
                Self.bars(Self.path(count, start: 100, slope: 1, turn: 40, after: -1)),
                Self.bars(Self.path(count, start: 100, slope: 0.9, turn: 40, after: -1)),
                Self.bars(Self.path(count, start: 100, slope: 0.1, turn: 40, after: 2)),
                Self.bars(Self.path(count, start: 100, slope: 0.05, turn: 40, after: 1.8)),
            ])
        var config = BacktestConfig()
        config.engine.risk.maxActivePositions = 2
        config.engine.risk.maxGrossExposureRatio = 1
        let momentum = MomentumRotationConfig(
            lookback: 10, holdings: 2, rebalance: .everyBars(10), rankBuffer: 0, minimumWeightChange: 0.02)
        let result = BacktestRunner.run(spec: .momentumRotation(config: momentum), data: data, config: config)
        #expect(result.riskDenials.isEmpty)
        let bought = Set(result.fills.filter { $0.side == .buy }.map { data.universe[$0.instrument].symbol })
        #expect(bought == ["A", "B", "C", "D"])
        #expect(result.positions.filter { !$0.isFlat }.map(\.instrument) == [InstrumentID(2), InstrumentID(3)])
    }

    @Test func aHoldingWithinTheRankBufferIsKept() throws {
        // B edges past A for a while; with a buffer of 1 the top-1 holding A is kept, without one it rotates.
        let count = 60
        var b = Self.path(count, start: 100, slope: 0.5)
        for k in 30..<40 { b[k] += Double(k - 29) * 0.2 }  // a short burst, then back on its line
        let data = MarketData(
            universe: Universe(symbols: ["A", "B", "C"]),
            series: [
                Self.bars(Self.path(count, start: 100, slope: 0.55)), Self.bars(b),
                Self.bars(Self.path(count, start: 100, slope: -0.1)),
            ])
        func trades(buffer: Int) -> Int {
            let momentum = MomentumRotationConfig(
                lookback: 10, holdings: 1, rebalance: .everyBars(5), rankBuffer: buffer, minimumWeightChange: 0.02)
            return BacktestRunner.run(spec: .momentumRotation(config: momentum), data: data).fills.count
        }
        #expect(trades(buffer: 1) == 1)  // the first buy only
        #expect(trades(buffer: 0) > 1)
    }

    @Test func smallDriftsAreNotResized() throws {
        let data = MarketData(
            universe: Universe(symbols: ["A", "B"]),
            series: [Self.bars(Self.path(60, start: 100, slope: 0.3)), Self.bars(Self.path(60, start: 50, slope: 0.1))])
        func orders(_ change: Double) -> Int {
            let momentum = MomentumRotationConfig(
                lookback: 10, holdings: 2, rebalance: .everyBars(5), rankBuffer: 0, minimumWeightChange: change)
            return BacktestRunner.run(spec: .momentumRotation(config: momentum), data: data).orders.count
        }
        #expect(orders(0.02) == 2)  // the two entries; the drift between A and B never reaches 2 % of equity
        #expect(orders(0) > 2)  // one-share resizes
    }

    @Test func aSymbolWhoseDataEndsIsClosedAtItsLastCloseAndReported() throws {
        let data = MarketData(
            universe: Universe(symbols: ["A", "B"]),
            series: [Self.bars(Self.path(30, start: 100, slope: 1)), Self.bars(Self.path(60, start: 100, slope: 0.1))])
        let momentum = MomentumRotationConfig(lookback: 5, holdings: 1, rebalance: .everyBars(5))
        let result = BacktestRunner.run(spec: .momentumRotation(config: momentum), data: data)
        let ending = try #require(result.dataEndings.first)
        #expect(ending.symbol == "A")
        #expect(ending.price == Price(129))
        #expect(ending.lastBarTime == Self.bars([0]).first!.timestamp + .days(29))
        #expect(ending.closedAt == ending.lastBarTime + .days(1))
        #expect(result.positions[0].isFlat)
        #expect(result.orders.allSatisfy { !$0.isOpen || $0.createdAt == result.equityCurve.last?.time })
        let trade = try #require(result.trades.first { $0.symbol == "A" })
        #expect(trade.exitPrice == Price(129))
        let warnings = result.warnings { "\($0.dayNumber)" }
        #expect(warnings.first?.hasPrefix("A: its data ends") == true)
    }
}
