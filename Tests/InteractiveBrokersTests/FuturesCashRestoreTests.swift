import JournalModel
import Testing
import TradingEngine
import TradingModel

@testable import LiveSession

/// A restart's cash with futures held: a future's price is never paid, so the cash after the checkpoint moves by the
/// gains and losses its fills realize against the position's average, times the multiplier, and by commissions: the
/// cash the crashed run's own portfolio had.
struct FuturesCashRestoreTests {
    static let es: Symbol = "ES 2026-12"

    static func fill(_ seq: Int64, _ symbol: Symbol, _ side: Side, _ quantity: Int64, _ price: String, _ commission: String)
        -> JournalFill
    {
        var fill = JournalFill(
            execID: "e\(seq)", symbol: symbol, side: side, quantity: Quantity(quantity), price: Price(price)!,
            time: Timestamp(seconds: 1_790_000_000 + seq * 60))
        fill.sequence = seq
        fill.commission = Money(units: Price(commission)!.units)
        fill.account = "DU1"
        return fill
    }

    /// Two ES bought before the checkpoint and one more, then sold in two steps through zero into a short, and a stock.
    static let fills = [
        fill(1, es, .buy, 2, "6000", "4.5"),
        fill(2, es, .buy, 1, "6030", "2.25"),
        fill(3, es, .sell, 2, "6050", "4.5"),
        fill(4, es, .sell, 3, "6000", "6.75"),
        fill(5, "AAPL", .buy, 10, "100", "1"),
    ]

    /// The cash of the run's own portfolio after `fills`, from a starting cash (an independent replay).
    static func portfolioCash(_ fills: [JournalFill], from cash: Money) -> Money {
        let universe = Universe(symbols: [es, "AAPL"])
        var portfolio = Portfolio(cash: cash, universe: universe)
        for f in fills {
            let id = universe.instruments.firstIndex { $0.symbol == f.symbol }!
            portfolio.apply(Fill(
                orderID: OrderID(0), instrument: InstrumentID(index: id), side: f.side, quantity: f.quantity,
                price: f.price, commission: f.commission ?? .zero, timestamp: f.time))
        }
        return portfolio.cash
    }

    @Test("after a checkpoint holding 3 ES, the fills realize their P&L times 50; the stock pays its price")
    func realizedAgainstTheCheckpointAverage() {
        let atCheckpoint = Self.portfolioCash(Array(Self.fills.prefix(2)), from: Money(100_000))
        #expect(atCheckpoint == Money(units: Price("99993.25")!.units))  // only the commissions left
        let checkpoint = JournalCashCheckpoint(
            time: Self.fills[1].time, account: "DU1", cash: atCheckpoint, commissions: Money(units: Price("6.75")!.units),
            fillCheckpoint: 2, fillCommissions: Money(units: Price("6.75")!.units), positions: [Self.es: Quantity(3)])
        let outcome = CashRestore.restore(
            checkpoint: checkpoint, fills: Self.fills, account: "DU1", universe: [Self.es, "AAPL"],
            brokerPositions: [Self.es: Quantity(-2), "AAPL": Quantity(10)], averageCosts: [:])
        // Average 6,010: +40 × 2 × 50 − 4.50, −10 × 1 × 50 − 6.75 (the other 2 open a short), −1,000 − 1.
        #expect(outcome.cash == Money(units: Price("102481")!.units))
        #expect(outcome.cash == Self.portfolioCash(Self.fills, from: Money(100_000)))
        #expect(outcome.adjustments.isEmpty)
        #expect(outcome.fillsApplied == 3)
    }

    @Test("a journal that no longer reaches back to the position's start takes the broker's average")
    func brokerAverageWhenTheJournalDoesNotReachBack() {
        let checkpoint = JournalCashCheckpoint(
            time: Self.fills[1].time, account: "DU1", cash: Money(50_000), fillCheckpoint: 2,
            positions: [Self.es: Quantity(3)])
        let outcome = CashRestore.restore(
            checkpoint: checkpoint, fills: Array(Self.fills.dropFirst(2).prefix(1)), account: "DU1", universe: [Self.es],
            brokerPositions: [Self.es: Quantity(1)], averageCosts: [Self.es: Price("6020")!])
        #expect(outcome.cash == Money(50_000) + Money(units: Price("2995.5")!.units))  // (6,050 − 6,020) × 2 × 50 − 4.50
    }

    @Test("a futures position the fills do not explain is booked at its cost: no cash moves, and it is said")
    func unexplainedFuturesPositionMovesNoCash() {
        let checkpoint = JournalCashCheckpoint(
            time: Self.fills[1].time, account: "DU1", cash: Money(50_000), fillCheckpoint: 0, positions: [:])
        let outcome = CashRestore.restore(
            checkpoint: checkpoint, fills: [], account: "DU1", universe: [Self.es],
            brokerPositions: [Self.es: Quantity(2)], averageCosts: [Self.es: Price("6020")!])
        #expect(outcome.cash == Money(50_000))
        #expect(outcome.adjustments.count == 1)
        #expect(outcome.adjustments.first?.contains("no cash moves") == true)
    }
}
