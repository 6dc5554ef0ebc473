import TradingModel

/// A position's protection held at the broker: a stop-loss (`STP`) and an optional take-profit (`LMT`) on the
/// closing side, one cancels the other, GTC, sized to the position. It works while the bot is down, which a check on
/// the bot's bar close cannot. Used by `MomentumRotation` (`protectiveOrders`); the bracket strategies' ATR stops are
/// bracket children already.
///
/// A strategy calls `maintain` on each fill of its own orders, on each bar of an instrument, and after an update its
/// protection depends on (`reviews`): with no position, the protection is cancelled; with one and nothing else working,
/// a missing protection is sent and one of the wrong size is resized (an IB modify).
/// Protective orders carry readable ids (`AAPL-P1764000000-SL`, `-TP`: symbol, bar time, leg), so a restart finds
/// them among the orders it restored, and `isProtective` tells them from the strategy's trading orders.
public enum ProtectiveOrders {
    /// The stop-loss and take-profit distances, in percent of the average cost.
    public struct Levels: Hashable, Sendable {
        public var stopLossPercent: Double?
        public var takeProfitPercent: Double?
        public init(stopLossPercent: Double?, takeProfitPercent: Double?) {
            self.stopLossPercent = stopLossPercent
            self.takeProfitPercent = takeProfitPercent
        }
        /// `true` when there is something to protect with.
        public var isSet: Bool { stopLossPercent != nil || takeProfitPercent != nil }
    }

    /// `true` for an id of a protective order (also behind a run's orderRef prefix).
    public static func isProtective(_ id: ClientOrderID) -> Bool {
        // A second order of one id gets the engine's `#<order id>` suffix (`OrderManager.create`): a protection sent
        // again within the same second, e.g. after one was refused.
        let name = id.rawValue.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 3, let leg = parts.last, leg == "SL" || leg == "TP" else { return false }
        let marker = parts[parts.count - 2]
        return marker.first == "P" && marker.count > 1 && marker.dropFirst().allSatisfy(\.isNumber)
    }

    /// The instrument's open orders that are not protective: what a strategy trades with.
    public static func tradingOrders(_ instrument: InstrumentID, _ context: some StrategyContext) -> [Order] {
        context.openOrders(for: instrument).filter { !isProtective($0.clientOrderID) }
    }

    /// What keeps `instrument`'s protection in line with its position now.
    public static func maintain(
        _ instrument: InstrumentID, levels: Levels, _ context: some StrategyContext
    ) -> [StrategyAction] {
        guard levels.isSet else { return [] }
        let open = context.openOrders(for: instrument)
        let protective = open.filter { isProtective($0.clientOrderID) && $0.state != .pendingCancel }
        let position = context.position(for: instrument)
        if position.isFlat || !position.isLong {
            return protective.map { .cancel($0.clientOrderID) }
        }
        // An order of the strategy's own is working: the position is about to change; look again after it. A
        // protective leg being cancelled may still fill, or stay if its cancel is refused: look again when it ends
        // (`reviews`), or a second protection could join it and both trigger.
        guard !open.contains(where: { !isProtective($0.clientOrderID) || $0.state == .pendingCancel }) else {
            return []
        }
        if protective.isEmpty { return protect(instrument, position, levels: levels, context) }
        let size = position.quantity
        return protective.compactMap { order in
            guard order.state != .pendingReplace, order.state != .pendingSubmit, order.remainingQuantity != size else {
                return nil
            }
            return .modify(
                order.clientOrderID,
                OrderModification(
                    quantity: order.filledQuantity + size, reason: "protection follows the position: \(size) held"))
        }
    }

    /// `true` for an order update after which a strategy looks at its protection again (`maintain`) although no fill
    /// or bar came: one of its orders ended short of its quantity (cancelled, expired or refused by the broker, after
    /// a part filled or with the protection it made way for gone), or a protective leg's cancel was confirmed. A
    /// protective leg refused or denied is not looked at again here: sent again at once, it would be refused again, in
    /// a loop; the next bar tries again.
    public static func reviews(_ update: OrderEvent, of id: ClientOrderID) -> Bool {
        switch update {
        case .canceled: true
        case .expired, .rejected: !isProtective(id)
        default: false
        }
    }

    /// Modifications that size the instrument's protection to `quantity` (before a sale that leaves that much).
    public static func resize(_ instrument: InstrumentID, to quantity: Quantity, _ context: some StrategyContext)
        -> [StrategyAction]
    {
        context.openOrders(for: instrument).filter {
            isProtective($0.clientOrderID) && $0.state != .pendingCancel && $0.remainingQuantity != quantity
        }.map {
            .modify(
                $0.clientOrderID,
                OrderModification(quantity: $0.filledQuantity + quantity, reason: "protection for the \(quantity) kept"))
        }
    }

    /// Cancels for the instrument's protection (before the strategy sells the position itself).
    public static func cancel(_ instrument: InstrumentID, _ context: some StrategyContext) -> [StrategyAction] {
        context.openOrders(for: instrument).filter { isProtective($0.clientOrderID) && $0.state != .pendingCancel }
            .map { .cancel($0.clientOrderID) }
    }

    /// A new protection for a long position at its average cost.
    static func protect(
        _ instrument: InstrumentID, _ position: Position, levels: Levels, _ context: some StrategyContext
    ) -> [StrategyAction] {
        let cost = position.averagePrice.doubleValue
        guard cost > 0 else { return [] }
        let base = "\(context.universe[instrument].symbol.rawValue)-P\(context.now.nanoseconds / 1_000_000_000)"
        let group = "PROT-\(base)"
        var actions: [StrategyAction] = []
        func leg(_ type: OrderType, _ name: String) {
            var request = OrderRequest(
                instrument: instrument, side: .sell, quantity: position.quantity, type: type, timeInForce: .gtc,
                clientOrderID: ClientOrderID("\(base)-\(name)"))
            request.ocaGroup = levels.stopLossPercent != nil && levels.takeProfitPercent != nil ? group : nil
            actions.append(.submit(request))
        }
        if let percent = levels.stopLossPercent, let price = Price(checkedApproximately: cost * (1 - percent / 100)),
            price.units > 0
        {
            leg(.stop(price), "SL")
        }
        if let percent = levels.takeProfitPercent, let price = Price(checkedApproximately: cost * (1 + percent / 100)) {
            leg(.limit(price), "TP")
        }
        return actions
    }
}
