import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

// The order path: an engine command carried out on the broker's actor. A group's intents are journaled, its orders
// tracked, and only then handed to the connection, so no answer about them can reach the book before they are known
// and a restart finds every order that may have been sent.
extension IBBroker {
    /// A group of orders handed to the connection (a single order or a bracket): what `noteSent` marks as sent.
    struct SentGroup: Sendable {
        var orders: [Order]
        var intents: [JournaledIntent]
    }

    /// Carries out an engine command.
    /// - Returns: the group handed to the connection, for a submit (mark it with `noteSent`); `nil` for a cancel or
    ///   modify.
    /// - Throws: `IBBrokerError`; a submit that fails also produces `rejected` reports so the engine does not wait.
    func carryOut(_ command: EngineCommand) async throws(IBBrokerError) -> SentGroup? {
        if let (orders, denial) = efficiencyDenial(for: command, at: clock()) {
            reject(orders, reason: denial)
            throw .orderEfficiency(denial)
        }
        defer { recordEfficiency(command, at: clock()) }
        switch command {
        case .submit(let order):
            return try await submit([order], parentIndex: nil, options: configuration.orderOptions)
        case .submitBracket(let parent, let children):
            return try await submit([parent] + children, parentIndex: 0, options: configuration.orderOptions)
        case .cancel(let id):
            guard let tracked = book.order(id) else { throw .unknownOrder(id) }
            book.cancelRequested(id)
            do {
                try await connection.cancelOrder(tracked.brokerOrderID)
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
                try await connection.modifyOrder(id: tracked.brokerOrderID, order: terms, contract: contract)
            } catch {
                publish(
                    book.notice(
                        TWSNotice(requestID: tracked.brokerOrderID, code: 321, message: "\(error)"), at: clock()))
                throw .request("\(error)")
            }
            return nil
        }
    }

    /// Places a group: ids, wire orders, the intents journaled, the orders tracked, then the frames queued on the
    /// connection.
    /// - Parameters:
    ///   - orders: a single order, or a bracket parent followed by its children (`parentIndex` 0).
    ///   - options: account, orderRef namespace, outside-RTH.
    /// - Returns: the group, for `noteSent`.
    /// - Throws: `IBBrokerError`; every failure also produces `rejected` reports (or a 201 notice once tracked).
    func submit(_ orders: [Order], parentIndex: Int?, options: WireOrderOptions) async throws(IBBrokerError) -> SentGroup
    {
        guard let first = orders.first else { return SentGroup(orders: [], intents: []) }
        let placed: [PlacedWireOrder]
        let contract: TWSContract
        do {
            var ids: [Int] = []
            for _ in orders { ids.append(try await connection.nextOrderID()) }
            contract = try contracts.contract(for: first.instrument)
            if parentIndex != nil {
                placed = try OrderMapping.bracket(
                    parent: (id: ids[0], order: orders[0]),
                    children: zip(ids.dropFirst(), orders.dropFirst()).map { (id: $0, order: $1) },
                    options: options)
            } else {
                placed = [PlacedWireOrder(orderID: ids[0], order: try OrderMapping.wireOrder(for: first, options: options))]
            }
        } catch let error as IBMappingError {
            reject(orders, reason: error.description)
            throw .mapping(error)
        } catch {
            reject(orders, reason: "\(error)")
            throw .request("\(error)")
        }
        var intents = Self.journaledIntents(orders, placed)
        if let journal {
            do {
                try journal.write(intents)
            } catch {
                reject(orders, reason: "journal write failed: \(error)")
                throw .journal("\(error)")
            }
        }
        reachCrashPoint(.afterIntentJournaled)  // crash hook (test only)
        for k in orders.indices where k < placed.count {
            book.track(
                TrackedOrder(
                    order: orders[k], brokerOrderID: placed[k].orderID, orderRef: placed[k].order.orderRef,
                    wire: placed[k].order))
        }
        do {
            // Nothing of the group is queued unless the connection is ready (encoding cannot fail).
            try await connection.submitOrders(placed, contract: contract)
        } catch {
            // Nothing of the group was transmitted: the intents are dead, so a restart must not send them.
            for k in intents.indices { intents[k].lastKnownState = .rejected }
            try? journal?.write(intents)
            for other in placed {
                publish(book.notice(TWSNotice(requestID: other.orderID, code: 201, message: "\(error)"), at: clock()))
            }
            throw .request("\(error)")
        }
        return SentGroup(orders: orders, intents: intents)
    }

    /// The intents of a group about to be sent (`journaled`), parent first.
    static func journaledIntents(_ orders: [Order], _ placed: [PlacedWireOrder]) -> [JournaledIntent] {
        var intents: [JournaledIntent] = []
        intents.reserveCapacity(orders.count)
        for k in orders.indices where k < placed.count {
            intents.append(
                JournaledIntent(
                    orderRef: placed[k].order.orderRef, request: orders[k].request, lastKnownState: .journaled,
                    brokerOrderID: placed[k].orderID,
                    parentOrderRef: placed[k].order.parentID == 0 ? nil : placed[0].order.orderRef))
        }
        return intents
    }

    /// Marks a group `sent` in the journal, after its frames were handed to the connection.
    func noteSent(_ group: SentGroup) {
        guard let journal, !group.intents.isEmpty else { return }
        var intents = group.intents
        for k in intents.indices { intents[k].lastKnownState = .sent }
        // The orders are out; failing to note that only costs a reconciliation lookup after a restart.
        try? journal.write(intents)
    }

    func reject(_ orders: [Order], reason: String) {
        let now = clock()
        for order in orders { continuation.yield(.report(.rejected(order.id, reason: reason, at: now))) }
    }
}
