import TWSProtocol
import TradingEngine
import TradingModel

extension LiveSessionCore {
    /// The operator's snapshot of the session (`SessionStatus`). A read: nothing changes.
    /// - Parameters:
    ///   - now: the wall clock.
    ///   - recentDenials: how many of the latest risk denials to list.
    public func status(at now: Timestamp, recentDenials: Int = 10) -> SessionStatus {
        var status = SessionStatus()
        status.time = now.description
        status.dataTime = dataTime.description
        status.account = account
        status.mode = account.isEmpty ? "" : (account.hasPrefix("DU") ? "paper" : "live")
        status.strategy = settings.strategyName
        status.phase = "\(phase)"
        status.trading = tradingStatus()
        status.connection = connectionStatus(at: now)
        let portfolio = engine.portfolio
        var money = SessionStatus.Figures()
        money.equity = portfolio.equity.doubleValue
        money.cash = portfolio.cash.doubleValue
        if portfolio.settlementDays > 0 { money.settledCash = portfolio.settledCash.doubleValue }
        money.realizedPnL = portfolio.realizedPnL.doubleValue
        money.unrealizedPnL = portfolio.unrealizedPnL.doubleValue
        money.commissions = portfolio.commissions.doubleValue
        money.grossExposure = portfolio.grossExposure.doubleValue
        let monitor = engine.riskMonitor
        if let start = monitor.dayStartEquity {
            money.dayStartEquity = start.doubleValue
            money.todayPnL = (portfolio.equity - start).doubleValue
        }
        if let peak = monitor.peakEquity, peak.units > 0 {
            money.peakEquity = peak.doubleValue
            money.drawdownPercent = max(0, (1 - portfolio.equity.doubleValue / peak.doubleValue) * 100)
        }
        if engine.hasMarginRule { money.buyingPower = (portfolio.equity - engine.initialMarginRequirement).doubleValue }
        money.currency = portfolio.conversion.accountCurrency
        if portfolio.hasForeign {
            money.balances = portfolio.balances.map { balance in
                var row = SessionStatus.Balance()
                row.currency = balance.currency
                row.cash = balance.cash.doubleValue
                row.positionsValue = balance.value.doubleValue
                row.rate = balance.rate
                return row
            }
        }
        status.money = money
        let open = engine.orders.openOrders
        let broker = positionCheck.broker
        status.brokerPositionsAt = positionCheck.brokerLookedAt?.description
        // Every symbol the bot or the broker holds: a position only the broker has (closed by hand, a lost fill) shows
        // with the bot's 0 beside it.
        for position in portfolio.positions where !position.isFlat || !(broker?[position.instrument] ?? .zero).isZero {
            let mark = portfolio.marks[position.instrument.index]
            var row = SessionStatus.Position()
            row.symbol = universe[position.instrument].symbol.description
            row.contract = statusContract(position.instrument)
            row.quantity = position.quantity.doubleValue
            row.averageCost = position.averagePrice.doubleValue
            row.price = mark.doubleValue
            let rate = portfolio.rate(for: position.instrument)
            row.marketValue = position.marketValue(at: mark).converted(at: rate).doubleValue
            row.unrealizedPnL = position.unrealizedPnL(at: mark).converted(at: rate).doubleValue
            row.realizedPnL = position.realizedPnL.converted(at: rate).doubleValue
            if portfolio.conversion.currencyIndex[position.instrument.index] != 0 {
                row.currency = CurrencyConversion.currency(of: universe[position.instrument].kind)
            }
            row.protected = Self.isCoveredByStops(position, open: open)
            if let broker {
                let theirs = broker[position.instrument] ?? .zero
                row.brokerQuantity = theirs.doubleValue
                row.agreesWithBroker = !positionCheck.alerted.contains { $0.symbol == universe[position.instrument].symbol }
                row.changedSinceBrokerLook = positionCheck.bookAtLook[position.instrument] != position.quantity
            }
            status.positions.append(row)
        }
        for (id, quantity) in positionCheck.external.sorted(by: { $0.key.index < $1.key.index }) where !quantity.isZero {
            var row = SessionStatus.ExternalPosition()
            row.symbol = universe[id].symbol.description
            row.contract = statusContract(id)
            row.quantity = quantity.doubleValue
            status.externalPositions.append(row)
        }
        for order in open {
            var row = SessionStatus.WorkingOrder()
            row.orderRef = order.clientOrderID.rawValue
            row.symbol = universe[order.instrument].symbol.description
            row.contract = statusContract(order.instrument)
            row.side = order.side.rawValue
            row.quantity = order.quantity.doubleValue
            row.filled = order.filledQuantity.doubleValue
            row.type = "\(order.type)"
            row.state = BrokerOrderStatus.name(of: order.state)  // as TWS, `order`, `orders` and `journal` name it
            row.ageSeconds = max(0, Double((dataTime - order.createdAt).nanoseconds) / 1e9)
            if let tracked = desk.book.order(order.id) {
                row.brokerOrderID = tracked.brokerOrderID
                row.permID = tracked.permID
            }
            status.orders.append(row)
        }
        status.fills = recentFills.suffix(20).reversed()
        status.risk = riskStatus(recentDenials: recentDenials)
        status.budgets = budgets
        status.counts = SessionStatus.Counts(
            bars: counts.bars, fills: counts.fills, orders: counts.commands, positionChecks: counts.positionChecks,
            halts: counts.halts)
        return status
    }

    /// An instrument's contract as the status shows it: IB's terms of the contract it trades now (`nil` for a stock).
    private func statusContract(_ id: InstrumentID) -> ContractTerms? {
        (try? desk.contracts.contract(for: id)).flatMap { ContractTerms($0).unlessStock }
    }

    private func tradingStatus() -> SessionStatus.Trading {
        var trading = SessionStatus.Trading()
        let monitor = engine.riskMonitor.status
        var reasons: [String] = []
        if operatorState.killed { reasons.append("the operator's kill switch") }
        if operatorState.paused { reasons.append("paused by the operator") }
        for pause in entryPauses.sorted(by: { "\($0)" < "\($1)" }) where pause != .operatorKill {
            reasons.append(pause.sentence)
        }
        if let gate = bookGate { reasons.append("the broker's book is not confirmed since \(gate.reason)") }
        if !positionCheck.held.isEmpty {
            let symbols = positionCheck.held.keys.sorted().map { universe[$0].symbol.rawValue }
            reasons.append("\(symbols.joined(separator: ", ")): positions differ from the broker's (no order sells more than it holds)")
        }
        if monitor.dailyLossBreached { reasons.append("daily loss limit reached (until the next day)") }
        if monitor.drawdownHalted { reasons.append("drawdown limit reached") }
        if monitor.rapidLossHalted { reasons.append("rapid loss limit reached") }
        trading.reasons = reasons
        trading.haltedSymbols = halts.sorted { $0.key < $1.key }.map { id, halt in
            "\(universe[id].symbol): \(halt.halt) since \(halt.since)"
        }
        trading.killSwitch = operatorState.killed
        trading.flattening = operatorState.flatten != nil
        trading.operatorSince = operatorState.since?.description
        if !entryPauses.isEmpty || bookGate != nil {
            trading.state = "no new orders"
        } else if monitor.dailyLossBreached || monitor.drawdownHalted || monitor.rapidLossHalted {
            trading.state = "halted"
        } else if operatorState.paused {
            trading.state = "entries paused"
        }
        return trading
    }

    private func connectionStatus(at now: Timestamp) -> SessionStatus.Connection {
        var connection = SessionStatus.Connection()
        connection.connected = connected
        connection.serverVersion = serverVersion
        connection.reconnects = counts.reconnects
        if case .interrupted(let since, _, _) = connectivity.phase {
            connection.ib = "interrupted"
            connection.ibInterruptedSince = since.description
        }
        connection.farms = farms.farms.sorted { $0.key < $1.key }.map { farm, entry in
            var row = SessionStatus.Farm()
            row.name = farm.description
            row.state = "\(entry.state)"
            row.since = entry.since.description
            return row
        }
        connection.history = connectionHistory.reversed()
        if let heard = heartbeat.lastHeard { connection.lastHeardSecondsAgo = Double((now - heard).nanoseconds) / 1e9 }
        if let trip = heartbeat.roundTrip {
            connection.roundTripMilliseconds = Double(trip.span.nanoseconds) / 1e6
            connection.roundTripAt = trip.at.description
        }
        connection.gatewayDesupport = connectivity.desupport.status(at: now)
        connection.gatewayDesupportDaysLeft = connectivity.desupport.daysLeft(at: now)
        if let schedule = settings.resilience.resetSchedule {
            connection.nextNightlyReset = schedule.nextDailyStart(after: now)?.description
            connection.nextWeeklyLogon = schedule.nextWholeDay(after: now)?.description
        }
        let requested: String = switch settings.marketDataType ?? .live {
        case .live: "live"
        case .frozen: "frozen"
        case .delayed: "delayed"
        case .delayedFrozen: "delayed frozen"
        }
        connection.marketData = ids.map { id in
            let type =
                feedWatch.silences[id.index] != nil
                ? "silent" : quoteFeed == nil ? "bars only" : delayedQuotes.contains(id) ? "delayed" : requested
            return SessionStatus.MarketDataLine(symbol: universe[id].symbol.description, type: type)
        }
        return connection
    }

    /// The core's share of IB's budgets: the lines it holds open.
    private var budgets: SessionStatus.Budgets {
        var budgets = SessionStatus.Budgets()
        budgets.marketDataLines = quoteFeed == nil ? 0 : ids.count
        budgets.realTimeBarStreams = barFeed == nil ? 0 : ids.count
        return budgets
    }

    private func riskStatus(recentDenials: Int) -> SessionStatus.Risk {
        var risk = SessionStatus.Risk()
        let config = engine.config.risk
        let portfolio = engine.portfolio
        let equity = portfolio.equity.doubleValue
        func limit(_ name: String, _ value: Double?, used: Double?, _ unit: String, fullIsNormal: Bool? = nil) {
            guard let value else { return }
            var row = SessionStatus.Limit(name: name, limit: value, used: used, unit: unit)
            row.fullIsNormal = fullIsNormal
            risk.limits.append(row)
        }
        let largest = portfolio.positions.indices.map { portfolio.positionValue(for: InstrumentID(index: $0)) }
            .map { $0.doubleValue.magnitude }.max() ?? 0
        // A rotation holds exactly its number of holdings: full is the plan (issue 83: a red bar all demo long).
        limit(
            "maxActivePositions", config.maxActivePositions.map(Double.init), used: Double(portfolio.activePositionCount),
            "positions", fullIsNormal: true)
        limit("maxPositionValue", config.maxPositionValue?.doubleValue, used: largest, "")
        limit(
            "maxPositionPercentOfEquity", config.maxPositionPercentOfEquity,
            used: equity > 0 ? largest / equity * 100 : nil, "%")
        limit(
            "maxGrossExposureRatio", config.maxGrossExposureRatio,
            used: equity > 0 ? portfolio.grossExposure.doubleValue / equity : nil, "× equity")
        let monitor = engine.riskMonitor
        let today = monitor.dayStartEquity.map { start in
            start.units > 0 ? max(0, (1 - equity / start.doubleValue) * 100) : 0
        }
        limit("maxDailyLossPercent", config.maxDailyLossPercent, used: today, "%")
        let drawdown = monitor.peakEquity.map { peak in
            peak.units > 0 ? max(0, (1 - equity / peak.doubleValue) * 100) : 0
        }
        limit("maxDrawdownPercent", config.maxDrawdownPercent, used: drawdown, "%")
        limit("maxSectorPercentOfEquity", config.maxSectorPercentOfEquity, used: nil, "%")
        limit("maxRiskPerTradePercent", config.maxRiskPerTradePercent, used: nil, "%")
        if monitor.status.dailyLossBreached { risk.halts.append("daily loss") }
        if monitor.status.drawdownHalted { risk.halts.append("drawdown") }
        if monitor.status.rapidLossHalted { risk.halts.append("rapid loss") }
        // The warm-up's denials (the engine's kill switch holds the strategy back until it trades) are not the run's.
        let live = engine.denials.dropFirst(counts.denialsAtStart)
        risk.denials = live.count
        for record in live { risk.denialsByRule[record.denial.rule.rawValue, default: 0] += 1 }
        for record in live.suffix(recentDenials).reversed() {
            risk.recentDenials.append(
                SessionStatus.Denial(
                    time: record.time.description, symbol: universe[record.instrument].symbol.description,
                    rule: record.denial.rule.rawValue, detail: record.denial.detail))
        }
        // Orders the broker cut at the fill for buying power (the latest 500 orders looked at), latest first.
        let cut = engine.orders.orders.suffix(500).reversed().filter(\.wasCutForBuyingPower)
        for order in cut.prefix(recentDenials) {
            risk.recentDenials.append(SessionStatus.Denial(
                time: order.updatedAt.description, symbol: universe[order.instrument].symbol.description,
                rule: "buyingPowerAtFill",
                detail: "\(order.filledQuantity) of \(order.quantity) filled: \(order.reason ?? "insufficient buying power")"))
        }
        return risk
    }
}

extension LiveSessionCore {
    /// Keeps the latest 50 fills for the operator; a fill whose commission has not come yet says so.
    mutating func rememberFill(_ fill: Fill) {
        var row = SessionStatus.Fill()
        row.time = fill.timestamp.description
        row.symbol = universe[fill.instrument].symbol.description
        row.contract = statusContract(fill.instrument)
        row.side = fill.side.rawValue
        row.quantity = fill.quantity.doubleValue
        row.price = fill.price.doubleValue
        row.orderRef = engine.orders.order(fill.orderID)?.clientOrderID.rawValue ?? ""
        row.orderID = fill.orderID.rawValue
        if fill.commission == .zero { row.commissionPending = true } else { row.commission = fill.commission.doubleValue }
        recentFills.append(row)
        if recentFills.count > 50 { recentFills.removeFirst(recentFills.count - 50) }
    }

    /// A commission that came after its fill: the order's oldest fill still waiting for one gets it.
    mutating func rememberLateCommission(_ commission: Money, orderID: OrderID) {
        guard let index = recentFills.firstIndex(where: { $0.orderID == orderID.rawValue && $0.commissionPending }) else { return }
        recentFills[index].commissionPending = false
        recentFills[index].commission = commission.doubleValue
    }

    /// Keeps the latest 20 connection events (the socket, IB's 1100 / 1101 / 1102) for the operator.
    mutating func rememberConnection(_ event: String, at now: Timestamp) {
        connectionHistory.append(SessionStatus.ConnectionEvent(time: now.description, event: event))
        if connectionHistory.count > 20 { connectionHistory.removeFirst(connectionHistory.count - 20) }
    }
}

extension EntryPause {
    /// Why new orders are held back, for the operator.
    var sentence: String {
        switch self {
        case .connectivity: "connection to IB lost beyond the grace period"
        case .backfill: "replaying bars missed during an outage"
        case .journal: "the journal failed a write (resume once it works again)"
        case .positionMismatch: "positions differ from the broker's"
        case .operatorKill: "the operator's kill switch"
        }
    }
}

extension OrderType {
    /// A stop of some kind (stop, stop-limit, trailing): what protects a position.
    var isStop: Bool {
        switch self {
        case .stop, .stopLimit, .trailingAmount, .trailingPercent, .trailingLimit: true
        default: false
        }
    }
}

extension Order {
    /// The broker cut it at the fill for buying power: cancelled, with IB's text as its reason (or, without the
    /// note, the bare reason `buyingPower`).
    var wasCutForBuyingPower: Bool {
        state == .canceled
            && (reason == CancelReason.buyingPower.rawValue || reason?.contains("insufficient buying power") == true)
    }
}
