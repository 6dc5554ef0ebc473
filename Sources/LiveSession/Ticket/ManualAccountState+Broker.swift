import Foundation
import TWSProtocol
import TradingEngine
import TradingModel

extension ManualAccountState {
    /// The account as the broker's answers state it, for a manual order's risk check.
    /// - Parameters:
    ///   - values: the account's summary values by tag (`NetLiquidation`, `GrossPositionValue`, `SettledCash`).
    ///   - positions: the account's positions (reqPositions, this account's).
    ///   - openOrders: the account's open orders (reqAllOpenOrders, this account's; a modification's own order left
    ///     out: the order as modified is checked, not both).
    ///   - contract: the order's contract.
    ///   - requireSettledCash: whether the settled-cash rule applies (only then is `SettledCash` read).
    /// - Throws: `UnreadableBrokerAnswer` for a position TWS sent that is not a share count.
    public init(
        values: [String: String], positions: [TWSPosition], openOrders: [TWSOpenOrder], contract: TWSContract,
        requireSettledCash: Bool
    ) throws(UnreadableBrokerAnswer) {
        func money(_ tag: String) -> Money? {
            values[tag].flatMap { Double($0) }.flatMap { Money(checkedApproximately: $0) }
        }
        self.init(
            equity: money("NetLiquidation") ?? .zero, grossExposure: money("GrossPositionValue") ?? .zero,
            activePositions: 0, position: .zero)
        if requireSettledCash { settledCash = money("SettledCash") }
        let held = positions.filter { ($0.quantity ?? 0) != 0 }
        activePositions = held.count
        if let mine = held.first(where: { $0.contract.contractID == contract.contractID }) {
            guard let quantity = Quantity(checkedApproximately: NSDecimalNumber(decimal: mine.quantity ?? 0).doubleValue)
            else { throw UnreadableBrokerAnswer("TWS reported an unreadable position in \(contract.symbol)") }
            position = quantity
        }
        pendingOrders = ManualPendingOrder.pending(openOrders, positions: held, contract: contract)
        // A contract without a position that an open order would open counts as a position, as in the engine.
        let heldIDs = Set(held.map(\.contract.contractID))
        activePositions += Set(
            openOrders.filter { $0.contract.contractID != contract.contractID && !heldIDs.contains($0.contract.contractID) }
                .map(\.contract.contractID)
        ).count
    }
}

extension ManualPendingOrder {
    /// The account's open orders as the risk check counts them: side, whole quantity, price (limit, else stop) and
    /// whether each adds to its contract's position, and its contract's multiplier. Orders that are not live (cancelled, filled, inactive) and
    /// protective children of a bracket (they close, they do not open) are left out.
    public static func pending(
        _ open: [TWSOpenOrder], positions: [TWSPosition], contract: TWSContract
    ) -> [ManualPendingOrder] {
        open.compactMap { entry in
            let order = entry.order
            let status = entry.orderState.status.lowercased()
            guard !["cancelled", "apicancelled", "filled", "inactive", "pendingcancel"].contains(status),
                order.parentID == 0,
                let side = Side(rawValue: order.action.uppercased()) ?? (order.action.uppercased() == "SSHORT" ? .sell : nil),
                let total = order.totalQuantity,
                let quantity = Quantity(checkedApproximately: NSDecimalNumber(decimal: total).doubleValue),
                quantity.units > 0
            else { return nil }
            let price = [order.limitPrice, order.auxPrice].lazy.compactMap { $0 }.first { $0 > 0 && $0 < 1e15 }
                .flatMap { Price(checkedApproximately: $0) }
            let held = positions.first { $0.contract.contractID == entry.contract.contractID }?.quantity ?? 0
            let increases = side == .buy ? held >= 0 : held <= 0
            var pending = ManualPendingOrder(
                sameContract: entry.contract.contractID == contract.contractID, side: side, quantity: quantity,
                price: price, increases: increases)
            // A future's or an option's order is worth price × quantity × multiplier; a future's price is not paid.
            if let multiplier = Int64(entry.contract.multiplier), multiplier > 0 { pending.multiplier = multiplier }
            pending.paysNotional = entry.contract.securityType.uppercased() != "FUT"
            return pending
        }
    }
}

/// An answer of TWS that cannot be read as what it should be (a position that is no share count).
public struct UnreadableBrokerAnswer: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was unreadable.
    public var description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
