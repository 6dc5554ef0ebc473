import Foundation
import Simulation
import TWSProtocol
import TradingModel

extension GatewayState {
    /// Turns engine reports into TWS messages: fills become execDetails → orderStatus → openOrder (when complete)
    /// → commissionReport, then position and portfolio updates.
    /// - Parameter cuts: the fills buying power cut or refused in this matching call (`FundsCut`): the order ends
    ///   with IB's 201 "insufficient buying power" and a Cancelled status with what filled; a bracket parent's
    ///   children, resized to it, say their new size.
    mutating func process(_ reports: [ExecutionReport], cuts: [FundsCut] = []) -> [GatewayAction] {
        var out: [GatewayAction] = []
        for report in reports {
            guard let key = engineOrders[report.orderID], orders[key] != nil else { continue }
            switch report {
            case .accepted, .replaced, .modifyRejected:
                break
            case .rejected(_, let reason, _):
                out += sendToClient(key.clientID, .error(TWSErrorMessage(
                    requestID: key.orderID, code: 201, message: TWSErrorText.rejected(reason))))
                out += finish(key, status: "Cancelled", notice: false)
            case .filled(let fill):
                out += executeInParts(fill, key: key)
            case .canceled(let id, .buyingPower, _):
                guard let cut = cuts.first(where: { $0.orderID == id }) else {
                    out += finish(key, status: "Cancelled", notice: false)
                    continue
                }
                out += fundsCut(cut, key: key)
            case .canceled(_, let reason, _):
                out += finish(key, status: "Cancelled", notice: reason == .requested)
            case .expired:
                out += finish(key, status: "Cancelled", notice: false)
            }
        }
        return out
    }

    /// An order whose fill buying power cut or refused: IB's 201 with the account's name (the reason the recorded
    /// `advancedOrderRejectJson` gives, `INSUFFICIENT_BUYING_POWER`), then Cancelled with what filled; its resized
    /// children are sent again with their new size.
    mutating func fundsCut(_ cut: FundsCut, key: OrderKey) -> [GatewayAction] {
        guard let entry = orders[key] else { return [] }
        var out = sendToClient(key.clientID, .error(TWSErrorMessage(
            requestID: key.orderID, code: 201,
            message: TWSErrorText.rejected("The account \(entry.account) has insufficient buying power."),
            advancedOrderRejectJSON: "{\"rejectReason\":\"INSUFFICIENT_BUYING_POWER\",\"account\":\"\(entry.account)\"}")))
        out += finish(key, status: "Cancelled", notice: false)
        for (childID, quantity) in cut.resizedChildren {
            guard let childKey = engineOrders[childID], var child = orders[childKey] else { continue }
            child.quantity = quantity
            child.wire.totalQuantity = quantity.decimal
            orders[childKey] = child
            out += sendToClient(childKey.clientID, child.openOrder())
            out += sendToClient(childKey.clientID, child.orderStatus())
        }
        return out
    }

    mutating func execute(_ fill: Fill, key: OrderKey) -> [GatewayAction] {
        guard var entry = orders[key] else { return [] }
        let instrument = data.instrument(entry.instrument)
        let realized = accounts[bookIndex(entry.account)].apply(fill, kind: instrument.kind)
        entry.filled += fill.quantity
        entry.notional += fill.quantity.doubleValue * fill.price.doubleValue
        entry.lastFillPrice = fill.price.doubleValue
        let complete = entry.filled >= entry.quantity
        let wasPreSubmitted = entry.status == "PreSubmitted"
        entry.status = complete ? "Filled" : "Submitted"
        if complete { entry.completedAt = fill.timestamp }
        orders[key] = entry
        var out: [GatewayAction] = []
        if wasPreSubmitted, !complete {
            out += sendToClient(key.clientID, entry.openOrder())
        }
        var execution = TWSExecution(
            executionID: String(format: "%08x.%08x.%02x.01", executionPrefix, nextExecution, incarnation))
        nextExecution += 1
        execution.orderID = key.orderID
        execution.clientID = key.clientID
        execution.time = configuration.loginZone.text(fill.timestamp)
        execution.accountNumber = entry.account
        execution.exchange = instrument.executionExchange
        execution.side = fill.side == .buy ? "BOT" : "SLD"
        execution.shares = fill.quantity.decimal
        execution.price = fill.price.doubleValue
        execution.permID = entry.permID
        execution.cumulativeQuantity = entry.filled.decimal
        execution.averagePrice = entry.averagePrice
        execution.orderRef = entry.wire.orderRef
        execution.lastLiquidity = 2
        let commission = TWSCommissionReport(
            executionID: execution.executionID, commission: fill.commission.doubleValue, currency: "USD",
            realizedPNL: realized)
        executions.append(ExecutionRecord(
            clientID: key.clientID, instrument: entry.instrument, time: fill.timestamp, contract: entry.contract,
            execution: execution, commission: commission))
        let details = TWSResponse.executionDetails(requestID: -1, contract: entry.contract, execution: execution)
        out += sendToClient(key.clientID, details)
        if pendingFaults.duplicateNextExecution {
            pendingFaults.duplicateNextExecution = false
            out += sendToClient(key.clientID, details)
        }
        out += sendToClient(key.clientID, entry.orderStatus())
        if complete { out += sendToClient(key.clientID, entry.openOrder()) }
        out += sendToClient(key.clientID, .commissionReport(commission))
        if complete { out += childrenActivated(parent: key) }
        out += positionChanged(entry.instrument, account: entry.account)
        return out
    }

    /// A filled bracket parent activates its children: non-stop children go from PreSubmitted to Submitted.
    mutating func childrenActivated(parent: OrderKey) -> [GatewayAction] {
        var out: [GatewayAction] = []
        let children = orders.values.filter {
            $0.key.clientID == parent.clientID && $0.wire.parentID == parent.orderID && !$0.isTerminal && !$0.isHeld
                && $0.status == "PreSubmitted" && !$0.isStopLike
        }
        for var child in children.sorted(by: { $0.key.orderID < $1.key.orderID }) {
            child.status = "Submitted"
            orders[child.key] = child
            out += sendToClient(child.key.clientID, child.openOrder())
            out += sendToClient(child.key.clientID, child.orderStatus())
        }
        return out
    }

    /// position and updatePortfolio/updateAccountValue (of `code`'s account) to the clients subscribed to them.
    mutating func positionChanged(_ id: InstrumentID, account code: String) -> [GatewayAction] {
        var out: [GatewayAction] = []
        let instrument = data.instrument(id)
        let holding = accounts[bookIndex(code)].holdings[id]
        for session in sessions.values.sorted(by: { $0.connection < $1.connection }) {
            if session.positions {
                out.append(.send(session.connection, positionMessage(instrument, holding, account: code)))
            }
            if session.accountUpdates == code {
                out.append(.send(session.connection, portfolioMessage(instrument, account: code)))
                out += accountValues(to: session.connection, account: code)
            }
            // TWS refreshes summaries every 3 minutes; the simulator does it at once so the values match the fills.
            for (requestID, tags) in session.accountSummaries.sorted(by: { $0.key < $1.key }) {
                out += accountSummary(requestID: requestID, tags: tags, connection: session.connection)
            }
        }
        return out
    }

    func positionMessage(
        _ instrument: SimulatedInstrument, _ holding: AccountBook.Holding?, account code: String
    ) -> TWSResponse {
        var contract = qualifiedContract(instrument)
        if case .stock = instrument.kind { contract.exchange = instrument.primaryExchange }
        // IB's average cost of a future is per contract: the price times the multiplier.
        return .position(account: code, contract: contract, position: (holding?.quantity ?? .zero).decimal,
                         averageCost: (holding?.averageCost ?? 0) * instrument.multiplier)
    }

    func portfolioMessage(_ instrument: SimulatedInstrument, account code: String) -> TWSResponse {
        let holding = accounts[bookIndex(code)].holdings[instrument.id]
        let q = holding?.quantity.doubleValue ?? 0
        let mark = QuoteModel.top(instrument, at: now)?.last.doubleValue ?? 0
        let multiplier = instrument.multiplier
        var contract = qualifiedContract(instrument)
        contract.exchange = ""
        return .portfolioValue(TWSPortfolioValue(
            contract: contract, position: (holding?.quantity ?? .zero).decimal, marketPrice: mark,
            marketValue: q * mark * multiplier, averageCost: (holding?.averageCost ?? 0) * multiplier,
            unrealizedPNL: q * (mark - (holding?.averageCost ?? 0)) * multiplier, realizedPNL: holding?.realized ?? 0,
            accountName: code))
    }

    func accountValues(to connection: ConnectionID, account code: String) -> [GatewayAction] {
        let book = accounts[bookIndex(code)]
        let valuation = book.valuation(marks: marks(), rates: baseRates())
        var out: [GatewayAction] = [.send(connection, .accountValue(
            key: "AccountCode", value: code, currency: "", accountName: code))]
        for (tag, value) in valuation.tagValues {
            out.append(.send(connection, .accountValue(
                key: tag, value: String(format: "%.2f", value), currency: book.baseCurrency, accountName: code)))
        }
        out.append(.send(connection, .accountValue(
            key: "Currency", value: book.baseCurrency, currency: book.baseCurrency, accountName: code)))
        return out
    }
}
