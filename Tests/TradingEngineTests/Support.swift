import Testing
import TradingEngine
import TradingModel

enum E {
    static let a = InstrumentID(0)
    static let b = InstrumentID(1)
    static let universe = Universe(instruments: [
        Instrument(id: a, symbol: "AAA", sector: "Tech"),
        Instrument(id: b, symbol: "BBB", sector: "Energy"),
        Instrument(id: InstrumentID(2), symbol: "VIX", sector: "Index"),
    ])

    static func time(_ minute: Int64, day: Int64 = 18_263) -> Timestamp {
        Timestamp(nanoseconds: (day * 86_400 + 52_200 + minute * 60) * 1_000_000_000)
    }

    static func bar(_ minute: Int64, _ close: String, day: Int64 = 18_263) -> Bar {
        let c = Price(close)!
        return Bar(timestamp: time(minute, day: day), open: c, high: c, low: c, close: c, volume: Quantity(1_000))
    }

    static func fill(_ id: OrderID, _ side: Side, _ quantity: Int64, _ price: String, instrument: InstrumentID = a,
                     commission: Money = .zero, at minute: Int64 = 1) -> Fill {
        Fill(orderID: id, instrument: instrument, side: side, quantity: Quantity(quantity), price: Price(price)!,
             commission: commission, timestamp: time(minute))
    }

    static func submitted(_ commands: [EngineCommand]) -> [Order] {
        commands.compactMap { if case let .submit(o) = $0 { o } else { nil } }
    }

    /// `equity == cash + Σ carried value` (a stock's market value, a future's unrealized P&L) and gross exposure
    /// `Σ |market value|` (a future's contract value), checked after every operation.
    static func checkInvariant(_ p: Portfolio, sourceLocation: SourceLocation = #_sourceLocation) {
        var value = Money.zero
        var gross = Money.zero
        for (i, position) in p.positions.enumerated() {
            value += position.carriedValue(at: p.marks[i])
            gross += position.marketValue(at: p.marks[i]).magnitude
        }
        #expect(p.equity == p.cash + value, sourceLocation: sourceLocation)
        #expect(p.grossExposure == gross, sourceLocation: sourceLocation)
    }
}

/// A strategy that replays scripted actions: on each bar it returns the next batch, and it records events.
struct ScriptedStrategy: Strategy {
    var script: [[StrategyAction]]
    var seen: [StrategyEvent] = []
    init(_ script: [[StrategyAction]]) { self.script = script }

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        seen.append(event)
        guard case .bar = event, !script.isEmpty else { return [] }
        return script.removeFirst()
    }
}
