import TradingModel

extension EngineCore {
    /// Carries out strategy actions; notifications they cause (denials) are delivered after, breadth-first.
    @usableFromInline
    mutating func perform(_ actions: [StrategyAction], into commands: inout [EngineCommand]) {
        guard !actions.isEmpty else { return }
        var queue = actions
        var notifications: [StrategyEvent] = []
        var rounds = 0
        while !queue.isEmpty {
            for action in queue { perform(action, into: &commands, notifications: &notifications) }
            queue = []
            rounds += 1
            // A strategy that answers every denial with a new order must not loop forever.
            guard rounds < 8 else { break }
            for event in notifications { queue += Self.dispatch(event, to: &_strategy, in: _state) }
            notifications = []
        }
    }

    private mutating func perform(
        _ action: StrategyAction, into commands: inout [EngineCommand], notifications: inout [StrategyEvent]
    ) {
        switch action {
        case let .submit(request):
            let id = _state.orders.create(request, at: _state.now)
            if let denial = check(request, stopDistance: nil, orderID: id) {
                deny(id, denial, notifications: &notifications)
                return
            }
            _state.orders.apply(.submitted, to: id, at: _state.now)
            if request.timeout != nil { recomputeDeadline() }
            if let order = _state.orders.order(id) { commands.append(.submit(order)) }
        case let .submitBracket(bracket):
            submit(bracket, into: &commands, notifications: &notifications)
        case let .cancel(clientID):
            guard let order = _state.orders.order(clientID: clientID), order.isOpen else { return }
            requestCancel(order.id, into: &commands)
        case let .cancelAll(instrument):
            for order in _state.orders.openOrders(for: instrument) { requestCancel(order.id, into: &commands) }
        case let .modify(clientID, change):
            guard let order = _state.orders.order(clientID: clientID),
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

    private mutating func submit(
        _ bracket: BracketOrder, into commands: inout [EngineCommand], notifications: inout [StrategyEvent]
    ) {
        let entry = bracket.entry
        let parentID = _state.orders.create(entry, at: _state.now)
        let reference = referencePrice(for: entry)
        let distance = bracket.stopLoss.map { Price(units: ($0.units - reference.units).magnitude.toInt64) }
        if let denial = check(entry, stopDistance: distance, orderID: parentID) {
            deny(parentID, denial, notifications: &notifications)
            return
        }
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

    /// The price used to value an order before it trades.
    func referencePrice(for request: OrderRequest) -> Price {
        let mark = _state.portfolio.marks[request.instrument.index]
        if mark.units > 0 { return mark }
        switch request.type {
        case let .limit(p), let .stop(p), let .stopLimit(p, _): return p
        default: return .zero
        }
    }

    /// Runs the risk rules; `nil` means allowed. `orderID` is the request's own (already created) order.
    func check(_ request: OrderRequest, stopDistance: Price?, orderID: OrderID? = nil) -> RiskDenial? {
        guard request.instrument.index >= 0, request.instrument.index < _state.universe.count else {
            return RiskDenial(rule: .invalidOrder, detail: "unknown instrument \(request.instrument)")
        }
        guard request.quantity.units > 0 else {
            return RiskDenial(rule: .invalidOrder, detail: "quantity must be positive")
        }
        // Only the kill switch configured: no need to build the view.
        if rules.count == 1 {
            return _riskMonitor.status.killSwitchEngaged
                ? RiskDenial(rule: .killSwitch, detail: "kill switch engaged") : nil
        }
        let view = riskView(for: request, stopDistance: stopDistance, orderID: orderID)
        for rule in rules {
            if let denial = rule.evaluate(request, in: view) { return denial }
        }
        return nil
    }

    private func riskView(for request: OrderRequest, stopDistance: Price?, orderID: OrderID?) -> RiskView {
        let portfolio = _state.portfolio
        let position = portfolio.position(for: request.instrument)
        let price = referencePrice(for: request)
        let after = position.quantity.units + request.side.sign * request.quantity.units
        var view = RiskView(
            now: _state.now, equity: portfolio.equity, position: position, referencePrice: price,
            isEntry: after.magnitude > position.quantity.units.magnitude, monitor: _riskMonitor.status)
        view.grossExposure = portfolio.grossExposure
        view.activePositionCount = portfolio.activePositionCount
        let before = position.marketValue(at: price).magnitude
        let postValue = Money(units: FixedPoint.multiply(price.units, after)).magnitude
        view.postTradePositionValue = postValue
        view.postTradeGrossExposure = config.risk.maxGrossExposureRatio == nil
            ? portfolio.grossExposure - before + postValue
            : projectedGrossExposure(for: request, id: orderID, price: price)
        view.stopDistance = stopDistance
        if config.risk.maxSectorPercentOfEquity != nil {
            let sector = _state.universe[request.instrument].sector
            var exposure = Money.zero
            for instrument in _state.universe.instruments where instrument.sector == sector {
                if instrument.id == request.instrument {
                    exposure += postValue
                } else {
                    exposure += portfolio.positionValue(for: instrument.id).magnitude
                }
            }
            view.postTradeSectorExposure = exposure
        }
        if let vol = volatilityInstrument { view.volatilityLevel = _state.lastBars[vol.index]?.close.doubleValue }
        if config.risk.requireSettledCash == true { view.settledCash = portfolio.settledCash }
        return view
    }
}
