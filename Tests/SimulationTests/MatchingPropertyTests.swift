import Simulation
import Testing
import TradingModel

/// Random orders against random bars (seeded): invariants that must hold for every order type.
@Suite struct MatchingPropertyTests {
    static func randomType(_ rng: inout SplitMix64, near price: Double) -> OrderType {
        func p(_ offset: Double) -> Price { Price(approximately: (price * (1 + offset) * 100).rounded() / 100) }
        switch rng.next() % 7 {
        case 0: return .market
        case 1: return .limit(p((rng.nextUnit() - 0.5) * 0.04))
        case 2: return .stop(p((rng.nextUnit() - 0.5) * 0.04))
        case 3: return .stopLimit(stop: p((rng.nextUnit() - 0.5) * 0.04), limit: p((rng.nextUnit() - 0.5) * 0.04))
        case 4: return .trailingAmount(p(0) - p(-0.01))
        case 5: return .trailingPercent(0.5 + rng.nextUnit() * 2)
        default: return .trailingLimit(trail: Price("0.5")!, limitOffset: Price("0.1")!)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func fillsStayInsideTheBarAndConserveQuantity(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var engine = MatchingEngine(
            config: SimulationConfig(maxVolumeParticipation: 0.3, latency: .seconds(30)), instrumentCount: 1)
        var reports: [ExecutionReport] = []
        var ordered: [OrderID: (quantity: Quantity, submitted: Timestamp)] = [:]
        var filled: [OrderID: Quantity] = [:]
        var price = 100.0
        var nextID: Int64 = 1
        for minute in 0..<2_000 {
            let open = price * (1 + (rng.nextUnit() - 0.5) * 0.004)
            let close = open * (1 + (rng.nextUnit() - 0.5) * 0.006)
            let high = max(open, close) * (1 + rng.nextUnit() * 0.003)
            let low = min(open, close) * (1 - rng.nextUnit() * 0.003)
            price = close
            let bar = Bar(
                timestamp: T.time(Int64(minute)), open: Price(approximately: open), high: Price(approximately: high),
                low: Price(approximately: low), close: Price(approximately: close),
                volume: Quantity(Int64(100 + rng.next() % 900)))
            reports.removeAll()
            engine.process(bar: bar, for: T.id, into: &reports)
            for case let .filled(fill) in reports {
                let (quantity, submitted) = ordered[fill.orderID] ?? (.zero, .zero)
                #expect(fill.timestamp >= submitted + .seconds(30), "no fill before activation")
                #expect(fill.price >= bar.low && fill.price <= bar.high, "fill \(fill.price) outside \(bar)")
                filled[fill.orderID, default: .zero] += fill.quantity
                #expect(filled[fill.orderID]! <= quantity)
            }
            #expect(reports.reduce(Quantity.zero) { total, r in
                if case let .filled(f) = r { total + f.quantity } else { total }
            } <= Quantity(units: Int64((Double(bar.volume.units) * 0.3).rounded(.down))))
            if rng.next() % 4 == 0 {
                let side: Side = rng.next() % 2 == 0 ? .buy : .sell
                let tif: TimeInForce = [.gtc, .day, .ioc][Int(rng.next() % 3)]
                let order = T.order(nextID, side, Int64(1 + rng.next() % 200), Self.randomType(&rng, near: close),
                                    tif: tif)
                ordered[order.id] = (order.quantity, bar.timestamp)
                reports.removeAll()
                engine.submit(order, at: bar.timestamp, into: &reports)
                nextID += 1
            }
        }
        #expect(filled.count > 50)
        // Every order that left the book either filled completely or was canceled/expired with a remainder.
        for (id, quantity) in filled where !engine.workingOrderIDs.contains(id) {
            #expect(quantity <= ordered[id]!.quantity)
        }
    }
}
