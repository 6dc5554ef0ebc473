import TradingModel

extension EngineCore {
    /// Carries out strategy actions; notifications they cause (denials) are delivered after, breadth-first.
    ///
    /// The actions of one batch (one strategy call) are one target portfolio: orders that only reduce a position
    /// are sent first, with cancels and the rest in their order, then the orders that open or add to positions,
    /// in their order. The risk check counts the batch's reductions (`RiskProjection`), so a rebalance's sells
    /// free the room its buys need, whatever order the strategy listed them in.
    @usableFromInline
    mutating func perform(_ actions: [StrategyAction], into commands: inout [EngineCommand]) {
        guard !actions.isEmpty else { return }
        var queue = actions
        var notifications: [StrategyEvent] = []
        var rounds = 0
        while !queue.isEmpty {
            var increases: [StrategyAction] = []
            for action in queue {
                if isIncrease(action) {
                    increases.append(action)
                } else {
                    perform(action, into: &commands, notifications: &notifications)
                }
            }
            for action in increases { perform(action, into: &commands, notifications: &notifications) }
            queue = []
            rounds += 1
            // A strategy that answers every denial with a new order must not loop forever.
            guard rounds < 8 else { break }
            for event in notifications { queue += Self.dispatch(event, to: &_strategy, in: _state) }
            notifications = []
        }
    }

    /// `true` for an order that opens or adds to a position (judged against the position and the batch's
    /// reductions already sent); everything else keeps its place in the first pass.
    private func isIncrease(_ action: StrategyAction) -> Bool {
        let request: OrderRequest
        switch action {
        case let .submit(r): request = r
        case let .submitBracket(bracket): request = bracket.entry
        default: return false
        }
        let index = request.instrument.index
        guard index >= 0, index < _state.universe.count else { return false }
        let held = _state.portfolio.positions[index].quantity.units
        let after = held + request.side.sign * request.quantity.units
        return after.magnitude > held.magnitude || (held != 0 && (after > 0) != (held > 0) && after != 0)
    }

    private mutating func perform(
        _ action: StrategyAction, into commands: inout [EngineCommand], notifications: inout [StrategyEvent]
    ) {
        switch action {
        case let .submit(request):
            let request = request.onTick(ticks(request.instrument), reference: mark(request.instrument))
            let id = _state.orders.create(request, at: _state.now)
            guard admit(id, request, stopDistance: nil, notifications: &notifications) != nil else { return }
            _state.orders.apply(.submitted, to: id, at: _state.now)
            if request.timeout != nil { recomputeDeadline() }
            if let order = _state.orders.order(id) { commands.append(.submit(order)) }
        case let .submitBracket(bracket):
            submit(bracket, into: &commands, notifications: &notifications)
        case let .cancel(clientID):
            guard let order = _state.orders.order(clientID: clientID), order.isOpen, !keepsProtection(order) else {
                return
            }
            requestCancel(order.id, into: &commands)
        case let .cancelAll(instrument):
            for order in _state.orders.openOrders(for: instrument) where !keepsProtection(order) {
                requestCancel(order.id, into: &commands)
            }
        case let .modify(clientID, change):
            var change = change
            if let order = _state.orders.order(clientID: clientID) {
                change.type = change.type?.onTick(ticks(order.instrument), side: order.side, reference: mark(order.instrument))
            }
            guard let order = _state.orders.order(clientID: clientID), !growsUnderHalt(order, change),
                _state.orders.apply(.replaceRequested, to: order.id, at: _state.now)
            else { return }
            pendingModifications[order.id] = change
            commands.append(.modify(order.id, change, filledQuantity: order.filledQuantity))
        case let .schedule(timer, at):
            let index = timers.firstIndex { $0.at > at } ?? timers.count
            timers.insert((timer, at), at: index)
            nextDeadline = min(nextDeadline, at.nanoseconds)
        }
    }

    /// `true` when a strategy's cancel of `order` is not sent: while every new order is refused (the kill switch, a
    /// journal failure, the operator's kill), a held position's protection stays, since the exit it would make way
    /// for is refused too (a rotation under `ctl kill` left GOOG held with no stop). Protection of a flat position,
    /// or on the wrong side, is cancelled as asked: it guards nothing and could open one.
    func keepsProtection(_ order: Order) -> Bool {
        guard _riskMonitor.status.killSwitchEngaged, isProtection(order) else { return false }
        let held = _state.portfolio.positions[order.instrument.index].quantity.units
        return held != 0 && (held > 0) == (order.side == .sell)
    }

    /// `true` when a modification is not sent because it would grow an order while every new order is refused: only
    /// protection of a held position may grow then, and only as far as `protectsHeldPosition` allows (a protective
    /// stop resized to the position after a fill in the stop's drain). Price changes and shrinking go on.
    func growsUnderHalt(_ order: Order, _ change: OrderModification) -> Bool {
        guard _riskMonitor.status.killSwitchEngaged, let quantity = change.quantity else { return false }
        let remaining = quantity - order.filledQuantity
        guard remaining > order.remainingQuantity else { return false }
        var request = order.request
        request.quantity = remaining
        if let type = change.type { request.type = type }
        return !protectsHeldPosition(request, excluding: order.id)
    }

    /// Checks order `id` (just created from `request`); denies it, or scales it down to fit, noting why.
    /// - Returns: the quantity to send, or `nil` when denied.
    private mutating func admit(
        _ id: OrderID, _ request: OrderRequest, stopDistance: Price?, notifications: inout [StrategyEvent]
    ) -> Quantity? {
        switch evaluate(request, stopDistance: stopDistance, orderID: id) {
        case .allowed:
            return request.quantity
        case let .denied(denial):
            deny(id, denial, notifications: &notifications)
            return nil
        case let .scaled(quantity, denial):
            let record = RiskAdjustmentRecord(
                time: _state.now, orderID: id, instrument: request.instrument, requested: request.quantity,
                sent: quantity, denial: denial)
            _state.orders.resize(id, to: quantity, note: record.note)
            adjustments.append(record)
            adjustmentCounts[denial.rule, default: 0] += 1
            return quantity
        }
    }

    private mutating func submit(
        _ bracket: BracketOrder, into commands: inout [EngineCommand], notifications: inout [StrategyEvent]
    ) {
        var bracket = bracket.onTick(ticks(bracket.entry.instrument), reference: mark(bracket.entry.instrument))
        let entry = bracket.entry
        let parentID = _state.orders.create(entry, at: _state.now)
        let reference = referencePrice(for: entry)
        let distance = bracket.stopLoss.map { Price(units: ($0.units - reference.units).magnitude.toInt64) }
        guard let quantity = admit(parentID, entry, stopDistance: distance, notifications: &notifications) else {
            return
        }
        bracket.entry.quantity = quantity
        let base = _state.orders.order(parentID)?.clientOrderID.rawValue ?? "B"
        var children: [Order] = []
        for (k, var child) in bracket.children.enumerated() {
            child.ocaGroup = "OCA-\(parentID.rawValue)"
            child.clientOrderID = ClientOrderID("\(base)-\(k == 0 && bracket.stopLoss != nil ? "SL" : "TP")")
            let id = _state.orders.create(child, at: _state.now)
            _state.orders.setParent(parentID, of: id)
            _state.orders.apply(.submitted, to: id, at: _state.now)
            if let order = _state.orders.order(id) { children.append(order) }
        }
        _state.orders.apply(.submitted, to: parentID, at: _state.now)
        guard let parent = _state.orders.order(parentID) else { return }
        commands.append(.submitBracket(parent: parent, children: children))
    }

    /// The instrument's price increments (every order price is put on them, each with the increment at that
    /// price; none for an unknown instrument).
    func ticks(_ id: InstrumentID) -> TickTable {
        guard id.index >= 0, id.index < _state.universe.count else { return TickTable(.zero) }
        return _state.universe[id].ticks
    }

    /// The instrument's last price, where a trail amount is put on the tick (`nil` before any).
    func mark(_ id: InstrumentID) -> Price? {
        guard id.index >= 0, id.index < _state.universe.count else { return nil }
        let mark = _state.portfolio.marks[id.index]
        return mark.units > 0 ? mark : nil
    }

    /// Sends a cancel for an open order.
    mutating func requestCancel(_ id: OrderID, into commands: inout [EngineCommand]) {
        guard _state.orders.apply(.cancelRequested, to: id, at: _state.now) else { return }
        commands.append(.cancel(id))
    }

    private mutating func deny(_ id: OrderID, _ denial: RiskDenial, notifications: inout [StrategyEvent]) {
        _state.orders.apply(.denied(reason: denial.description), to: id, at: _state.now)
        guard let order = _state.orders.order(id) else { return }
        denials.append(RiskDenialRecord(time: _state.now, orderID: id, instrument: order.instrument, denial: denial))
        denialCounts[denial.rule, default: 0] += 1
        notifications.append(.orderUpdated(order.clientOrderID, .denied(reason: denial.description)))
    }

    /// The price used to value an order before it trades: the instrument's mark, except for a buy that may pay
    /// more. A limit or stop limit above the mark is valued at its limit, the most it can pay, so an entry capped
    /// that way (`orders.entry: limit`, `orders.limitOffset: 50 bps`) cannot fill beyond what the risk check
    /// counted, whatever the next open does; a stop above the mark at its stop, where it trades at the earliest.
    /// Without a mark, the order's price.
    func referencePrice(for request: OrderRequest) -> Price {
        request.riskPrice(mark: _state.portfolio.marks[request.instrument.index])
    }

    /// Runs the risk rules against the portfolio with the counted pending orders (`RiskProjection`); an entry that
    /// breaks only sizing limits is scaled down to the largest whole-lot quantity that passes every rule, when
    /// `RiskConfig.scaleOrdersToFit` allows.
    func evaluate(_ request: OrderRequest, stopDistance: Price?, orderID: OrderID?) -> RiskOutcome {
        guard request.instrument.index >= 0, request.instrument.index < _state.universe.count else {
            return .denied(RiskDenial(rule: .invalidOrder, detail: "unknown instrument \(request.instrument)"))
        }
        guard request.quantity.units > 0 else {
            return .denied(RiskDenial(rule: .invalidOrder, detail: "quantity must be positive"))
        }
        if request.instrument.index == gaugeIndex {
            return .denied(
                RiskDenial(
                    rule: .invalidOrder,
                    detail: "\(_state.universe[request.instrument].symbol) is the volatility gauge (risk.volatilitySymbol): "
                        + "watched, never traded"))
        }
        if hasRateOnly, rateOnly[request.instrument.index] {
            return .denied(
                RiskDenial(
                    rule: .invalidOrder,
                    detail: "\(_state.universe[request.instrument].symbol) is in the run only for its rate "
                        + "(strategy.currency \(config.accountCurrency)): watched, never traded"))
        }
        let terms = InstrumentOrderCheck(
            kind: _state.universe[request.instrument].kind,
            held: _state.portfolio.position(for: request.instrument).quantity, rollDays: config.futuresRollDays)
        if let denial = terms.denial(request, at: _state.now) { return .denied(denial) }
        // Protection of a held position goes out whatever refuses new orders (`protectsHeldPosition`).
        let protects = _riskMonitor.status.killSwitchEngaged && protectsHeldPosition(request, excluding: orderID)
        // Only the kill switch configured: no need to build the view.
        if rules.count == 1, !_riskMonitor.status.entriesPaused {
            return _riskMonitor.status.killSwitchEngaged && !protects
                ? .denied(RiskDenial(rule: .killSwitch, detail: _riskMonitor.status.killSwitchDetail)) : .allowed
        }
        let projection = projection(for: request, id: orderID, stopDistance: stopDistance)
        let sectorLimited = config.risk.maxSectorPercentOfEquity != nil
        func firstDenial(_ quantity: Quantity) -> RiskDenial? {
            var sized = request
            sized.quantity = quantity
            var view = projection.view(for: sized, quantity: quantity, sectorLimited: sectorLimited)
            view.protectsHeldPosition = protects
            for rule in rules {
                if let denial = rule.evaluate(sized, in: view) { return denial }
            }
            return nil
        }
        guard let denial = firstDenial(request.quantity) else { return .allowed }
        let lot = max(_state.universe[request.instrument].lotSize.units, 1)
        let lots = request.quantity.units / lot
        // The largest whole number of lots below the request that passes (sizes only loosen every sizing limit).
        var low: Int64 = 0
        var high = request.quantity.units % lot == 0 ? lots - 1 : lots
        guard config.risk.scaleOrdersToFit != false, denial.rule.isSizingLimit, high >= 1 else {
            return .denied(denial)
        }
        while low < high {
            let middle = low + (high - low + 1) / 2
            if firstDenial(Quantity(units: middle * lot)) == nil { low = middle } else { high = middle - 1 }
        }
        // Not even one lot passes. When another rule than the one the full size broke first refuses one lot (settled
        // cash spent, say), that rule is the reason; else the full size's denial says it.
        guard low > 0 else {
            guard let binding = firstDenial(Quantity(units: lot)), binding.rule != denial.rule else {
                return .denied(denial)
            }
            return .denied(binding)
        }
        return .scaled(Quantity(units: low * lot), denial)
    }
}

/// The result of the pre-trade check of one order.
enum RiskOutcome {
    /// Sent as asked.
    case allowed
    /// Sent with a smaller quantity, which fits the limit the asked one broke.
    case scaled(Quantity, RiskDenial)
    /// Not sent.
    case denied(RiskDenial)
}

extension OrderRequest {
    /// The price the risk rules value this order at, given the instrument's last price (`mark`, zero when none):
    /// the mark, except that a buy which may pay more (a limit, stop or stop limit above it: a capped entry) is valued
    /// at that price, the most it can pay; without a mark, the order's own price (zero for a market order). The
    /// engine and the manual tools (`ManualRiskCheck`) value orders alike through this.
    public func riskPrice(mark: Price) -> Price {
        guard mark.units > 0 else {
            switch type {
            case let .limit(p), let .stop(p), let .stopLimit(p, _): return p
            default: return .zero
            }
        }
        guard side == .buy else { return mark }
        switch type {
        case let .limit(p), let .stop(p), let .stopLimit(_, p): return p.units > mark.units ? p : mark
        default: return mark
        }
    }
}
