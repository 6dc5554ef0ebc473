import Backtest
import Simulation
import Testing
import TradingEngine
import TradingModel

@Suite struct BacktestPropertyTests {
    static let market = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 6, bars: 400, seed: 11))

    static func costlyConfig() -> BacktestConfig {
        BacktestConfig(simulation: SimulationConfig(
            slippage: .fixedBasisPoints(2), commission: .ibkrFixedDefault, maxVolumeParticipation: 0.02))
    }

    /// Rebuilds cash and positions from the fills and checks every equity point exactly.
    @Test func equityEqualsCashPlusPositionsAtEveryStep() {
        let result = BacktestRunner.run(
            strategy: MomentumRotation(config: MomentumRotationConfig(lookback: 10, holdings: 2, rebalance: .everyBars(5))),
            data: Self.market, config: Self.costlyConfig())
        #expect(result.fills.count > 50)
        let data = Self.market
        var marks = [Price](repeating: .zero, count: data.universe.count)
        var quantities = [Quantity](repeating: .zero, count: data.universe.count)
        var cash = result.initialCash
        var fillIndex = 0
        var pointIndex = 0
        var cursor = 0
        while cursor < data.timeline.count {
            let time = data.series[Int(data.timeline[cursor].instrument)][Int(data.timeline[cursor].index)].timestamp
            while cursor < data.timeline.count {
                let entry = data.timeline[cursor]
                let bar = data.series[Int(entry.instrument)][Int(entry.index)]
                guard bar.timestamp == time else { break }
                marks[Int(entry.instrument)] = bar.close
                cursor += 1
            }
            while fillIndex < result.fills.count, result.fills[fillIndex].timestamp <= time {
                let f = result.fills[fillIndex]
                quantities[f.instrument.index] += f.signedQuantity
                cash += f.side == .buy ? -f.notional - f.commission : f.notional - f.commission
                fillIndex += 1
            }
            var equity = cash
            for i in marks.indices { equity += Money(price: marks[i], quantity: quantities[i]) }
            let point = result.equityCurve[pointIndex]
            #expect(point.time == time)
            #expect(point.cash == cash)
            #expect(point.equity == equity)
            if point.equity != equity { break }
            pointIndex += 1
        }
        #expect(pointIndex == result.equityCurve.count)
    }

    @Test func partialFillsConserveQuantity() {
        let result = BacktestRunner.run(
            strategy: MomentumRotation(config: MomentumRotationConfig(lookback: 10, holdings: 2, rebalance: .everyBars(5))),
            data: Self.market, config: Self.costlyConfig())
        var filled: [OrderID: Quantity] = [:]
        for fill in result.fills { filled[fill.orderID, default: .zero] += fill.quantity }
        #expect(result.fills.count > result.orders.filter { $0.filledQuantity.units > 0 }.count, "some orders split")
        for order in result.orders {
            #expect((filled[order.id] ?? .zero) == order.filledQuantity)
            #expect(order.filledQuantity <= order.quantity)
            #expect(order.state != .filled || order.filledQuantity == order.quantity)
        }
    }

    @Test func sameSeedSameResult() {
        let run = { (seed: UInt64) in
            BacktestRunner.run(
                spec: .movingAverageCrossover(config: MovingAverageCrossoverConfig(fastPeriod: 5, slowPeriod: 20)),
                data: SyntheticMarket.generate(SyntheticMarketConfig(symbols: 3, bars: 500, seed: seed)),
                config: Self.costlyConfig())
        }
        #expect(run(3).orderListHash == run(3).orderListHash)
        #expect(run(3).fills == run(3).fills)
        #expect(run(3).orderListHash != run(4).orderListHash)
    }

    @Test func orderOnTheLastBarIsNotFilled() {
        struct BuyOnLastBar: Strategy {
            let last: Timestamp
            mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
                guard case let .bar(id, bar) = event, bar.timestamp == last else { return [] }
                return [.submit(.market(id, .buy, Quantity(1)))]
            }
        }
        let bars = Self.market.series[0]
        let result = BacktestRunner.run(strategy: BuyOnLastBar(last: bars[bars.count - 1].timestamp), bars: bars)
        #expect(result.orders.count == 1)
        #expect(result.orders[0].state == .accepted)
        #expect(result.fills.isEmpty)
        #expect(result.finalEquity == Money(100_000))
    }
}
