import Foundation
import Testing
import TradingModel

/// Prices on a tick that depends on the price (IB's market rules): each price rounded with the increment at that
/// price, in the protective direction, also across a band's edge.
@Suite("Tick tables")
struct TickTableTests {
    /// IB's US-stock rule 26.
    let usStocks = TickTable(bands: [(.zero, Price("0.0001")!), (Price(1), Price("0.01")!)])!
    func p(_ text: String) -> Price { Price(text)! }

    @Test("the increment of a price is its band's; the edge belongs to the band above")
    func increments() {
        #expect(usStocks.increment(at: p("0.5")) == p("0.0001"))
        #expect(usStocks.increment(at: p("0.99999999")) == p("0.0001"))
        #expect(usStocks.increment(at: p("1")) == p("0.01"))
        #expect(usStocks.increment(at: p("50")) == p("0.01"))
        #expect(usStocks.increment(at: p("-3")) == p("0.0001"), "below every edge: the first band")
        #expect(usStocks.largestIncrement == p("0.01") && !usStocks.isSingleTick)
        #expect(usStocks.description == "0 → 0.0001, 1 → 0.01")
        // Bands are sorted; none, a zero increment or a shared edge make no table.
        let unsorted = TickTable(bands: [(Price(1), p("0.01")), (.zero, p("0.0001"))])
        #expect(unsorted == usStocks)
        #expect(TickTable(bands: []) == nil)
        #expect(TickTable(bands: [(.zero, .zero)]) == nil)
        #expect(TickTable(bands: [(.zero, p("0.01")), (.zero, p("0.05"))]) == nil)
        // One tick: every price on it; a tick of zero rounds nothing.
        #expect(TickTable(p("0.05")).increment(at: p("1000")) == p("0.05"))
        #expect(p("1.234567").roundedDown(to: TickTable(.zero)) == p("1.234567"))
    }

    @Test("rounding down and up with the increment at the price, across an edge")
    func rounding() {
        #expect(p("0.50123").roundedDown(to: usStocks) == p("0.5012"))
        #expect(p("0.50123").roundedUp(to: usStocks) == p("0.5013"))
        #expect(p("50.012").roundedDown(to: usStocks) == p("50.01"))
        #expect(p("50.012").roundedUp(to: usStocks) == p("50.02"))
        // Just below the edge, up: the next multiple of 0.0001 is the edge itself.
        #expect(p("0.99995").roundedUp(to: usStocks) == p("1"))
        // Just above the edge, down: 1.00 (a multiple of the cent), not 0.9999.
        #expect(p("1.005").roundedDown(to: usStocks) == p("1"))
        // On the tick: unchanged, on either side of the edge.
        for price in [p("0.5012"), p("1"), p("50.01"), p("0.9999")] {
            #expect(price.roundedDown(to: usStocks) == price && price.roundedUp(to: usStocks) == price)
            #expect(price.isOnTick(usStocks))
        }
        #expect(!p("50.012").isOnTick(usStocks) && p("0.5012").isOnTick(usStocks))
    }

    @Test("a band with no multiple on one side sends the price to the next band's nearest")
    func unalignedEdges() {
        // Edge 10.02 with a 0.05 increment above: 10.03 has no multiple of 0.05 in [10.02, 10.03].
        let odd = TickTable(bands: [(.zero, p("0.01")), (p("10.02"), p("0.05"))])!
        #expect(p("10.03").roundedDown(to: odd) == p("10.01"), "the nearest price on the tick below is 10.01")
        #expect(p("10.03").roundedUp(to: odd) == p("10.05"))
        // Below the edge, up: 10.015 → 10.02 would be in the band above, where it is off the tick: 10.05.
        #expect(p("10.015").roundedUp(to: odd) == p("10.05"))
        #expect(p("10.015").roundedDown(to: odd) == p("10.01"))
        // Three bands, the middle one skipped on the way up.
        let three = TickTable(bands: [(.zero, p("0.01")), (p("1.005"), p("0.5")), (p("1.2"), p("0.1"))])!
        #expect(p("1.004").roundedUp(to: three) == p("1.2"), "1.01 and 1.5 are off the tick; 1.2 is the next on it")
    }

    @Test("an order's prices: limits to the trader's advantage, stops to trigger no later, each at its own price")
    func orderTypes() {
        #expect(OrderType.limit(p("0.50123")).onTick(usStocks, side: .buy) == .limit(p("0.5012")))
        #expect(OrderType.limit(p("0.50123")).onTick(usStocks, side: .sell) == .limit(p("0.5013")))
        #expect(OrderType.stop(p("50.012")).onTick(usStocks, side: .sell) == .stop(p("50.02")))
        #expect(
            OrderType.stopLimit(stop: p("1.00004"), limit: p("0.99995")).onTick(usStocks, side: .buy)
                == .stopLimit(stop: p("1"), limit: p("1")))
        // A trail amount has no price of its own: the increment at the reference, else the largest.
        #expect(OrderType.trailingAmount(p("0.01234")).onTick(usStocks, side: .sell, reference: p("0.6"))
            == .trailingAmount(p("0.0123")))
        #expect(OrderType.trailingAmount(p("0.01234")).onTick(usStocks, side: .sell) == .trailingAmount(p("0.01")))
        #expect(OrderType.trailingAmount(p("0.00001")).onTick(usStocks, side: .sell, reference: p("0.6"))
            == .trailingAmount(p("0.0001")), "at least one tick")
        #expect(OrderType.midprice(cap: p("0.77777")).onTick(usStocks, side: .buy) == .midprice(cap: p("0.7777")))
        // Off-tick prices, each judged at its own price.
        #expect(OrderType.limit(p("0.5012")).offTickPrices(usStocks).isEmpty)
        #expect(OrderType.limit(p("50.012")).offTickPrices(usStocks) == [p("50.012")])
        #expect(OrderType.stopLimit(stop: p("0.5012"), limit: p("1.0012")).offTickPrices(usStocks) == [p("1.0012")])
        #expect(OrderType.trailingAmount(p("0.0123")).offTickPrices(usStocks, reference: p("0.6")).isEmpty)
        #expect(OrderType.trailingAmount(p("0.0123")).offTickPrices(usStocks) == [p("0.0123")])
        // The single-tick form is the one-band table.
        #expect(OrderType.limit(p("46.658")).onTick(p("0.01"), side: .buy) == .limit(p("46.65")))
    }

    @Test("a bracket straddling the $1 edge: each leg on the increment at its own price")
    func bracketAcrossTheEdge() {
        let id = InstrumentID(index: 0)
        let entry = OrderRequest(instrument: id, side: .buy, quantity: Quantity(100), type: .limit(p("1.00456")))
        let long = BracketOrder(entry: entry, stopLoss: p("0.98765"), takeProfit: p("1.23456")).onTick(usStocks)
        #expect(long.entry.type == .limit(p("1")), "the entry above $1: a cent, down for a buy")
        #expect(long.stopLoss == p("0.9877"), "the stop below $1: 0.0001, up for a long's exit")
        #expect(long.takeProfit == p("1.24"), "the target above $1: a cent, up")
        var shortEntry = entry
        shortEntry.side = .sell
        shortEntry.type = .limit(p("0.99987"))
        let short = BracketOrder(entry: shortEntry, stopLoss: p("1.01234"), takeProfit: p("0.87654")).onTick(usStocks)
        #expect(short.entry.type == .limit(p("0.9999")))
        #expect(short.stopLoss == p("1.01") && short.takeProfit == p("0.8765"))
    }

    @Test("an instrument keeps its single tick until a table is set; older records without one still decode")
    func instruments() throws {
        var universe = Universe(symbols: ["PENNY"])
        let id = InstrumentID(index: 0)
        #expect(universe[id].ticks == TickTable(p("0.01")) && universe[id].tickTable == nil)
        universe.setTicks(usStocks, for: id)
        #expect(universe[id].ticks == usStocks)
        universe.setTickSize(p("0.05"), for: id)
        #expect(universe[id].ticks == usStocks, "the rule's table wins over the minimum tick")
        let encoded = try JSONEncoder().encode(universe[id])
        #expect(try JSONDecoder().decode(Instrument.self, from: encoded) == universe[id])
        // Without a table the record is what it was before tables existed (no new key), and reads back as such.
        let plain = Instrument(id: id, symbol: "PENNY")
        let old = try JSONEncoder().encode(plain)
        #expect(!String(decoding: old, as: UTF8.self).contains("tickTable"))
        let decoded = try JSONDecoder().decode(Instrument.self, from: old)
        #expect(decoded.tickTable == nil && decoded.ticks == TickTable(p("0.01")))
    }
}
