import Simulation
import Testing
import TradingModel

/// IB trades stocks in whole shares: every fill, a volume-capped partial one too, is a whole number of shares unless
/// fractional trading is on (`SimulationConfig.fractionalShares`).
@Suite struct WholeShareFillTests {
    static func isWhole(_ quantity: Quantity) -> Bool { quantity.units % FixedPoint.scale == 0 }

    /// Random bar volumes (fractional ones too: bundled data keeps volume in hundreds), participation rates, order
    /// sizes and types, seeded; bars and quotes with a displayed size.
    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func everyFillIsWholeShares(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let participation = [0.001, 0.013, 0.0333, 0.1, 0.25, 1.0 / 3, 0.7, 1.0][Int(rng.next() % 8)]
        var engine = MatchingEngine(
            config: SimulationConfig(maxVolumeParticipation: participation), instrumentCount: 1)
        var reports: [ExecutionReport] = []
        var price = 100.0
        var fills = 0
        var partial = 0
        for minute in 0..<1_500 {
            if rng.next() % 3 == 0 {
                let side: Side = rng.next() % 2 == 0 ? .buy : .sell
                let quantity = Int64(1 + rng.next() % 5_000)
                let order = T.order(Int64(minute + 1), side, quantity, MatchingPropertyTests.randomType(&rng, near: price))
                engine.submit(order, at: T.time(Int64(minute)), into: &reports)
            }
            let open = price * (1 + (rng.nextUnit() - 0.5) * 0.004)
            let close = open * (1 + (rng.nextUnit() - 0.5) * 0.006)
            price = close
            // Volumes with fractions (e.g. 1,234.57) and small ones (a cap under one share).
            let volume = Quantity(units: Int64(rng.nextUnit() * 50_000 * Double(FixedPoint.scale)))
            if rng.next() % 4 == 0 {
                let quote = Quote(
                    timestamp: T.time(Int64(minute) + 1), bid: Price(approximately: close - 0.01),
                    ask: Price(approximately: close + 0.01), bidSize: volume, askSize: volume)
                engine.process(quote: quote, for: T.id, liquidity: volume, into: &reports)
            } else {
                let bar = Bar(
                    timestamp: T.time(Int64(minute) + 1), open: Price(approximately: open),
                    high: Price(approximately: max(open, close) * 1.002), low: Price(approximately: min(open, close) * 0.998),
                    close: Price(approximately: close), volume: volume)
                engine.process(bar: bar, for: T.id, into: &reports)
            }
            for fill in T.fills(reports) {
                fills += 1
                #expect(Self.isWhole(fill.quantity), "fill of \(fill.quantity) at participation \(participation)")
                if fill.quantity.units < Quantity(5_000).units { partial += 1 }
            }
            reports.removeAll()
        }
        #expect(fills > 100)
        #expect(partial > 0)
    }

    @Test func theCapIsRoundedDownToShares() {
        // 1,234.5 × 0.1 = 123.45 shares: 123 fill now, the rest on later bars, each a whole number.
        var h = Harness(SimulationConfig(maxVolumeParticipation: 0.1))
        h.submit(T.order(1, .buy, 200))
        var bar = T.bar(1, "100", "101", "99", "100")
        bar.volume = Quantity("1234.5")!
        #expect(T.fills(h.feed(bar)).map(\.quantity) == [Quantity(123)])
        bar = T.bar(2, "100", "101", "99", "100", volume: 1_000)
        #expect(T.fills(h.feed(bar)).map(\.quantity) == [Quantity(77)])
        // A cap under one share fills nothing: the order rests.
        h.submit(T.order(2, .buy, 5), at: 2)
        bar = T.bar(3, "100", "101", "99", "100")
        bar.volume = Quantity("9.99")!
        #expect(T.fills(h.feed(bar)).isEmpty)
        // 1,000 × 0.1 is 100 shares, not 99 (the product in floating point is 99.999…).
        var exact = Harness(SimulationConfig(maxVolumeParticipation: 0.1))
        exact.submit(T.order(1, .buy, 500))
        #expect(T.fills(exact.feed(T.bar(1, "100", "101", "99", "100", volume: 1_000))).map(\.quantity) == [Quantity(100)])
    }

    @Test func fractionalSharesWhenConfigured() {
        var config = SimulationConfig(maxVolumeParticipation: 0.1)
        config.fractionalShares = true
        var h = Harness(config)
        h.submit(T.order(1, .buy, 200))
        var bar = T.bar(1, "100", "101", "99", "100")
        bar.volume = Quantity("1234.5")!
        #expect(T.fills(h.feed(bar)).map(\.quantity) == [Quantity("123.45")!])
    }

    @Test func anOrderForAFractionIsRejectedUnlessFractional() {
        var h = Harness()
        var order = T.order(1, .buy, 1)
        order.quantity = Quantity("2.5")!
        h.submit(order)
        #expect(h.reports.contains { if case let .rejected(id, reason, _) = $0 { id == OrderID(1) && reason.contains("whole number of shares") } else { false } })
        // A modification to a fraction is refused the same way; the order keeps working.
        h.reports = []
        h.submit(T.order(2, .buy, 10, .limit(Price("90")!)))
        h.engine.modify(OrderID(2), OrderModification(quantity: Quantity("7.5")!), context: (.zero, T.time(0)), into: &h.reports)
        #expect(h.reports.contains { if case .modifyRejected(OrderID(2), _, _) = $0 { true } else { false } })
        #expect(h.engine.workingOrderIDs == [OrderID(2)])

        var config = SimulationConfig()
        config.fractionalShares = true
        var fractional = Harness(config)
        fractional.submit(order)
        #expect(T.fills(fractional.feed(T.bar(1, "100", "101", "99", "100"))).map(\.quantity) == [Quantity("2.5")!])
    }
}
