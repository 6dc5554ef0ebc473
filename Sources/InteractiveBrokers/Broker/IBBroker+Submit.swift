import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

// The order path without suspension: an engine command carried out on the connection's actor, from the intent's
// journal write to the frames handed to the socket. The runner's synchronous bar path calls it within the bar that
// caused the order; `execute` calls it with one hop onto the current connection (docs/live-trading.md, Latency).
extension IBBroker {
    /// A group of orders handed to the connection (a single order or a bracket): what `noteSent` marks as sent.
    struct SentGroup: Sendable {
        var orders: [Order]
        var intents: [JournaledIntent]
    }

    /// Carries out an engine command on `connection`'s actor, without suspending.
    /// - Parameters:
    ///   - command: the command.
    ///   - connection: the connection the broker uses now (the caller is on its actor).
    /// - Returns: the group handed to the connection, for a submit (mark it with `noteSent` once it left);
    ///   `nil` for a cancel or modify.
    /// - Throws: `IBBrokerError`; a submit that fails also produces `rejected` reports so the engine does not wait.
    func executeNow(
        _ command: EngineCommand, on connection: isolated TWSConnection
    ) throws(IBBrokerError) -> SentGroup? {
        if let (orders, denial) = efficiencyDenial(for: command, at: clock()) {
            reject(orders, reason: denial)
            throw .orderEfficiency(denial)
        }
        defer { recordEfficiency(command, at: clock()) }
        switch command {
        case .submit(let order):
            return try submitNow([order], parentIndex: nil, options: configuration.orderOptions, on: connection)
        case .submitBracket(let parent, let children):
            return try submitNow(
                [parent] + children, parentIndex: 0, options: configuration.orderOptions, on: connection)
        case .cancel(let id):
            guard let tracked = book.order(id) else { throw .unknownOrder(id) }
            book.cancelRequested(id)
            do {
                try connection.cancelOrderNow(tracked.brokerOrderID)
            } catch {
                publish(
                    book.notice(
                        TWSNotice(requestID: tracked.brokerOrderID, code: 10147, message: "\(error)"), at: clock()))
                throw .request("\(error)")
            }
            return nil
        case .modify(let id, let change, _):
            guard let tracked = book.order(id) else { throw .unknownOrder(id) }
            let terms: TWSOrder
            do throws(IBMappingError) {
                terms = try OrderMapping.modified(tracked.wire, with: change)
            } catch {
                // The engine waits in pendingReplace: answer with a refusal, through the book to keep the order.
                book.replaceRequested(id, terms: tracked.wire)
                publish(
                    book.notice(
                        TWSNotice(requestID: tracked.brokerOrderID, code: 321, message: error.description), at: clock())
                )
                throw .mapping(error)
            }
            book.replaceRequested(id, terms: terms)
            do {
                let contract = try contracts.contract(for: tracked.instrument)
                try connection.modifyOrderNow(id: tracked.brokerOrderID, order: terms, contract: contract)
            } catch {
                publish(
                    book.notice(
                        TWSNotice(requestID: tracked.brokerOrderID, code: 321, message: "\(error)"), at: clock()))
                throw .request("\(error)")
            }
            return nil
        }
    }

    /// Places a group: ids, wire terms, the intents journaled, the frames queued on the connection (written at once
    /// when the rate limiter allows), then the orders tracked.
    /// - Parameters:
    ///   - orders: a single order, or a bracket parent followed by its children (`parentIndex` 0).
    ///   - options: account, orderRef namespace, outside-RTH.
    ///   - connection: the connection (the caller is on its actor).
    /// - Returns: the group, for `noteSent`.
    /// - Throws: `IBBrokerError`; every failure also produces `rejected` reports (or a 201 notice once tracked).
    func submitNow(
        _ orders: [Order], parentIndex: Int?, options: WireOrderOptions, on connection: isolated TWSConnection
    ) throws(IBBrokerError) -> SentGroup {
        guard let first = orders.first else { return SentGroup(orders: [], intents: []) }
        // Terms, not full wire orders: the orders are encoded through the contract's template, and the full wire
        // orders are built for the book after the frames left (docs/latency.md).
        var placed: [TWSOrderTermsPlacement] = []
        let template: TWSPlaceOrderTemplate
        do {
            var ids: [Int] = []
            for _ in orders { ids.append(try connection.takeOrderID()) }
            // takeOrderID succeeds only once the handshake is done, so the version is known here.
            template = try placeOrderTemplate(for: first.instrument, serverVersion: connection.negotiatedVersion ?? 0)
            if parentIndex != nil {
                placed = try OrderMapping.bracketTerms(
                    parent: (id: ids[0], order: orders[0]),
                    children: zip(ids.dropFirst(), orders.dropFirst()).map { (id: $0, order: $1) },
                    options: options)
            } else {
                placed = [
                    TWSOrderTermsPlacement(orderID: ids[0], terms: try OrderMapping.terms(for: first, options: options))
                ]
            }
        } catch let error as IBMappingError {
            reject(orders, reason: error.description)
            throw .mapping(error)
        } catch {
            reject(orders, reason: "\(error)")
            throw .request("\(error)")
        }
        // Without a journal nothing reads the intents (`noteSent` and the failure path write them): not built, on
        // the order's path.
        var intents = journal == nil ? [] : Self.journaledIntents(orders, placed)
        if let journal {
            do {
                try journal.writeNow(intents)
            } catch {
                reject(orders, reason: "journal write failed: \(error)")
                throw .journal("\(error)")
            }
        }
        reachCrashPoint(.afterIntentJournaled)  // crash hook (test only)
        // Handed to the connection first and tracked right after, with the ledger's lock held across both: nobody
        // sees the book without the group (a cancel-all, the timeouts, the summary), and no answer about these
        // orders can be routed before they are tracked, because routing runs on this actor, which this call holds.
        // Tracking (three tables, an orderRef hashed) is then off the tick-to-order path (docs/latency.md).
        ledger.lock.lock()
        defer { ledger.lock.unlock() }
        do {
            // Nothing of the group is queued unless the connection is ready (encoding cannot fail).
            try connection.submitOrders(placed, template: template)
        } catch {
            // Nothing of the group was transmitted: the intents are dead, so a restart must not send them.
            track(orders, placed)
            for k in intents.indices { intents[k].lastKnownState = .rejected }
            try? journal?.writeNow(intents)
            for other in placed {
                publish(book.notice(TWSNotice(requestID: other.orderID, code: 201, message: "\(error)"), at: clock()))
            }
            throw .request("\(error)")
        }
        track(orders, placed)
        return SentGroup(orders: orders, intents: intents)
    }

    /// Tracks a group in the book with its full wire orders, by index.
    private nonisolated func track(_ orders: [Order], _ placed: [TWSOrderTermsPlacement]) {
        for k in orders.indices where k < placed.count {
            book.track(
                TrackedOrder(
                    order: orders[k], brokerOrderID: placed[k].orderID, orderRef: placed[k].terms.orderRef,
                    wire: placed[k].terms.order))
        }
    }

    /// The intents of a group about to be sent (`journaled`), parent first; the rehearsal builds them the same way.
    static func journaledIntents(_ orders: [Order], _ placed: [TWSOrderTermsPlacement]) -> [JournaledIntent] {
        var intents: [JournaledIntent] = []
        intents.reserveCapacity(orders.count)
        for k in orders.indices where k < placed.count {
            intents.append(
                JournaledIntent(
                    orderRef: placed[k].terms.orderRef, request: orders[k].request, lastKnownState: .journaled,
                    brokerOrderID: placed[k].orderID,
                    parentOrderRef: placed[k].terms.parentID == 0 ? nil : placed[0].terms.orderRef))
        }
        return intents
    }

    /// Marks a group `sent` in the journal, after its frames left (so off the tick-to-order path).
    nonisolated func noteSent(_ group: SentGroup) {
        guard let journal, !group.intents.isEmpty else { return }
        var intents = group.intents
        for k in intents.indices { intents[k].lastKnownState = .sent }
        // The orders are out; failing to note that only costs a reconciliation lookup after a restart.
        try? journal.writeNow(intents)
    }

    nonisolated func reject(_ orders: [Order], reason: String) {
        let now = clock()
        for order in orders { continuation.yield(.report(.rejected(order.id, reason: reason, at: now))) }
    }
}
