import TradingModel

extension EngineCore {
    /// Applies a broker/simulator report to orders and portfolio, then tells the strategy.
    @usableFromInline
    mutating func handleReport(_ report: ExecutionReport) -> [EngineCommand] {
        var commands: [EngineCommand] = []
        handleReport(report, into: &commands)
        return commands
    }

    /// Applies a report, appending the commands the strategy's reaction causes.
    @usableFromInline
    mutating func handleReport(_ report: ExecutionReport, into commands: inout [EngineCommand]) {
        let id = report.orderID
        let event: StrategyEvent?
        switch report {
        case let .accepted(_, time):
            event = transition(id, .accepted, at: time)
        case let .rejected(_, reason, time):
            event = transition(id, .rejected(reason: reason), at: time)
            for child in _state.orders.openChildren(of: id) {
                _state.orders.apply(.canceled(reason: .parentCanceled), to: child.id, at: time)
            }
        case let .filled(fill):
            guard _state.orders.record(fill), let clientID = _state.orders.clientOrderID(of: fill.orderID) else {
                return
            }
            _state.portfolio.apply(fill)
            if monitorsEquity { _riskMonitor.observe(equity: _state.portfolio.equity, at: fill.timestamp) }
            // A roll's exits go to the new month before the strategy hears of the fill (it sees them working).
            if !pendingRolls.isEmpty { rollLegChanged(fill.orderID, into: &commands) }
            event = .filled(fill, clientID)
        case let .canceled(_, reason, time):
            pendingModifications[id] = nil
            if reason == .buyingPower, let filled = _state.orders.order(id)?.filledQuantity, !filled.isZero {
                // Cut at the fill: the protective children now cover what was bought (the matching engine resized them).
                for child in _state.orders.openChildren(of: id) { _state.orders.shrink(child.id, to: filled) }
            }
            event = transition(id, .canceled(reason: reason), at: time)
        case let .expired(_, time):
            event = transition(id, .expired, at: time)
        case let .replaced(_, time):
            if let change = pendingModifications.removeValue(forKey: id) {
                _state.orders.applyModification(change, to: id)
            }
            event = transition(id, .replaced, at: time)
        case let .modifyRejected(_, _, time):
            let inFlight = _state.orders.order(id)?.state
            if inFlight == .pendingReplace {
                pendingModifications[id] = nil
                event = transition(id, .replaceRejected, at: time)
            } else if inFlight == .pendingCancel {
                event = transition(id, .cancelRejected, at: time)
            } else {
                event = nil
            }
        }
        if !pendingRolls.isEmpty {
            switch report {
            case .rejected, .canceled, .expired: rollLegChanged(id, into: &commands)
            default: break
            }
        }
        if let event { dispatch(event, into: &commands) }
    }

    /// Applies a lifecycle event; returns the strategy notification when it took effect.
    private mutating func transition(_ id: OrderID, _ event: OrderEvent, at time: Timestamp) -> StrategyEvent? {
        guard _state.orders.apply(event, to: id, at: time), let clientID = _state.orders.clientOrderID(of: id) else {
            return nil
        }
        return .orderUpdated(clientID, event)
    }
}
