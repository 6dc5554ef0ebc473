import Foundation
import JournalModel
import LiveSession
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// What `ibtrader modify` did.
public struct ManualModifyResult: Sendable, Hashable {
    /// The account used.
    public var account: String
    /// TWS's order id.
    public var orderID: Int
    /// The order's orderRef.
    public var orderRef: String
    /// The symbol.
    public var symbol: String
    /// The terms before (`BUY 10 LMT 150.25`).
    public var before: String
    /// The terms asked for.
    public var after: String
    /// The outcome: acknowledged (TWS echoed the new terms), rejected (the order keeps its old terms), denied by a
    /// risk rule (nothing sent), or no answer in time.
    public var outcome: ManualOrderOutcome

    /// `true` when TWS acknowledged the new terms.
    public var succeeded: Bool { outcome == .acknowledged }
}

extension ManualTrading {
    /// Modifies a working order of this client: placeOrder again with the same order id and the changed terms, as
    /// the bot's order desk modifies (`OrderMapping.modified`).
    ///
    /// Order of work: account rule (a live account needs confirmation) → the order at the broker (reqAllOpenOrders;
    /// only the client that placed it can modify it) → the change checked against its type → the engine's risk rules
    /// on the order as modified, exactly as `placeOrder` checks a new order (denial: journaled as a `risk-denial`
    /// event, nothing sent) → journal: a note with the old and new terms and, for a journaled orderRef, a
    /// `pendingReplace` status, before anything is sent → placeOrder with the same id → wait until TWS echoes the new
    /// terms (openOrder) or refuses (errMsg for the id; the order then keeps its old terms) → the outcome journaled.
    /// - Parameters:
    ///   - orderID: TWS's order id (of this connection's client id).
    ///   - modification: the validated change.
    ///   - context: the connection, its session, and the settings.
    /// - Returns: the result (denials and rejections are results).
    /// - Throws: `ManualTradingError` for the account rule, an order not found or of another client, a change that
    ///   does not fit the order, I/O.
    public static func modifyOrder(
        _ orderID: Int, modification: ManualModification,
        on context: (connection: TWSConnection, info: TWSSessionInfo, settings: ManualSettings)
    ) async throws(ManualTradingError) -> ManualModifyResult {
        let (connection, settings) = (context.connection, context.settings)
        let account = try account(context.info, settings: settings)
        let open = try await ownOpenOrder(orderID, on: connection, account: account)
        let current: (side: Side, type: OrderType, quantity: Quantity, timeInForce: TimeInForce)
        do throws(IBMappingError) {
            current = (
                try OrderMapping.side(ofAction: open.order.action), try OrderMapping.orderType(of: open.order),
                try WireNumbers.quantity(open.order.totalQuantity, field: "totalQuantity"),
                try OrderMapping.timeInForce(ofWire: open.order.timeInForce)
            )
        } catch {
            throw .notModifiable("order \(orderID): \(error)")
        }
        let change: OrderModification
        let terms: TWSOrder
        do throws(ManualOrderError) {
            change = try modification.change(of: current.type, quantity: current.quantity)
        } catch {
            throw .notModifiable("order \(orderID): \(error.description)")
        }
        do throws(IBMappingError) { terms = try OrderMapping.modified(open.order, with: change) } catch {
            throw .notModifiable("order \(orderID): \(error)")
        }
        if let type = change.type {
            let details = try await qualifiedDetails(Symbol(open.contract.symbol), on: connection)
            try checkTick([type], symbol: open.contract.symbol, ticks: await contractTicks(details, on: connection))
        }
        let ticket = ManualOrderTicket(
            symbol: Symbol(open.contract.symbol),
            request: OrderRequest(
                instrument: InstrumentID(index: 0), side: current.side, quantity: change.quantity ?? current.quantity,
                type: change.type ?? current.type, timeInForce: current.timeInForce))
        let orderRef = open.order.orderRef
        var result = ManualModifyResult(
            account: account, orderID: orderID, orderRef: orderRef, symbol: open.contract.symbol,
            before: describe(current.side, current.quantity, current.type),
            after: describe(ticket.side, ticket.quantity, ticket.type), outcome: .acknowledged)
        let what = "modify of order \(orderID) \(orderRef): \(result.before) → \(result.after)"
        // The order as modified is checked as `order` would check it as a new order: conservative for a partly
        // filled order (its whole quantity counts), and exits are never blocked by value limits.
        let state = try await accountState(
            ticket, account: account, contract: open.contract, on: connection, settings: settings,
            replacing: open.order.permID)
        if let denial = ManualRiskCheck.denial(
            ticket, config: settings.risk, account: state.account, referencePrice: state.price, at: settings.clock(),
            commissionReserve: settings.commissionReserve)
        {
            try note(.riskDenial, "\(what): \(denial)", settings: settings)
            result.outcome = .denied(denial)
            return result
        }
        // Journaled before it is sent, like an intent.
        try note(.note, "manual \(what)" + (modification.reason.map { ": \($0)" } ?? ""), settings: settings)
        try recordModify(orderRef, orderID: orderID, state: .pendingReplace, message: "modify: \(result.after)", settings)
        let events = await connection.orderEvents()
        do { try await connection.modifyOrder(id: orderID, order: terms, contract: open.contract) } catch {
            throw .request("\(error)")
        }
        result.outcome = await acknowledgement(orderID, terms: terms, events: events, timeout: settings.timeout)
        switch result.outcome {
        case .acknowledged:
            try recordModify(orderRef, orderID: orderID, state: .accepted, message: "modified: \(result.after)", settings)
            try recordTerms(orderRef, change, reason: modification.reason, settings)
        case .rejected(let text):
            try note(.note, "\(what) rejected: \(text)", settings: settings)
            try recordModify(
                orderRef, orderID: orderID, state: .accepted, message: "modify rejected (old terms stay): \(text)", settings)
        case .timedOut:
            try note(.note, "\(what): no acknowledgement in time", settings: settings)
        case .denied:
            break
        }
        return result
    }

    /// This client's open order with `orderID`: order ids are per client, and only the placing client may modify.
    private static func ownOpenOrder(
        _ orderID: Int, on connection: TWSConnection, account: String
    ) async throws(ManualTradingError) -> TWSOpenOrder {
        let open: [TWSOpenOrder]
        do {
            open = try await connection.allOpenOrders().filter {
                $0.order.orderID == orderID && ($0.order.account.isEmpty || $0.order.account == account)
            }
        } catch {
            throw .request("\(error)")
        }
        let clientID = await connection.configuration.clientID
        guard let order = open.first(where: { $0.order.clientID == clientID }) ?? open.first else {
            throw .orderNotFound("with order id \(orderID)")
        }
        guard order.order.clientID == clientID else {
            throw .otherClientModify(orderID: orderID, clientID: order.order.clientID)
        }
        return order
    }

    /// Reads the order events until TWS echoes `terms` for the order (openOrder), refuses the change (a terminal
    /// errMsg for the id), or time is up.
    private static func acknowledgement(
        _ orderID: Int, terms: TWSOrder, events: AsyncThrowingStream<TWSOrderEvent, any Error>, timeout: Duration
    ) async -> ManualOrderOutcome {
        await firstAnswer(within: timeout, else: ManualOrderOutcome.timedOut) {
            do {
                for try await event in events {
                    switch event {
                    case .openOrder(let open) where open.order.orderID == orderID && sameTerms(open.order, terms):
                        return .acknowledged
                    case .notice(let notice) where notice.requestID == orderID && notice.disposition == .terminal:
                        return .rejected("\(notice.code) \(notice.message)")
                    default: continue
                    }
                }
            } catch {}
            return .timedOut
        }
    }

    /// The terms a modify changes (the book's test for a confirmed modification).
    static func sameTerms(_ a: TWSOrder, _ b: TWSOrder) -> Bool {
        a.totalQuantity == b.totalQuantity && a.limitPrice == b.limitPrice && a.auxPrice == b.auxPrice
            && a.trailingPercent == b.trailingPercent
    }

    /// `BUY 10 LMT 150.25`.
    static func describe(_ side: Side, _ quantity: Quantity, _ type: OrderType) -> String {
        "\(side == .buy ? "BUY" : "SELL") \(quantity) \(ManualOrderLeg.text(of: type))"
    }

    /// The acknowledged terms into a journaled intent, with its count of modifications (a restart then follows the
    /// order as it works now). Unknown refs: nothing.
    private static func recordTerms(
        _ orderRef: String, _ change: OrderModification, reason: String?, _ settings: ManualSettings
    ) throws(ManualTradingError) {
        guard let journal = settings.journal, !orderRef.isEmpty else { return }
        do {
            let ref = ClientOrderID(orderRef)
            guard try journal.order(ref) != nil else { return }
            try journal.recordModification(
                JournalModification(
                    orderRef: ref, type: change.type, quantity: change.quantity, reason: reason, time: settings.clock()))
        } catch {
            throw .journal("\(error)")
        }
    }

    /// A status row for a journaled orderRef (the change stays in the order's history). Unknown refs: nothing.
    private static func recordModify(
        _ orderRef: String, orderID: Int, state: OrderState, message: String, _ settings: ManualSettings
    ) throws(ManualTradingError) {
        guard let journal = settings.journal, !orderRef.isEmpty else { return }
        do {
            let ref = ClientOrderID(orderRef)
            guard try journal.order(ref) != nil else { return }
            var update = JournalStatusUpdate(orderRef: ref, state: state, time: settings.clock())
            update.brokerOrderID = Int64(orderID)
            update.message = message
            try journal.recordStatus(update)
        } catch {
            throw .journal("\(error)")
        }
    }
}
