import Analytics
import ArgumentParser
import TraderKit
import InteractiveBrokers

/// `ibtrader orders`: the account's open orders (every client's, and TWS's own).
struct OrdersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orders",
        abstract: "List the account's open orders (all API clients and TWS; reqAllOpenOrders)."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var manual: ManualOptions

    func run() async throws { try await perform().emit() }

    /// The lines to print.
    func perform() async throws -> ManualCommandOutput {
        let context = try ManualContext(connection: connection, manual: manual, journaling: false)
        let orders = try await context.run { client, info, settings in
            try await ManualTrading.openOrders(on: client, info: info, settings: settings)
        }
        return ManualCommandOutput(lines: Self.render(orders, json: manual.json))
    }

    static func render(_ orders: [ManualOpenOrder], json: Bool) -> [String] {
        if json {
            return orders.map { o in
                JSONLine.render([
                    "record": .string("openOrder"), "orderId": .integer(o.orderID), "clientId": .integer(o.clientID),
                    "permId": .string("\(o.permID)"), "orderRef": .string(o.orderRef), "account": .string(o.account),
                    "symbol": .string(o.symbol), "action": .string(o.action), "quantity": .string(o.quantity),
                    "type": .string(o.type), "tif": .string(o.timeInForce), "status": .string(o.status),
                    "parentId": .integer(o.parentID),
                ])
            }
        }
        let rows = orders.map { o in
            [
                "\(o.orderID)", "\(o.clientID)", o.orderRef, o.symbol, o.action, o.quantity, o.type, o.timeInForce,
                o.status, o.parentID == 0 ? "" : "\(o.parentID)",
            ]
        }
        return [
            "Open orders (\(orders.count))",
            TextTable.render(
                header: ["order id", "client", "orderRef", "symbol", "action", "qty", "type", "tif", "status", "parent"],
                rows: rows, rightAligned: [0, 1, 5]),
        ]
    }
}
