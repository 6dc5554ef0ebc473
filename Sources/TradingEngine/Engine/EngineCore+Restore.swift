import TradingModel

/// A position held at the broker when the engine starts (after a restart).
public struct RestoredPosition: Sendable, Hashable {
    /// The instrument.
    public var instrument: InstrumentID
    /// Signed quantity (negative: short).
    public var quantity: Quantity
    /// Average cost per unit.
    public var averagePrice: Price

    /// Creates a restored position.
    public init(instrument: InstrumentID, quantity: Quantity, averagePrice: Price) {
        self.instrument = instrument
        self.quantity = quantity
        self.averagePrice = averagePrice
    }
}

/// An order that lives at the broker (or is about to be sent again) when the engine starts.
public struct RestoredOrder: Sendable, Hashable {
    /// Where the order is in its life.
    public enum Stage: Sendable, Hashable {
        /// Sent (or about to be sent), not yet acknowledged: the broker's answer moves it on.
        case submitted
        /// Acknowledged and working at the broker.
        case working
    }

    /// What it asks for, with the client order id the runner follows it by.
    public var request: OrderRequest
    /// Where it is.
    public var stage: Stage
    /// Quantity already traded (already in the restored positions, so not booked again).
    public var filledQuantity: Quantity
    /// Average price of what traded.
    public var averageFillPrice: Price
    /// The bracket parent's client order id, for bracket children restored with their parent.
    public var parent: ClientOrderID?
    /// Modifications made before the restart (an execution style's reprices).
    public var modifications: Int

    /// Creates a restored order.
    public init(
        request: OrderRequest, stage: Stage, filledQuantity: Quantity = .zero, averageFillPrice: Price = .zero,
        parent: ClientOrderID? = nil, modifications: Int = 0
    ) {
        self.modifications = modifications
        self.request = request
        self.stage = stage
        self.filledQuantity = filledQuantity
        self.averageFillPrice = averageFillPrice
        self.parent = parent
    }
}

extension EngineCore {
    /// Seeds a flat engine with positions held at the broker (after a restart), before any live event.
    ///
    /// Each position is booked as an opening fill at its average cost without commission: the cash pays for it,
    /// so equity stays the configured capital marked to market, and the strategy sees the position (and may
    /// close it) like one it opened itself. The strategy is not called.
    /// - Parameters:
    ///   - positions: the broker's positions of instruments in the universe.
    ///   - time: the restore time (stamped on the synthetic fills).
    /// - Returns: the instruments skipped: outside the universe, zero quantity, or where the engine is not flat.
    @discardableResult
    public mutating func restore(positions: [RestoredPosition], at time: Timestamp) -> [InstrumentID] {
        var skipped: [InstrumentID] = []
        for restored in positions {
            let k = restored.instrument.index
            guard k >= 0, k < _state.universe.count, !restored.quantity.isZero,
                _state.portfolio.position(for: restored.instrument).isFlat
            else {
                skipped.append(restored.instrument)
                continue
            }
            let fill = Fill(
                orderID: OrderID(0), instrument: restored.instrument, side: restored.quantity.units > 0 ? .buy : .sell,
                quantity: restored.quantity.magnitude, price: restored.averagePrice, timestamp: time)
            _state.portfolio.apply(fill)
        }
        if time > _state.now { _state.now = time }
        if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: _state.now) }
        return skipped
    }

    /// Puts an order the broker holds (or one about to be sent again under its original reference) into the order
    /// manager, so the strategy sees it in `openOrders(for:)` and broker reports for it apply: it can be filled,
    /// cancelled or modified like any other. What already traded is recorded on the order only; the portfolio
    /// already holds it (`restore(positions:at:)`). The strategy is not called and no command results.
    /// - Parameters:
    ///   - order: the order and its stage.
    ///   - time: the restore time.
    /// - Returns: the engine's order (its id is what broker reports must carry), or `nil` for an instrument outside
    ///   the universe or a non-positive quantity.
    public mutating func restore(order: RestoredOrder, at time: Timestamp) -> Order? {
        let request = order.request
        let k = request.instrument.index
        guard k >= 0, k < _state.universe.count, request.quantity.units > 0 else { return nil }
        let id = _state.orders.create(request, at: time)
        _state.orders.apply(.submitted, to: id, at: time)
        if order.stage == .working { _state.orders.apply(.accepted, to: id, at: time) }
        if order.filledQuantity.units > 0, order.filledQuantity < request.quantity {
            _state.orders.record(
                Fill(
                    orderID: id, instrument: request.instrument, side: request.side, quantity: order.filledQuantity,
                    price: order.averageFillPrice, timestamp: time))
        }
        if let parent = order.parent, let parentOrder = _state.orders.order(clientID: parent) {
            _state.orders.setParent(parentOrder.id, of: id)
        }
        if order.modifications > 0 { _state.orders.setModifications(order.modifications, of: id) }
        if request.timeout != nil { recomputeDeadline() }
        if time > _state.now { _state.now = time }
        return _state.orders.order(id)
    }
}

extension EngineCore {
    /// Sets the engine's cash (and commission total) to what the run before a restart had, after
    /// `restore(positions:at:)` (which books the positions at the broker's cost against the configured capital).
    /// The runner computes the amount from the journal (`CashRestore`). The strategy is not called.
    /// - Parameters:
    ///   - cash: the cash in the account's currency itself.
    ///   - foreign: the cash in each other currency (`Portfolio.restoreBalances`).
    ///   - rates: the run before's rates, for a currency whose pair has no price yet.
    ///   - commissions: the commission total.
    ///   - time: the restore time.
    public mutating func restore(
        cash: Money, foreign: [String: Money] = [:], rates: [String: Double] = [:], commissions: Money, at time: Timestamp
    ) {
        _state.portfolio.restoreBalances(cash: cash, foreign: foreign, rates: rates, commissions: commissions)
        if time > _state.now { _state.now = time }
        if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: _state.now) }
    }

    /// Sale proceeds of the run before that are still settling (T+N, `EngineConfig.settlementDays`): each sell
    /// fill's proceeds (notional − commission) settle `settlementDays` business days after it. Fills whose proceeds
    /// have settled by `time` are skipped. The strategy is not called.
    /// - Returns: the unsettled total.
    @discardableResult
    public mutating func restoreSettlements(sales: [(time: Timestamp, proceeds: Money)], at time: Timestamp) -> Money {
        let days = _state.portfolio.settlementDays
        guard days > 0 else { return .zero }
        let pending = sales.map { (settlesAt: Portfolio.settlementTime(of: $0.time, days: days), amount: $0.proceeds) }
            .filter { $0.settlesAt > time }
        _state.portfolio.restoreSettlements(pending)
        return _state.portfolio.unsettledCash
    }
}
