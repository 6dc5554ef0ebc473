import Foundation
import TWSProtocol

/// The terms a modification may change (quantity, order type, prices), read as IB means them, so TWS's echo of an
/// order (openOrder) can be compared with what was sent. Pure.
///
/// TWS writes a price the client left unset as `0`, not as empty: a MKT order's `lmtPrice` and `auxPrice`, the
/// `lmtPrice` of a STP order after its stop was changed (the grounded transcript
/// `place_order_modify_to_market_late_execution`: the echo of a MKT order has `lmt_price "0"`, `aux_price "0"`).
/// IB's "unset" sentinels (`1.7976931348623157E308`, `2147483647`) mean the same where they reach a price. So an unset
/// price, `0` and the sentinels are one value here; quantities are decimals (`1` and `1.0` are one); order types
/// compare without case. A price is on a grid far coarser than a double's error, so prices equal within 1e-9 of
/// their size are one.
///
/// ```swift
/// // A STP order's stop moved from 95 to 96: TWS echoes lmtPrice 0, which the client never sent.
/// OrderTerms.confirms(echo, sent: modified, before: working)   // true: the stop it changed is 96
/// ```
public struct OrderTerms: Sendable, Equatable {
    /// The total quantity (`nil`: unset).
    public var quantity: Decimal?
    /// The order type, upper-cased.
    public var orderType: String
    /// `lmtPrice`, `auxPrice`, `trailingPercent` and `lmtPriceOffset` (`nil`: unset, `0` or a sentinel).
    public var limitPrice: Double?
    public var auxPrice: Double?
    public var trailingPercent: Double?
    public var limitPriceOffset: Double?

    /// The terms of a wire order, read as IB means them.
    public init(_ order: TWSOrder) {
        quantity = order.totalQuantity.flatMap { Self.isSentinel($0) ? nil : $0 }
        orderType = order.orderType.trimmingCharacters(in: .whitespaces).uppercased()
        limitPrice = Self.price(order.limitPrice)
        auxPrice = Self.price(order.auxPrice)
        trailingPercent = Self.price(order.trailingPercent)
        limitPriceOffset = order.limitPriceOffset.flatMap { $0.isFinite && abs($0) < 1e300 ? $0 : nil }
    }

    /// Whether TWS's echo of an order confirms a modification: every term the modification changed (from `before`,
    /// the terms it replaces, to `sent`) has the sent value in `echo`, each read as IB means it. Terms the modification
    /// left alone are not looked at: TWS writes them its own way (an unset price as `0`), and an echo with the old
    /// values of the changed terms (an openOrder TWS sent before it applied the change) confirms nothing. A
    /// modification that changes none of these terms is confirmed by any echo.
    /// - Parameters:
    ///   - echo: TWS's openOrder of the order.
    ///   - sent: the terms the modification sent.
    ///   - before: the terms it replaces (as last sent, or as TWS listed them).
    public static func confirms(_ echo: TWSOrder, sent: TWSOrder, before: TWSOrder) -> Bool {
        let (echo, sent, before) = (OrderTerms(echo), OrderTerms(sent), OrderTerms(before))
        if sent.quantity != before.quantity, echo.quantity != sent.quantity { return false }
        if sent.orderType != before.orderType, echo.orderType != sent.orderType { return false }
        let prices: [KeyPath<OrderTerms, Double?>] = [\.limitPrice, \.auxPrice, \.trailingPercent, \.limitPriceOffset]
        for price in prices where !same(sent[keyPath: price], before[keyPath: price]) {
            guard same(echo[keyPath: price], sent[keyPath: price]) else { return false }
        }
        return true
    }

    /// Whether two prices are one: both unset, or equal within 1e-9 of their size.
    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
        default: false
        }
    }

    /// A price as IB means it: `nil` for unset, `0`, a non-finite value and IB's sentinels (the MAX double, and
    /// `2147483647` where an int sentinel was written into a price).
    static func price(_ value: Double?) -> Double? {
        guard let value, value != 0, value.isFinite, abs(value) < 1e300, value != Double(Int32.max) else { return nil }
        return value
    }

    /// IB's unset quantity (`UNSET_DECIMAL`, `2147483647`, or anything as large).
    static func isSentinel(_ quantity: Decimal) -> Bool { quantity >= Decimal(Int32.max) }
}
