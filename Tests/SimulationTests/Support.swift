import Simulation
import TradingModel

/// Small builders for matching-engine tests.
enum T {
    static let id = InstrumentID(0)
    static let day: Int64 = 18_263  // 2020-01-02

    /// Minute `m` of the test day (14:30 UTC + m).
    static func time(_ minute: Int64, day: Int64 = day) -> Timestamp {
        Timestamp(nanoseconds: (day * 86_400 + 14 * 3600 + 30 * 60 + minute * 60) * 1_000_000_000)
    }

    static func bar(_ minute: Int64, _ o: String, _ h: String, _ l: String, _ c: String, volume: Int64 = 1_000,
                    day: Int64 = day) -> Bar {
        Bar(timestamp: time(minute, day: day), open: Price(o)!, high: Price(h)!, low: Price(l)!, close: Price(c)!,
            volume: Quantity(volume))
    }

    static func order(
        _ id: Int64, _ side: Side, _ quantity: Int64, _ type: OrderType = .market, tif: TimeInForce = .gtc,
        oca: String? = nil, parent: Int64? = nil
    ) -> Order {
        var request = OrderRequest(instrument: Self.id, side: side, quantity: Quantity(quantity), type: type,
                                   timeInForce: tif)
        request.ocaGroup = oca
        var o = Order(id: OrderID(id), clientOrderID: ClientOrderID("c\(id)"), request: request, createdAt: .zero)
        o.parentID = parent.map(OrderID.init)
        return o
    }

    static func fills(_ reports: [ExecutionReport]) -> [Fill] {
        reports.compactMap { if case let .filled(f) = $0 { f } else { nil } }
    }

    static func canceled(_ reports: [ExecutionReport]) -> [(OrderID, CancelReason)] {
        reports.compactMap { if case let .canceled(id, reason, _) = $0 { (id, reason) } else { nil } }
    }
}

/// A matching engine with a bar already seen (so "now" is after minute 0).
struct Harness {
    var engine: MatchingEngine
    var reports: [ExecutionReport] = []

    init(_ config: SimulationConfig = SimulationConfig(), first: Bar = T.bar(0, "100", "101", "99", "100")) {
        engine = MatchingEngine(config: config, instrumentCount: 1)
        engine.process(bar: first, for: T.id, into: &reports)
        reports = []
    }

    mutating func submit(_ order: Order, at minute: Int64 = 0) {
        engine.submit(order, at: T.time(minute), into: &reports)
    }

    /// Feeds a bar and returns the reports it produced.
    mutating func feed(_ bar: Bar) -> [ExecutionReport] {
        reports = []
        engine.process(bar: bar, for: T.id, into: &reports)
        return reports
    }
}
