import Backtest
import Simulation
import Testing
import TradingEngine
import TradingModel

/// Issue 42: a backtest's protective orders go out when live sends them and are sized from what is held.
///
/// Live, an entry fills before the bar it fills in has closed, so the strategy's reaction to the fill (momentum's
/// `ProtectiveOrders.maintain`) is stamped with the latest closed bar. The backtest matches a whole time step before
/// the engine sees any of its bars, so every instrument's fill reaction has that time too, not only the first
/// instrument's.
@Suite struct ProtectiveTimingTests {
    @Test func theStopOfASecondInstrumentGoesOutAtTheEntrysOwnTime() throws {
        // A (index 0) falls, B (index 1) rises: B is bought, and A's bar at the fill's time comes before B's.
        let data = MarketData(
            universe: Universe(symbols: ["A", "B"]),
            series: [
                ProtectiveOrdersTests.bars(RotationRealismTests.path(13, start: 100, slope: -0.5)),
                ProtectiveOrdersTests.bars(RotationRealismTests.path(13, start: 100, slope: 1)),
            ])
        let result = BacktestRunner.run(spec: ProtectiveOrdersTests.momentum(), data: data)
        let entry = try #require(result.orders.first { $0.side == .buy })
        #expect(entry.instrument == InstrumentID(1))
        let fill = try #require(result.fills.first { $0.orderID == entry.id })
        let stop = try #require(result.orders.first { if case .stop = $0.type { true } else { false } })
        // The entry went out at the signal bar's close and filled at the next open; live the fill arrives before
        // that next bar has closed, so the stop carries the signal bar's time.
        #expect(fill.timestamp > entry.createdAt)
        #expect(stop.createdAt == entry.createdAt, "stop \(stop.createdAt), entry \(entry.createdAt), fill \(fill.timestamp)")
    }

    /// Every fill of a protective order leaves its position on the same side of zero (or flat), and at the end every
    /// open position without a trading order working has one stop, for exactly the position.
    static func expectProtectionFollowsPositions(_ result: BacktestResult, _ label: String) {
        let protective = Set(result.orders.filter { ProtectiveOrders.isProtective($0.clientOrderID) }.map(\.id))
        var held: [Int: Int64] = [:]
        var protectiveFills = 0
        for fill in result.fills {
            let before = held[fill.instrument.index, default: 0]
            let after = before + fill.side.sign * fill.quantity.units
            held[fill.instrument.index] = after
            if protective.contains(fill.orderID) {
                protectiveFills += 1
                #expect(before > 0 && after >= 0, "\(label): \(fill) took \(before) to \(after)")
            }
        }
        #expect(protectiveFills > 0, "\(label): no protective fill to check")
        // An entry still working (a volume cap leaves part of it) holds the protection back until it is done, as live.
        for position in result.positions where !position.isFlat
            && !result.orders.contains(where: {
                $0.instrument == position.instrument && $0.isOpen && !ProtectiveOrders.isProtective($0.clientOrderID)
            })
        {
            let stops = result.orders.filter {
                $0.instrument == position.instrument && $0.isOpen && ProtectiveOrders.isProtective($0.clientOrderID)
                    && { if case .stop = $0.type { true } else { false } }($0)
            }
            #expect(
                stops.count == 1 && stops.allSatisfy { $0.remainingQuantity == position.quantity },
                "\(label): \(position.quantity) held, stops \(stops.map(\.remainingQuantity))")
        }
    }

    @Test(arguments: [nil, 0.02, 0.002] as [Double?])
    func protectiveFillsNeverCrossZero(participation: Double?) throws {
        let spec = try #require(StrategyRegressionTests.cases.first { $0.0 == "momentum-protective" }?.1)
        var config = StrategyRegressionTests.config
        config.simulation.maxVolumeParticipation = participation
        let result = BacktestRunner.run(spec: spec, data: StrategyRegressionTests.market, config: config)
        Self.expectProtectionFollowsPositions(result, "participation \(participation.map { "\($0)" } ?? "none")")
    }
}
