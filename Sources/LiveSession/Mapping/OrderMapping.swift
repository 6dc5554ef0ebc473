import Foundation
import TWSProtocol
import TradingModel

/// Settings the domain order does not carry but the wire order needs.
public struct WireOrderOptions: Sendable, Hashable {
    /// The account to trade in (empty: TWS's default account).
    public var account: String
    /// Allow the order to trigger or fill outside regular trading hours.
    public var outsideRegularTradingHours: Bool
    /// Let the order work in IB's overnight session too (`includeOvernight`, server version 189 and later).
    public var includeOvernight = false
    /// OCA type of OCA groups: 1 cancel the rest with block, 2 reduce with block, 3 reduce without block.
    public var ocaType: Int
    /// The orderRef namespace.
    public var reference: OrderReference

    /// Creates options; defaults: TWS's default account, RTH only, OCA type 1, prefix `IBT:`.
    public init(
        account: String = "", outsideRegularTradingHours: Bool = false, ocaType: Int = 1,
        reference: OrderReference = OrderReference()
    ) {
        self.account = account
        self.outsideRegularTradingHours = outsideRegularTradingHours
        self.ocaType = ocaType
        self.reference = reference
    }
}

/// A wire order with the TWS order id it goes out under (the connection's own type, so the order path hands the
/// mapped orders to `TWSConnection.submitOrders` without copying them).
public typealias PlacedWireOrder = TWSOrderPlacement

/// Domain orders → TWS `placeOrder` terms. Pure.
public enum OrderMapping {
    /// The wire order of a domain order (or of a request with its client id), with `orderRef` set.
    /// - Parameters:
    ///   - order: the engine's order.
    ///   - options: account, outside-RTH, OCA type and orderRef namespace.
    /// - Returns: the wire order (without a parent link).
    /// - Throws: `IBMappingError.invalidQuantity` / `.invalidPrice` for non-positive or non-finite values.
    public static func wireOrder(for order: Order, options: WireOrderOptions) throws(IBMappingError) -> TWSOrder {
        guard order.quantity.units > 0 else {
            throw .invalidQuantity(field: "totalQuantity", value: order.quantity.description)
        }
        var wire = TWSOrder(
            action: order.side.rawValue, totalQuantity: WireNumbers.decimal(order.quantity),
            orderType: order.type.ibName)
        try applyPricing(order.type, to: &wire)
        wire.timeInForce = timeInForce(order.timeInForce)
        wire.orderRef = options.reference.orderRef(for: order.clientOrderID)
        wire.account = options.account
        wire.outsideRTH = options.outsideRegularTradingHours
        wire.includeOvernight = options.includeOvernight
        try applyExecution(order.execution, timeInForce: order.timeInForce, to: &wire)
        if let group = order.ocaGroup, !group.isEmpty {
            wire.ocaGroup = group
            wire.ocaType = options.ocaType
        }
        return wire
    }

    /// The three (or two) orders of a bracket: the parent and its children, linked by `parentId`, with
    /// `transmit` false on all but the last so TWS releases the group only once it is complete.
    ///
    /// The children share an OCA group named after the parent's orderRef (stable across restarts, unique per
    /// bracket, unlike the engine's run-local group name).
    /// - Parameters:
    ///   - parent: the entry order and its TWS order id.
    ///   - children: the protective orders with their TWS order ids, in sending order.
    ///   - options: account, outside-RTH, OCA type and orderRef namespace.
    /// - Returns: the orders in sending order, parent first (all for the parent's contract).
    /// - Throws: what `wireOrder(for:options:)` throws.
    public static func bracket(
        parent: (id: Int, order: Order), children: [(id: Int, order: Order)], options: WireOrderOptions
    ) throws(IBMappingError) -> [PlacedWireOrder] {
        var result: [PlacedWireOrder] = []
        var entry = try wireOrder(for: parent.order, options: options)
        entry.transmit = children.isEmpty
        result.append(PlacedWireOrder(orderID: parent.id, order: entry))
        let group = options.reference.orderRef(for: parent.order.clientOrderID) + "/OCA"
        for (k, child) in children.enumerated() {
            var wire = try wireOrder(for: child.order, options: options)
            wire.parentID = parent.id
            wire.ocaGroup = group
            wire.ocaType = options.ocaType
            wire.transmit = k == children.count - 1
            result.append(PlacedWireOrder(orderID: child.id, order: wire))
        }
        return result
    }

    /// The wire terms after a modification: the same order with a new total quantity and/or pricing.
    /// - Throws: `IBMappingError.unsupportedOrderType` when the pricing changes kind (TWS refuses that, 321).
    public static func modified(
        _ wire: TWSOrder, with change: OrderModification
    ) throws(IBMappingError) -> TWSOrder {
        var result = wire
        if let quantity = change.quantity {
            guard quantity.units > 0 else {
                throw .invalidQuantity(field: "totalQuantity", value: quantity.description)
            }
            result.totalQuantity = WireNumbers.decimal(quantity)
        }
        if let type = change.type {
            guard type.ibName == wire.orderType else {
                throw .unsupportedOrderType("\(wire.orderType) → \(type.ibName)")
            }
            result.limitPrice = nil
            result.auxPrice = nil
            result.trailingPercent = nil
            result.limitPriceOffset = nil
            try applyPricing(type, to: &result)
        }
        return result
    }

    /// TWS's text of a time in force.
    public static func timeInForce(_ tif: TimeInForce) -> String { tif.rawValue }

    /// Sets the algo (`algoStrategy` and its `algoParams`, as the official client sends Adaptive), outside-RTH and
    /// a GTD order's `goodTillDate` (UTC, `yyyyMMdd-HH:mm:ss`).
    /// - Throws: `IBMappingError.unsupportedTimeInForce` for GTD without a good-till time.
    static func applyExecution(
        _ execution: OrderExecution?, timeInForce: TimeInForce, to wire: inout TWSOrder
    ) throws(IBMappingError) {
        if timeInForce == .gtd {
            guard let goodTill = execution?.goodTill else { throw .unsupportedTimeInForce("GTD without a good-till time") }
            wire.goodTillDate = goodTill.compactUTCText
        }
        guard let execution else { return }
        if execution.outsideRegularHours { wire.outsideRTH = true }
        if execution.includeOvernight { wire.includeOvernight = true }
        switch execution.algo {
        case .adaptive(let priority):
            wire.algoStrategy = "Adaptive"
            wire.algoParams = [TWSTagValue("adaptivePriority", priority.rawValue)]
        case nil: break
        }
    }

    /// The execution terms a wire order carries: Adaptive with its priority, outside-RTH, overnight, and a GTD order's
    /// good-till time when it is in the compact UTC form (`Timestamp.compactUTCText`) (else the broker alone knows the expiry).
    public static func execution(of wire: TWSOrder) -> OrderExecution? {
        var execution = OrderExecution(outsideRegularHours: wire.outsideRTH, includeOvernight: wire.includeOvernight)
        if wire.algoStrategy.lowercased() == "adaptive" {
            let name = wire.algoParams.first { $0.tag == "adaptivePriority" }?.value ?? "Normal"
            execution.algo = .adaptive(AdaptivePriority(name: name) ?? .normal)
        }
        if wire.timeInForce.uppercased() == "GTD" { execution.goodTill = Timestamp(compactUTCText: wire.goodTillDate) }
        return execution.isPlain ? nil : execution
    }

    /// Sets the price fields of a wire order for an order type.
    static func applyPricing(_ type: OrderType, to wire: inout TWSOrder) throws(IBMappingError) {
        wire.orderType = type.ibName
        switch type {
        case .market:
            break
        case .limit(let price):
            wire.limitPrice = try positive(price, "lmtPrice")
        case .stop(let price):
            wire.auxPrice = try positive(price, "auxPrice")
        case .stopLimit(let stop, let limit):
            wire.auxPrice = try positive(stop, "auxPrice")
            wire.limitPrice = try positive(limit, "lmtPrice")
        case .trailingAmount(let amount):
            wire.auxPrice = try positive(amount, "auxPrice")
        case .trailingPercent(let percent):
            guard percent.isFinite, percent > 0, percent < 100 else {
                throw .invalidPrice(field: "trailingPercent", value: String(percent))
            }
            wire.trailingPercent = percent
        case .trailingLimit(let trail, let offset):
            wire.auxPrice = try positive(trail, "auxPrice")
            guard offset.units >= 0 else { throw .invalidPrice(field: "lmtPriceOffset", value: offset.description) }
            wire.limitPriceOffset = WireNumbers.double(offset)
        case .midprice(let cap):
            // The cap travels as lmtPrice; without one, lmtPrice stays unset.
            if let cap { wire.limitPrice = try positive(cap, "lmtPrice") }
        }
    }

    private static func positive(_ price: Price, _ field: String) throws(IBMappingError) -> Double {
        guard price.units > 0 else { throw .invalidPrice(field: field, value: price.description) }
        return WireNumbers.double(price)
    }

    // MARK: - Wire → domain

    /// The domain side of a wire action (`BUY`, `SELL`; `SSHORT` is a sell).
    /// - Throws: `IBMappingError.unknownSide`.
    public static func side(ofAction action: String) throws(IBMappingError) -> Side {
        switch action.uppercased() {
        case "BUY": .buy
        case "SELL", "SSHORT": .sell
        default: throw .unknownSide(action)
        }
    }

    /// The domain time in force of a wire one.
    /// - Throws: `IBMappingError.unsupportedTimeInForce` for OPG, FOK, DTC, ….
    public static func timeInForce(ofWire text: String) throws(IBMappingError) -> TimeInForce {
        guard let tif = TimeInForce(rawValue: text.uppercased()) else { throw .unsupportedTimeInForce(text) }
        return tif
    }

    /// The domain order type of a wire order's type and prices.
    /// - Throws: `IBMappingError.unsupportedOrderType`, `.invalidPrice`.
    public static func orderType(of wire: TWSOrder) throws(IBMappingError) -> OrderType {
        func price(_ value: Double?, _ field: String) throws(IBMappingError) -> Price {
            guard let value else { throw .invalidPrice(field: field, value: "unset") }
            return try WireNumbers.price(value, field: field)
        }
        switch wire.orderType.uppercased() {
        case "MKT": return .market
        case "LMT": return .limit(try price(wire.limitPrice, "lmtPrice"))
        case "STP": return .stop(try price(wire.auxPrice, "auxPrice"))
        case "STP LMT":
            return .stopLimit(stop: try price(wire.auxPrice, "auxPrice"), limit: try price(wire.limitPrice, "lmtPrice"))
        case "TRAIL":
            // TWS echoes an unset percent as 0 or its MAX sentinel: a trail by amount then.
            if let percent = OrderTerms.price(wire.trailingPercent) { return .trailingPercent(percent) }
            return .trailingAmount(try price(wire.auxPrice, "auxPrice"))
        case "TRAIL LIMIT":
            let offset = try WireNumbers.price(wire.limitPriceOffset ?? .nan, field: "lmtPriceOffset", allowZero: true)
            return .trailingLimit(trail: try price(wire.auxPrice, "auxPrice"), limitOffset: offset)
        case "MIDPRICE":
            guard let cap = wire.limitPrice, cap.isFinite, cap > 0, cap < 1e12 else { return .midprice(cap: nil) }
            return .midprice(cap: try price(cap, "lmtPrice"))
        default: throw .unsupportedOrderType(wire.orderType)
        }
    }
}
