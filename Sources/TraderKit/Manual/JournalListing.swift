import Analytics
import Storage
import TradingModel
import JournalModel
import LiveSession

/// `ibtrader journal`'s listings: tables for people, JSON lines for scripts.
public struct JournalListing {
    /// JSON lines instead of tables.
    public var json: Bool

    /// A listing in one of the two forms.
    public init(json: Bool) { self.json = json }

    /// `ibtrader journal`: the sections asked for (all three when none is).
    /// - Throws: `TraderError` naming the journal when it cannot be opened or read.
    public func show(journal path: String, orders: Bool, fills: Bool, events: Bool) throws -> String {
        let all = !orders && !fills && !events
        do {
            let file = try OrderJournal(path: path, createIfMissing: false)
            var sections: [String] = []
            if all || orders { sections.append(render(orders: try file.orders())) }
            if all || fills { sections.append(render(fills: try file.fills())) }
            if all || events { sections.append(render(events: try file.events())) }
            return sections.filter { !$0.isEmpty }.joined(separator: json ? "\n" : "\n\n")
        } catch {
            throw TraderError("\(error)")
        }
    }

    public func render(orders: [JournalOrder]) -> String {
        if json {
            return orders.map { ContractFields.line(Self.object($0), ContractTerms(instrument: $0.intent.symbol), snakeCase: true) }
                .joined(separator: "\n")
        }
        let rows = orders.map { o -> [String] in
            let i = o.intent
            let price = Self.priceText(i.type)
            return [
                i.orderRef.rawValue, i.createdAt.description, ContractTerms(instrument: i.symbol).description,
                i.side.rawValue, "\(i.quantity)",
                i.type.ibName + (price.isEmpty ? "" : " \(price)"), BrokerOrderStatus.name(of: o.state),
                o.brokerOrderID.map { "\($0)" } ?? "", "\(o.filledQuantity)", o.message ?? "",
            ]
        }
        return "Orders (\(orders.count))\n"
            + TextTable.render(
                header: [
                    "order_ref", "created (UTC)", "contract", "side", "qty", "type", "status", "ib_id", "filled",
                    "message",
                ],
                rows: rows, rightAligned: [4, 7, 8])
    }

    public func render(fills: [JournalFill]) -> String {
        if json { return fills.map { ContractFields.line(Self.object($0), $0.terms, snakeCase: true) }.joined(separator: "\n") }
        let rows = fills.map { f -> [String] in
            [
                "\(f.sequence)", f.execID, f.orderRef?.rawValue ?? "", f.time.description, f.terms.description,
                f.side.rawValue, "\(f.quantity)", "\(f.price)", f.commission.map { "\($0)" } ?? "pending",
            ]
        }
        return "Fills (\(fills.count))\n"
            + TextTable.render(
                header: ["seq", "exec_id", "order_ref", "time (UTC)", "contract", "side", "qty", "price", "commission"],
                rows: rows, rightAligned: [0, 6, 7, 8])
    }

    public func render(events: [JournalEvent]) -> String {
        if json { return events.map { JSONLine.render(Self.object($0)) }.joined(separator: "\n") }
        let rows = events.map { ["\($0.sequence)", $0.time.description, $0.kind.rawValue, $0.message] }
        return "Events (\(events.count))\n"
            + TextTable.render(header: ["seq", "time (UTC)", "kind", "message"], rows: rows)
    }

    public static func priceText(_ type: OrderType) -> String {
        switch type {
        case .market: ""
        case .limit(let p), .stop(let p), .trailingAmount(let p): "\(p)"
        case .stopLimit(let stop, let limit): "\(stop)/\(limit)"
        case .trailingPercent(let percent): "\(percent)%"
        case .trailingLimit(let trail, let offset): "\(trail)/\(offset)"
        case .midprice(let cap): cap.map { "cap \($0)" } ?? ""
        }
    }

    public static func object(_ o: JournalOrder) -> KeyValuePairs<String, JSONValue> {
        let i = o.intent
        return [
            "record": .string("order"), "sequence": .integer(Int(o.sequence)),
            "order_ref": .string(i.orderRef.rawValue),
            "created_at": .string(i.createdAt.description), "symbol": .string(i.symbol.rawValue),
            "side": .string(i.side.rawValue), "quantity": .string("\(i.quantity)"), "type": .string(i.type.ibName),
            "price": .optional(priceText(i.type).isEmpty ? nil : priceText(i.type)),
            "time_in_force": .string(i.timeInForce.rawValue), "parent_ref": .optional(i.parentRef?.rawValue),
            "oca_group": .optional(i.ocaGroup), "strategy": .optional(i.strategy), "state": .string(o.state.rawValue),
            "broker_order_id": o.brokerOrderID.map { .integer(Int($0)) } ?? .null,
            "perm_id": o.permID.map { .integer(Int($0)) } ?? .null, "filled_quantity": .string("\(o.filledQuantity)"),
            "updated_at": .string(o.updatedAt.description), "message": .optional(o.message),
        ]
    }

    public static func object(_ f: JournalFill) -> KeyValuePairs<String, JSONValue> {
        [
            "record": .string("fill"), "sequence": .integer(Int(f.sequence)), "exec_id": .string(f.execID),
            "order_ref": .optional(f.orderRef?.rawValue),
            "broker_order_id": f.brokerOrderID.map { .integer(Int($0)) } ?? .null,
            "perm_id": f.permID.map { .integer(Int($0)) } ?? .null, "time": .string(f.time.description),
            "symbol": .string(f.symbol.rawValue), "side": .string(f.side.rawValue),
            "quantity": .string("\(f.quantity)"),
            "price": .string("\(f.price)"), "account": .optional(f.account),
            "commission": .optional(f.commission.map { "\($0)" }),
            "commission_currency": .optional(f.commissionCurrency),
            "realized_pnl": .optional(f.realizedPnL.map { "\($0)" }),
        ]
    }

    public static func object(_ e: JournalEvent) -> KeyValuePairs<String, JSONValue> {
        [
            "record": .string("event"), "sequence": .integer(Int(e.sequence)), "time": .string(e.time.description),
            "kind": .string(e.kind.rawValue), "message": .string(e.message),
        ]
    }
}
