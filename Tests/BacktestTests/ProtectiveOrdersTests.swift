import Backtest
import Testing
import TradingEngine
import TradingModel

/// Issue 21: momentum's stop-loss and take-profit as orders held at the broker (`protectiveOrders`, the default with
/// stops): a STP and a LMT on the closing side, one cancels the other, GTC, sized to the position. In a backtest they
/// trigger inside the bar, exactly as the simulator and IB work them.
@Suite struct ProtectiveOrdersTests {
    /// Daily bars from 2010-01-01; `lows` overrides a bar's low (its open and close stay `closes`).
    static func bars(_ closes: [Double], lows: [Int: Double] = [:]) -> [Bar] {
        closes.enumerated().map { day, close in
            let price = Price(approximately: close)
            return Bar(
                timestamp: Timestamp(nanoseconds: Int64(14_610 + day) * Timestamp.nanosecondsPerDay), open: price,
                high: price, low: lows[day].map { Price(approximately: $0) } ?? price, close: price,
                volume: Quantity(10_000))
        }
    }

    static func momentum(protective: Bool = true, rebalance: Int = 7) -> StrategySpec {
        .momentumRotation(
            config: MomentumRotationConfig(
                lookback: 5, minimumScore: nil, holdings: 1, rebalance: .everyBars(rebalance), investedFraction: 0.5,
                stopLossPercent: 10, takeProfitPercent: 50, rankBuffer: 0, protectiveOrders: protective))
    }

    @Test func theStopIsAtTheBrokerAndFillsInsideTheBar() throws {
        // A rises (bought at the rebalance of day 6, filled on day 7); on day 10 it trades down to 80 (a 25 % drop
        // inside the day) and closes at 110.
        var closes = RotationRealismTests.path(13, start: 100, slope: 1)
        closes[10] = 110
        let data = MarketData(
            universe: Universe(symbols: ["A", "B"]),
            series: [Self.bars(closes, lows: [10: 80]), Self.bars(RotationRealismTests.path(13, start: 100, slope: -0.5))])
        let result = BacktestRunner.run(spec: Self.momentum(), data: data)
        let entry = try #require(result.orders.first { $0.side == .buy })
        let cost = try #require(entry.averageFillPrice)
        let stop = try #require(result.orders.first { if case .stop = $0.type { true } else { false } })
        let target = try #require(result.orders.first { if case .limit = $0.type { $0.side == .sell } else { false } })
        #expect(ProtectiveOrders.isProtective(stop.clientOrderID) && ProtectiveOrders.isProtective(target.clientOrderID))
        #expect(stop.quantity == entry.quantity && target.quantity == entry.quantity)
        #expect(stop.ocaGroup != nil && stop.ocaGroup == target.ocaGroup && stop.timeInForce == .gtc)
        // Sent on the entry's fill at day 7's open, before day 7's bar is handled (the engine's clock still reads
        // the signal bar then), not at day 7's close: no session without a stop.
        let entryFill = try #require(result.fills.first { $0.orderID == entry.id })
        #expect(stop.createdAt < entryFill.timestamp && target.createdAt < entryFill.timestamp,
            "stop \(stop.createdAt), fill \(entryFill.timestamp)")
        // The levels: 10 % below and 50 % above the average cost, on the tick (a sell stop rounds up).
        let expectedStop = Price(approximately: cost.doubleValue * 0.9).roundedUp(toTick: Price("0.01")!)
        #expect(stop.type == .stop(expectedStop), "cost \(cost)")
        // Day 10 trades through the stop: it fills at its price inside the bar (a close-based check would not
        // have sold: the day closed at 110), and the take-profit is cancelled with it.
        #expect(stop.state == .filled && stop.averageFillPrice == expectedStop)
        #expect(target.state == .canceled)
        #expect(result.positions.allSatisfy { $0.isFlat })
        let bar = try #require(result.fills.first { $0.orderID == stop.id })
        #expect(bar.timestamp == data.series[0][10].timestamp)
        // The bot-side check (protectiveOrders false) sells at a close under the stop only: none here.
        let checked = BacktestRunner.run(spec: Self.momentum(protective: false), data: data)
        #expect(checked.orders.filter { $0.side == .sell }.isEmpty)
    }

    @Test func aRotationCancelsTheProtectionBeforeItSellsAndNeverGoesShort() throws {
        // A leads at the rebalance of day 9, B at the one of day 14: it exits A and enters B.
        let a = RotationRealismTests.path(18, start: 100, slope: 2, turn: 10, after: -1)
        let b = RotationRealismTests.path(18, start: 100, slope: 0.1, turn: 10, after: 3)
        let data = MarketData(universe: Universe(symbols: ["A", "B"]), series: [Self.bars(a), Self.bars(b)])
        let result = BacktestRunner.run(spec: Self.momentum(rebalance: 5), data: data)
        let protectionOfA = result.orders.filter { $0.instrument == InstrumentID(0) && ProtectiveOrders.isProtective($0.clientOrderID) }
        #expect(protectionOfA.count == 2)
        #expect(protectionOfA.allSatisfy { $0.state == .canceled }, "\(protectionOfA.map(\.state))")
        let exit = try #require(result.orders.first { $0.instrument == InstrumentID(0) && $0.side == .sell && $0.type == .market })
        #expect(exit.state == .filled)
        #expect(protectionOfA.allSatisfy { $0.id.rawValue < exit.id.rawValue }, "cancelled before the exit was sent")
        // B is held and protected at the end; nothing is short.
        #expect(result.positions.allSatisfy { $0.quantity.units >= 0 })
        let openB = result.orders.filter { $0.instrument == InstrumentID(1) && $0.isOpen }
        #expect(openB.count == 2 && openB.allSatisfy { ProtectiveOrders.isProtective($0.clientOrderID) })
        #expect(openB.allSatisfy { $0.quantity == result.positions[1].quantity })
    }
}
