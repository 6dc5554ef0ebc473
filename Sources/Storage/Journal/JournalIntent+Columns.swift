import Foundation
import GRDB
import JournalModel
import TradingModel

/// An order type as the intents table stores it: IB's type name plus the prices that name leaves open. `limit_price`
/// and `stop_price` are also what `ibtrader journal` shows, so their meaning is the one of schema v1: the trail
/// amount of `TRAIL` and `TRAIL LIMIT` sits in `stop_price`.
struct IntentTypeColumns: Equatable {
    var name: String
    var limit: Int64?
    var stop: Int64?
    var trailPercent: Double?
    var limitOffset: Int64?

    init(_ type: OrderType) {
        name = type.ibName
        switch type {
        case .market: break
        case .limit(let price): limit = price.units
        case .stop(let price): stop = price.units
        case .stopLimit(let stopPrice, let limitPrice): (stop, limit) = (stopPrice.units, limitPrice.units)
        case .trailingAmount(let amount): stop = amount.units
        case .trailingPercent(let percent): trailPercent = percent
        case .trailingLimit(let trail, let offset): (stop, limitOffset) = (trail.units, offset.units)
        case .midprice(let cap): limit = cap?.units
        }
    }

    init(name: String, limit: Int64?, stop: Int64?, trailPercent: Double?, limitOffset: Int64?) {
        self.name = name
        self.limit = limit
        self.stop = stop
        self.trailPercent = trailPercent
        self.limitOffset = limitOffset
    }

    /// The order type, or `nil` when a price its name needs is missing (a damaged row, never a default).
    var orderType: OrderType? {
        switch name {
        case "MKT": return .market
        case "LMT": return limit.map { .limit(Price(units: $0)) }
        case "STP": return stop.map { .stop(Price(units: $0)) }
        case "STP LMT":
            guard let stop, let limit else { return nil }
            return .stopLimit(stop: Price(units: stop), limit: Price(units: limit))
        case "TRAIL":
            if let trailPercent { return .trailingPercent(trailPercent) }
            return stop.map { .trailingAmount(Price(units: $0)) }
        case "TRAIL LIMIT":
            guard let stop, let limitOffset else { return nil }
            return .trailingLimit(trail: Price(units: stop), limitOffset: Price(units: limitOffset))
        case "MIDPRICE": return .midprice(cap: limit.map { Price(units: $0) })
        default: return nil
        }
    }
}

extension OrderJournal {
    /// The columns `intentFromRow` reads, in its order; `fetchOrders` selects them after its own eight.
    static let intentColumnsSQL = """
        intent_json, order_ref, symbol, side, quantity, order_type, limit_price, stop_price, trail_percent,
        limit_offset, time_in_force, parent_ref, oca_group, strategy, created_at, execution
        """

    /// Rebuilds an intent from `intentColumnsSQL` starting at `first`: from the columns, or from the JSON that rows
    /// written before schema v3 hold.
    /// - Returns: `nil` when the row cannot be read (reported as a corrupt row by the caller).
    static func intentFromRow(_ row: Row, at first: Int, decoder: JSONDecoder) -> JournalIntent? {
        let json: String? = row[first]
        if let json, !json.isEmpty {
            return try? decoder.decode(JournalIntent.self, from: Data(json.utf8))
        }
        let ref: String? = row[first + 1]
        let symbol: String? = row[first + 2]
        let sideText: String? = row[first + 3]
        let quantity: Int64? = row[first + 4]
        let typeName: String? = row[first + 5]
        let lifetime: String? = row[first + 10]
        let created: Int64? = row[first + 14]
        guard let ref, let symbol, let sideText, let side = Side(rawValue: sideText), let quantity, let typeName,
            let lifetime, let timeInForce = TimeInForce(rawValue: lifetime), let created,
            let type = IntentTypeColumns(
                name: typeName, limit: row[first + 6], stop: row[first + 7], trailPercent: row[first + 8],
                limitOffset: row[first + 9]
            ).orderType
        else { return nil }
        let executionText: String? = row[first + 15]
        var execution: OrderExecution?
        if let executionText {
            guard let terms = OrderExecution(storedText: executionText) else { return nil }
            execution = terms
        }
        var request = OrderRequest(
            instrument: InstrumentID(0), side: side, quantity: Quantity(units: quantity), type: type,
            timeInForce: timeInForce)
        request.ocaGroup = row[first + 12]
        request.execution = execution
        var intent = JournalIntent(
            orderRef: ClientOrderID(ref), symbol: Symbol(symbol), request: request,
            createdAt: Timestamp(nanoseconds: created))
        intent.parentRef = (row[first + 11] as String?).map { ClientOrderID($0) }
        intent.strategy = row[first + 13]
        return intent
    }
}
