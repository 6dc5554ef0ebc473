import Foundation
import TradingModel

/// What `ibtrader modify` was asked to change, before validation: the command line's values as text.
public struct ManualModifyArguments: Sendable, Hashable {
    /// `--qty`: the new total quantity.
    public var quantity: String?
    /// `--limit`: the new limit price (LMT, STP_LMT).
    public var limit: String?
    /// `--stop`: the new stop price (STP, STP_LMT).
    public var stop: String?
    /// `--trail-amount` (TRAIL).
    public var trailAmount: String?
    /// `--trail-percent` (TRAIL).
    public var trailPercent: String?

    /// Creates arguments; set the options by name.
    public init() {}
}

/// A validated change to a working order: a new total quantity and/or new prices of the same kind of order.
///
/// Which prices apply depends on the order, known only once it is found at the broker: `change(of:quantity:)`
/// checks them against its type and says which option does not fit.
///
/// ```swift
/// var arguments = ManualModifyArguments()
/// arguments.limit = "149.50"
/// let modification = try ManualModification(arguments)
/// let change = try modification.change(of: .limit(Price(150)), quantity: Quantity(10))  // LMT 149.50
/// ```
public struct ManualModification: Sendable, Hashable {
    /// The new total quantity.
    public var quantity: Quantity?
    /// The new limit price.
    public var limit: Price?
    /// The new stop price.
    public var stop: Price?
    /// The new trailing amount.
    public var trailAmount: Price?
    /// The new trailing percent.
    public var trailPercent: Double?

    /// Why, for the journal's note and the intent's history (an `--order-timeout` reprice's reason).
    public var reason: String?

    /// A new limit price (a reprice).
    public init(limit: Price) { self.limit = limit }

    /// `true` when a price changes (the quantity aside).
    public var changesPricing: Bool { limit != nil || stop != nil || trailAmount != nil || trailPercent != nil }

    /// Validates the arguments: at least one change, positive numbers, one trailing option at most.
    /// - Throws: `ManualOrderError` naming the option at fault.
    public init(_ arguments: ManualModifyArguments) throws(ManualOrderError) {
        if let text = arguments.quantity {
            guard let value = Quantity(text), value.units > 0 else {
                throw ManualOrderError("--qty must be a positive number, got '\(text)'")
            }
            quantity = value
        }
        limit = try Self.price(arguments.limit, "--limit")
        stop = try Self.price(arguments.stop, "--stop")
        trailAmount = try Self.price(arguments.trailAmount, "--trail-amount")
        if let text = arguments.trailPercent {
            guard let value = Double(text), value.isFinite, value > 0, value < 100 else {
                throw ManualOrderError("--trail-percent must be a number in (0, 100), got '\(text)'")
            }
            trailPercent = value
        }
        if trailAmount != nil, trailPercent != nil {
            throw ManualOrderError("--trail-amount and --trail-percent are exclusive: give one")
        }
        guard quantity != nil || changesPricing else {
            throw ManualOrderError("nothing to change: give --qty, --limit, --stop, --trail-amount or --trail-percent")
        }
    }

    /// The engine's modification of an order of type `current`: prices the type does not have are refused (TWS
    /// cannot change an order's type or side; cancel it and place a new one).
    /// - Parameters:
    ///   - current: the order's pricing at the broker.
    ///   - quantity: the order's total quantity at the broker.
    /// - Returns: the change, with `type` set only when a price changes.
    /// - Throws: `ManualOrderError` naming the option that does not apply, or saying the change changes nothing.
    public func change(of current: OrderType, quantity: Quantity) throws(ManualOrderError) -> OrderModification {
        let name = current.ibName
        func refuse(_ present: Bool, _ option: String) throws(ManualOrderError) {
            if present { throw ManualOrderError("\(option) does not apply to a \(name) order") }
        }
        var type: OrderType?
        switch current {
        case .market:
            try refuse(changesPricing, "a price")
        case .limit:
            try refuse(stop != nil, "--stop")
            try refuse(trailAmount != nil || trailPercent != nil, "--trail-amount/--trail-percent")
            if let limit { type = .limit(limit) }
        case .stop:
            try refuse(limit != nil, "--limit")
            try refuse(trailAmount != nil || trailPercent != nil, "--trail-amount/--trail-percent")
            if let stop { type = .stop(stop) }
        case .stopLimit(let oldStop, let oldLimit):
            try refuse(trailAmount != nil || trailPercent != nil, "--trail-amount/--trail-percent")
            if limit != nil || stop != nil { type = .stopLimit(stop: stop ?? oldStop, limit: limit ?? oldLimit) }
        case .trailingAmount, .trailingPercent:
            try refuse(limit != nil, "--limit")
            try refuse(stop != nil, "--stop")
            if let trailAmount { type = .trailingAmount(trailAmount) }
            if let trailPercent { type = .trailingPercent(trailPercent) }
        case .trailingLimit:
            try refuse(changesPricing, "a price")
        case .midprice:
            try refuse(stop != nil, "--stop")
            try refuse(trailAmount != nil || trailPercent != nil, "--trail-amount/--trail-percent")
            if let limit { type = .midprice(cap: limit) }
        }
        let newQuantity = self.quantity.flatMap { $0 == quantity ? nil : $0 }
        let newType = type.flatMap { $0 == current ? nil : $0 }
        guard newQuantity != nil || newType != nil else {
            throw ManualOrderError("the order already has these terms: nothing to change")
        }
        return OrderModification(quantity: newQuantity, type: newType)
    }

    private static func price(_ text: String?, _ option: String) throws(ManualOrderError) -> Price? {
        guard let text else { return nil }
        guard let value = Price(text), value.units > 0 else {
            throw ManualOrderError("\(option) must be a positive price, got '\(text)'")
        }
        return value
    }
}
