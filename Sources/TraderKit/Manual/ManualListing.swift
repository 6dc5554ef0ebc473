import Analytics
import Foundation
import InteractiveBrokers
import LiveSession
import TradingModel

/// What the manual commands print: tables for people, JSON lines (`--json`) for scripts.
public enum ManualListing {
    /// `ibtrader orders`.
    public static func orders(_ orders: [ManualOpenOrder], json: Bool) -> [String] {
        if json {
            return orders.map { o in
                ContractFields.line([
                    "record": .string("openOrder"), "orderId": .integer(o.orderID), "clientId": .integer(o.clientID),
                    "permId": .string("\(o.permID)"), "orderRef": .string(o.orderRef), "account": .string(o.account),
                    "symbol": .string(o.symbol), "action": .string(o.action), "quantity": .string(o.quantity),
                    "type": .string(o.type), "tif": .string(o.timeInForce), "status": .string(o.status),
                    "parentId": .integer(o.parentID), "algo": o.algo.isEmpty ? .null : .string(o.algo),
                    "outsideRth": .bool(o.outsideRTH), "goodTill": o.goodTill.isEmpty ? .null : .string(o.goodTill),
                    "working": .bool(o.isWorking),
                ], contract(o))
            }
        }
        // TWS 10.48 and later also list deactivated orders (Inactive): shown apart, since they do not work.
        let working = orders.filter(\.isWorking)
        let inactive = orders.filter { !$0.isWorking }
        var lines = ["Open orders (\(working.count))", Self.orderTable(working)]
        if !inactive.isEmpty {
            lines += [
                "Listed by TWS but not working (\(inactive.count)): deactivated, or held by IB (e.g. while it locates "
                    + "shares for a short sale)",
                Self.orderTable(inactive),
            ]
        }
        return lines
    }

    private static func orderTable(_ orders: [ManualOpenOrder]) -> String {
        let rows = orders.map { o in
            [
                "\(o.orderID)", "\(o.clientID)", o.orderRef, o.instrument, o.action, o.quantity, o.type, o.timeInForce,
                o.status, o.parentID == 0 ? "" : "\(o.parentID)", o.terms,
            ]
        }
        return TextTable.render(
            header: [
                "order id", "client", "orderRef", "contract", "action", "qty", "type", "tif", "status", "parent", "terms",
            ],
            rows: rows, rightAligned: [0, 1, 5])
    }

    /// `ibtrader orders`' follow-up of journaled manual orders (nothing when none was left behind).
    public static func resolutions(_ resolved: [ManualResolution], json: Bool) -> [String] {
        if json {
            return resolved.map { r in
                JSONLine.render([
                    "record": .string("journalFollowUp"), "orderRef": .string(r.orderRef), "was": .string(r.was.rawValue),
                    "now": r.now.map { .string($0.rawValue) } ?? .string("unknown"), "detail": .string(r.detail),
                ])
            }
        }
        return resolved.map { r in
            r.now.map { "journal: \(r.orderRef) \(BrokerOrderStatus.name(of: r.was)) → \(BrokerOrderStatus.name(of: $0)) (\(r.detail))" }
                ?? "journal: unknown: \(r.detail)"
        }
    }

    /// `ibtrader positions`: each contract on its own line with its terms (`QQQ 20261218 400 P (OPT ×100)` beside
    /// `QQQ`); `--json` carries them by name.
    public static func positions(_ positions: [ManualPosition], json: Bool) -> [String] {
        if json {
            return positions.map { p in
                ContractFields.line([
                    "record": .string("position"), "account": .string(p.account), "symbol": .string(p.symbol),
                    "conId": .integer(p.contractID), "quantity": .string("\(p.quantity)"),
                    "averageCost": .number(p.averageCost),
                ], p.contract)
            }
        }
        let rows = positions.map {
            [$0.account, $0.contract.description, "\($0.contractID)", "\($0.quantity)", String(format: "%.4f", $0.averageCost)]
        }
        return [
            "Positions (\(positions.count))",
            TextTable.render(header: ["account", "contract", "conId", "qty", "avg cost"], rows: rows, rightAligned: [2, 3, 4]),
        ]
    }

    /// An open order's contract: as TWS listed it, else (a result logged before) its symbol's.
    private static func contract(_ o: ManualOpenOrder) -> ContractTerms { o.contract ?? ContractTerms(symbol: o.symbol) }

    /// `ibtrader account`.
    public static func account(_ report: ManualAccountReport, json: Bool) -> [String] {
        let pnl: [(String, Double?)] = [
            ("DailyPnL", report.dailyPnL), ("UnrealizedPnL", report.unrealizedPnL), ("RealizedPnL", report.realizedPnL),
        ]
        if json {
            var object: [String: JSONValue] = ["record": .string("account"), "account": .string(report.account),
                                               "currency": .string(report.currency)]
            for (tag, value) in report.values { object[tag] = Double(value).map { .number($0) } ?? .string(value) }
            for (tag, value) in pnl { object[tag] = value.map { .number($0) } ?? .null }
            return [JSONValue.object(object).serialized().split(whereSeparator: \.isNewline)
                .map { $0.drop { $0 == " " } }.joined()]
        }
        var rows = ManualAccountReport.tags.compactMap { tag in report.values[tag].map { [tag, $0, report.currency] } }
        rows += pnl.compactMap { tag, value in value.map { [tag, String(format: "%.2f", $0), report.currency] } }
        return [
            "Account \(report.account)",
            TextTable.render(header: ["value", "amount", "currency"], rows: rows, rightAligned: [1]),
        ]
    }

    /// `ibtrader cancel`.
    public static func cancel(_ result: ManualCancelResult, json: Bool) -> [String] {
        var lines: [String]
        if json {
            lines = result.cancelled.map { Self.cancelled($0, "cancelled") } + result.stillOpen.map { Self.cancelled($0, "stillOpen") }
                + result.inactive.map { Self.cancelled($0, "inactive") }
        } else {
            // Each order with the API client that placed it (an order of another client may be cancelled too).
            lines = ["cancelled \(result.cancelled.count) order(s)"]
            lines += result.cancelled.map {
                "  \($0.orderID) \($0.orderRef) \($0.instrument) \($0.action) \($0.quantity) \($0.type) "
                    + "(placed by client \($0.clientID))"
            }
            let listed = { (o: ManualOpenOrder) in "  \(o.orderID) \(o.orderRef) \(o.instrument) \(o.status) (client \(o.clientID))" }
            if !result.stillOpen.isEmpty {
                lines.append("still open after the wait: \(result.stillOpen.count)")
                lines += result.stillOpen.map(listed)
            }
            if !result.inactive.isEmpty {
                lines.append("listed by TWS but not working (Inactive: deactivated, or held by IB), not waited for: "
                    + "\(result.inactive.count)")
                lines += result.inactive.map(listed)
            }
        }
        return lines
    }

    private static func cancelled(_ o: ManualOpenOrder, _ record: String) -> String {
        ContractFields.line([
            "record": .string(record), "orderId": .integer(o.orderID), "clientId": .integer(o.clientID),
            "orderRef": .string(o.orderRef), "symbol": .string(o.symbol), "status": .string(o.status),
        ], contract(o))
    }

    /// `ibtrader order`.
    public static func order(_ result: ManualOrderResult, json: Bool) -> [String] {
        let (status, detail) = orderStatus(result.outcome)
        if json {
            let record: KeyValuePairs<String, JSONValue> = [
                "record": .string("order"), "account": .string(result.account), "orderRef": .string(result.orderRef),
                "status": .string(status), "detail": detail.isEmpty ? .null : .string(detail),
            ]
            var lines = [result.contract.map { ContractFields.line(record, $0) } ?? JSONLine.render(record)]
            lines += result.legs.map { leg in
                JSONLine.render([
                    "record": .string("leg"), "orderRef": .string(leg.orderRef), "orderId": .integer(leg.brokerOrderID),
                    "side": .string(leg.side.rawValue), "quantity": .string("\(leg.quantity)"), "type": .string(leg.type),
                    "state": .string(leg.state.rawValue), "filled": .string("\(leg.filled)"),
                    "averagePrice": leg.averagePrice.map { .string("\($0)") } ?? .null,
                ])
            }
            lines += result.steps.map { JSONLine.render(["record": .string("step"), "text": .string($0)]) }
            return lines
        }
        let contract = result.contract.flatMap { $0.isStock ? nil : " in \($0)" } ?? ""
        var lines = ["\(status): \(result.orderRef)\(contract) (account \(result.account))\(detail.isEmpty ? "" : ": \(detail)")"]
        lines += result.steps.map { "  \($0)" }
        if !result.legs.isEmpty {
            lines.append(
                TextTable.render(
                    header: ["order id", "orderRef", "side", "qty", "type", "status", "filled", "avg price"],
                    rows: result.legs.map {
                        [
                            "\($0.brokerOrderID)", $0.orderRef, $0.side.rawValue, "\($0.quantity)", $0.type,
                            BrokerOrderStatus.name(of: $0.state), "\($0.filled)", $0.averagePrice.map { "\($0)" } ?? "",
                        ]
                    }, rightAligned: [0, 3, 6, 7]))
        }
        return lines
    }

    /// The order's status word and detail.
    public static func orderStatus(_ outcome: ManualOrderOutcome) -> (String, String) {
        switch outcome {
        case .acknowledged: ("acknowledged", "")
        case .rejected(let text): ("rejected", text)
        case .denied(let denial): ("denied", "\(denial)")
        case .timedOut: ("timeout", "no acknowledgement in time; the order may still be working (see `ibtrader orders`)")
        }
    }

    /// `ibtrader modify`.
    public static func modify(_ result: ManualModifyResult, json: Bool) -> [String] {
        let (status, detail) = modifyStatus(result.outcome)
        if json {
            let record: KeyValuePairs<String, JSONValue> = [
                "record": .string("modify"), "account": .string(result.account), "orderId": .integer(result.orderID),
                "orderRef": .string(result.orderRef), "symbol": .string(result.contract?.symbol ?? result.symbol),
                "before": .string(result.before), "after": .string(result.after), "status": .string(status),
                "detail": detail.isEmpty ? .null : .string(detail),
            ]
            return [result.contract.map { ContractFields.line(record, $0) } ?? JSONLine.render(record)]
        }
        return [
            "\(status): order \(result.orderID) \(result.orderRef) \(result.symbol) (account \(result.account))"
                + (detail.isEmpty ? "" : ": \(detail)"),
            "  before: \(result.before)",
            "  after:  \(result.after)",
        ]
    }

    /// The modification's status word and detail.
    public static func modifyStatus(_ outcome: ManualOrderOutcome) -> (String, String) {
        switch outcome {
        case .acknowledged: ("modified", "")
        case .rejected(let text): ("rejected", "\(text) (the order keeps its old terms)")
        case .denied(let denial): ("denied", "\(denial)")
        case .timedOut: ("timeout", "no acknowledgement in time; see `ibtrader orders` for the order's terms")
        }
    }
}
