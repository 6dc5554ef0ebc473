import Foundation
import TWSProtocol
import TradingModel

extension GatewayState {
    /// Moves the replay clock forward in 5-second steps (one step when the jump is longer than 7 days), matching
    /// working orders at every step, emitting real-time bars at each 5-second boundary and, at the end, the ticks,
    /// keepUpToDate bars and P&L that changed.
    /// - Parameter target: the new time; ignored when not after `now`.
    /// - Returns: the messages to send.
    public mutating func advance(to target: Timestamp) -> [GatewayAction] {
        guard target > now else { return [] }
        var out: [GatewayAction] = []
        let step = QuoteModel.interval.nanoseconds
        if target - now > .days(7) {
            now = target
            out += matchAll()
        } else {
            while now < target {
                let boundary = (now.nanoseconds / step + 1) * step
                now = Timestamp(nanoseconds: min(boundary, target.nanoseconds))
                out += matchAll()
                if now.nanoseconds % step == 0 { out += emitRealTimeBars() }
            }
        }
        if now.dayNumber != account.startOfDay {
            out += settleExpiredFutures()
            let (marks, rates) = (marks(), baseRates())
            for index in accounts.indices {
                accounts[index].startOfDay = now.dayNumber
                accounts[index].startOfDayValue = accounts[index].valuation(marks: marks, rates: rates).netLiquidation
            }
        }
        out += releasingLocatedOrders()
        out += emitTicks()
        let period = now.nanoseconds / TimeSpan.minutes(3).nanoseconds
        if period != accountRefreshPeriod {
            accountRefreshPeriod = period
            out += refreshAccounts()
        }
        // Order messages held back by a late-* fault go out after this step's own (lost, like every live message,
        // while connectivity is lost).
        let late = releasingLateMessages()
        return applyingMessageFaults(withholdingLiveMessages(out)) + withholdingLiveMessages(late)
    }

    /// Like TWS every 3 minutes: account values, portfolio (at current prices) and account time to
    /// reqAccountUpdates subscribers, and the subscribed account summaries.
    func refreshAccounts() -> [GatewayAction] {
        var out: [GatewayAction] = []
        for session in sessions.values.sorted(by: { $0.connection < $1.connection }) {
            if let code = session.accountUpdates {
                out += accountValues(to: session.connection, account: code)
                for (id, holding) in accounts[bookIndex(code)].holdings.sorted(by: { $0.key < $1.key })
                where !holding.quantity.isZero {
                    out.append(.send(session.connection, portfolioMessage(data.instrument(id), account: code)))
                }
                out.append(.send(session.connection, accountTimeMessage()))
            }
            for (requestID, tags) in session.accountSummaries.sorted(by: { $0.key < $1.key }) {
                out += accountSummary(requestID: requestID, tags: tags, connection: session.connection)
            }
        }
        return out
    }

    mutating func matchAll() -> [GatewayAction] {
        guard engine.hasWorkingOrders else { return [] }
        var ids = Set<InstrumentID>()
        for key in engine.workingOrderIDs.compactMap({ engineOrders[$0] }) {
            if let o = orders[key] { ids.insert(o.instrument) }
        }
        var out: [GatewayAction] = []
        for id in ids.sorted() { out += matchNow(id) }
        return out
    }

    mutating func emitRealTimeBars() -> [GatewayAction] {
        var out: [GatewayAction] = []
        for session in sessions.values.sorted(by: { $0.connection < $1.connection }) {
            for (requestID, sub) in session.realTimeBars.sorted(by: { $0.key < $1.key }) where !sub.silent {
                if let bar = realTimeBar(sub, end: now) {
                    out.append(.send(session.connection, .realTimeBar(requestID: requestID, bar: bar)))
                }
            }
        }
        return out
    }

    mutating func emitTicks() -> [GatewayAction] {
        var out: [GatewayAction] = []
        for connection in sessions.keys.sorted() {
            guard var session = sessions[connection] else { continue }
            for requestID in session.marketLines.keys.sorted() {
                guard var line = session.marketLines[requestID],
                    let quote = QuoteModel.quote(data.instrument(line.instrument), at: now, day: &line.day)
                else { continue }
                let trades = data.instrument(line.instrument).hasTrades
                for r in Self.ticks(requestID: requestID, quote: quote, line: line, trades: trades) {
                    out.append(.send(connection, r))
                }
                line.last = quote
                session.marketLines[requestID] = line
            }
            for requestID in session.historyUpdates.keys.sorted() {
                guard var sub = session.historyUpdates[requestID],
                    let bar = sub.query.currentBar(for: data.instrument(sub.instrument), now: now), bar != sub.lastSent
                else { continue }
                out.append(.send(connection, .historicalDataUpdate(requestID: requestID, bar: bar)))
                sub.lastSent = bar
                session.historyUpdates[requestID] = sub
            }
            for (requestID, code) in session.pnl.sorted(by: { $0.key < $1.key }) {
                out.append(.send(connection, pnlMessage(requestID: requestID, account: code)))
            }
            for (requestID, line) in session.pnlSingle.sorted(by: { $0.key < $1.key }) {
                out.append(.send(connection, pnlSingleMessage(
                    requestID: requestID, instrument: data.instrument(line.instrument), account: line.account)))
            }
            sessions[connection] = session
        }
        return out
    }

    // MARK: - Connectivity faults

    /// 1100 to every client, as when TWS loses its connection to IB; live messages are withheld until restored.
    public mutating func connectivityLost() -> [GatewayAction] {
        if !isConnectivityLost { connectivityLostSince = now }
        isConnectivityLost = true
        return broadcast(1100, "Connectivity between IB and Trader Workstation has been lost.")
    }

    /// 1101 (data lost: market data lines are dropped) or 1102 (data maintained) to every client.
    public mutating func connectivityRestored(dataLost: Bool) -> [GatewayAction] {
        isConnectivityLost = false
        connectivityLostSince = nil
        if dataLost {
            for connection in sessions.keys { sessions[connection]?.marketLines.removeAll() }
            return broadcast(1101, "Connectivity between IB and Trader Workstation has been restored - data lost.")
        }
        return broadcast(1102, "Connectivity between IB and Trader Workstation has been restored - data maintained.")
    }

    /// A farm status message (2103 broken, 2104 OK, 2105 HMDS broken, 2106 HMDS OK) to every client.
    public func farmStatus(code: Int) -> [GatewayAction] {
        let text: String
        switch code {
        case 2103: text = "Market data farm connection is broken:usfarm"
        case 2105: text = "HMDS data farm connection is broken:ushmds"
        case 2106: text = "HMDS data farm connection is OK:ushmds"
        default: text = "Market data farm connection is OK:usfarm"
        }
        return broadcast(code, text)
    }

    func broadcast(_ code: Int, _ text: String) -> [GatewayAction] {
        sessions.keys.sorted().map { .send($0, .error(TWSErrorMessage(requestID: -1, code: code, message: text))) }
    }
}
