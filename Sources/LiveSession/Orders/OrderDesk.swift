import Foundation
import TWSProtocol
import TradingEngine
import TradingModel

/// The broker side of the engine, without I/O: engine commands become order groups to journal and send (ids,
/// wire orders, intents), TWS's order messages become engine reports (through `IBOrderBook`, where executions are
/// the truth), and the day's order-efficiency counts are kept. The live session core carries every order out through it
/// (the bot's, and a manual order's in a ticket session), so there is one order path.
///
/// Order ids are the desk's: seeded from nextValidId (`seed`) and kept above every id TWS reports.
public struct OrderDesk: Sendable {
    /// The orders followed, their executions and commissions.
    public internal(set) var book: IBOrderBook
    /// Today's order actions and executed orders.
    public internal(set) var efficiency: OrderEfficiencyGuard
    /// The contract of each instrument.
    public var contracts: ContractBook
    /// Account, orderRef namespace, outside-RTH.
    public var options: WireOrderOptions
    /// The zone of execution times without one: TWS's login zone, from the connection's handshake (UTC until then,
    /// or when TWS names none this system knows).
    public var defaultTimeZone: TimeZone = TWSTimeParser.utc
    /// The next order ids (`nil` until seeded).
    public internal(set) var orderIDs = OrderIDAllocator()
    /// The execIds whose unreadable time was already said (`timeNotes(of:)`): said once each.
    public internal(set) var timeNoted: Set<String> = []
    /// The login zone names TWS sent that were said to be unknown (empty: a connection time naming none), so that
    /// a reconnect to the same TWS does not say it again.
    public var unknownLoginZonesSaid: Set<String> = []
    private var nextGroup = 0

    /// Creates a desk.
    public init(
        contracts: ContractBook, options: WireOrderOptions, commissionWait: TimeSpan?,
        efficiencyLimit: OrderEfficiencyLimit?
    ) {
        self.contracts = contracts
        self.options = options
        book = IBOrderBook(commissionWait: commissionWait)
        efficiency = OrderEfficiencyGuard(limit: efficiencyLimit)
    }

    /// The mapping context of executions and snapshots.
    public var mappingContext: MappingContext {
        MappingContext(contracts: contracts, account: options.account, defaultZone: defaultTimeZone)
    }

    /// The mapping context of messages received at `receivedAt`: an execution whose time does not read is mapped
    /// with that time and a note, never dropped.
    public func mappingContext(receivedAt: Timestamp) -> MappingContext {
        var context = mappingContext
        context.receivedAt = receivedAt
        return context
    }

    /// The notes of executions whose time did not read (`BrokerExecution.timeNote`) not said before; each is said
    /// once (the broker's list is read again at every resynchronization and at the stop).
    public mutating func timeNotes(of executions: [BrokerExecution]) -> [String] {
        executions.compactMap { execution in
            guard let note = execution.timeNote, timeNoted.insert(execution.executionID).inserted else { return nil }
            return note
        }
    }

    /// Applies a nextValidId (after a connect).
    public mutating func seed(nextValidID: Int) { orderIDs.seed(nextValidID: nextValidID) }

    // MARK: - Commands

    /// Carries out an engine command: a group to place, a cancel or modify to send, or a refusal.
    /// - Returns: what to send (if anything), the book's outputs (rejections, refusals), and the failure.
    public mutating func carryOut(_ command: EngineCommand, at now: Timestamp) -> DeskResult {
        if let (orders, denial) = efficiencyDenial(for: command, at: now) {
            return DeskResult(outputs: Self.rejections(orders, denial, at: now), failure: .orderEfficiency(denial))
        }
        defer { recordEfficiency(command, at: now) }
        switch command {
        case .submit(let order):
            return group([order], bracket: false, options: options, at: now)
        case .submitBracket(let parent, let children):
            return group([parent] + children, bracket: true, options: options, at: now)
        case .cancel(let id):
            guard let tracked = book.order(id) else { return DeskResult(failure: .unknownOrder(id)) }
            book.cancelRequested(id)
            return DeskResult(instruction: .cancel(brokerOrderID: tracked.brokerOrderID))
        case .modify(let id, let change, _):
            guard let tracked = book.order(id) else { return DeskResult(failure: .unknownOrder(id)) }
            do throws(IBMappingError) {
                let terms = try OrderMapping.modified(tracked.wire, with: change)
                let contract = try contracts.contract(for: tracked.instrument)
                book.replaceRequested(id, terms: terms)
                return DeskResult(instruction: .modify(brokerOrderID: tracked.brokerOrderID, terms, contract))
            } catch {
                // The engine waits in pendingReplace: answer with a refusal, through the book to keep the order.
                book.replaceRequested(id, terms: tracked.wire)
                let refusal = TWSNotice(requestID: tracked.brokerOrderID, code: 321, message: error.description)
                return DeskResult(outputs: book.notice(refusal, at: now), failure: .mapping(error))
            }
        }
    }

    /// Orders of an earlier run sent again under their original orderRefs (the engine orders' client ids are the
    /// full orderRefs): a single order, or a bracket parent followed by its children.
    public mutating func resend(_ orders: [Order], at now: Timestamp) -> DeskResult {
        var options = options
        options.reference = OrderReference(prefix: "")
        return group(orders, bracket: orders.count > 1, options: options, at: now)
    }

    /// A group's send failed (journal write or connection): nothing of it was transmitted, so its orders are
    /// refused through the book (201), and its intents are marked rejected.
    public mutating func placeFailed(_ group: OrderGroup, reason: String, at now: Timestamp) -> [OrderBookOutput] {
        var outputs: [OrderBookOutput] = []
        for placement in group.placements {
            outputs += book.notice(TWSNotice(requestID: placement.orderID, code: 201, message: reason), at: now)
        }
        return outputs
    }

    /// A cancel or modify could not be sent: the order stays as it was (10147 / 321 through the book).
    public mutating func requestFailed(brokerOrderID: Int, cancel: Bool, reason: String, at now: Timestamp)
        -> [OrderBookOutput]
    {
        book.notice(TWSNotice(requestID: brokerOrderID, code: cancel ? 10147 : 321, message: reason), at: now)
    }

    private mutating func group(_ orders: [Order], bracket: Bool, options: WireOrderOptions, at now: Timestamp)
        -> DeskResult
    {
        guard let first = orders.first else { return DeskResult() }
        let placed: [TWSOrderPlacement]
        let contract: TWSContract
        var legContracts: [TWSContract]?
        do throws(IBMappingError) {
            var ids: [Int] = []
            for _ in orders {
                guard let id = orderIDs.next() else { throw .missingField("an order id (nextValidId has not arrived)") }
                ids.append(id)
            }
            contract = try self.contract(of: first)
            if bracket {
                placed = try OrderMapping.bracket(
                    parent: (id: ids[0], order: orders[0]),
                    children: zip(ids.dropFirst(), orders.dropFirst()).map { (id: $0, order: $1) }, options: options)
            } else {
                var list: [TWSOrderPlacement] = []
                for (id, order) in zip(ids, orders) {
                    list.append(TWSOrderPlacement(orderID: id, order: try OrderMapping.wireOrder(for: order, options: options)))
                }
                placed = list
            }
            if !bracket, orders.count > 1 {
                var each: [TWSContract] = []
                for order in orders { each.append(try self.contract(of: order)) }
                legContracts = each
            }
        } catch {
            return DeskResult(outputs: Self.rejections(orders, error.description, at: now), failure: .mapping(error))
        }
        // Tracked before anything is sent: no answer about these orders can reach the book before they are known.
        for k in orders.indices where k < placed.count {
            book.track(
                TrackedOrder(
                    order: orders[k], brokerOrderID: placed[k].orderID, orderRef: placed[k].order.orderRef,
                    wire: placed[k].order))
        }
        nextGroup += 1
        var group = OrderGroup(
            number: nextGroup, orders: orders, intents: Self.journaledIntents(orders, placed), placements: placed,
            contract: contract, time: now)
        group.legContracts = legContracts
        return DeskResult(instruction: .place(group))
    }

    /// The contract an order trades: a roll leg's month (its id names it: `ROLL-ESZ2013-…`), else the instrument's.
    func contract(of order: Order) throws(IBMappingError) -> TWSContract {
        if contracts.isContinuous(order.instrument), let month = FuturesRollID.legMonth(of: order.clientOrderID.rawValue) {
            return try contracts.contract(for: order.instrument, month: month)
        }
        return try contracts.contract(for: order.instrument)
    }

    /// A roll's two legs as one group, journaled in one transaction before either is sent: a restart finds both or
    /// neither. Each leg goes to its own contract month (`OrderGroup.legContracts`).
    public mutating func roll(_ roll: FuturesRollOrders, at now: Timestamp) -> DeskResult {
        defer {
            recordEfficiency(.submit(roll.legOut), at: now)
            recordEfficiency(.submit(roll.legIn), at: now)
        }
        return group([roll.legOut, roll.legIn], bracket: false, options: options, at: now)
    }

    /// The intents of a group about to be sent (`journaled`), parent first.
    static func journaledIntents(_ orders: [Order], _ placed: [TWSOrderPlacement]) -> [JournaledIntent] {
        var intents: [JournaledIntent] = []
        for k in orders.indices where k < placed.count {
            intents.append(
                JournaledIntent(
                    orderRef: placed[k].order.orderRef, request: orders[k].request, lastKnownState: .journaled,
                    brokerOrderID: placed[k].orderID,
                    parentOrderRef: placed[k].order.parentID == 0 ? nil : placed[0].order.orderRef))
        }
        return intents
    }

    public static func rejections(_ orders: [Order], _ reason: String, at now: Timestamp) -> [OrderBookOutput] {
        orders.map { .report(.rejected($0.id, reason: reason, at: now)) }
    }
}

/// What the desk made of a command.
public struct DeskResult: Sendable {
    /// What to send, if anything.
    public var instruction: DeskInstruction?
    /// The book's outputs (a rejection, a refusal) to publish.
    public var outputs: [OrderBookOutput] = []
    /// Why the command failed, if it did.
    public var failure: OrderDeskError?

    init(instruction: DeskInstruction? = nil, outputs: [OrderBookOutput] = [], failure: OrderDeskError? = nil) {
        self.instruction = instruction
        self.outputs = outputs
        self.failure = failure
    }
}

/// A message the desk wants sent.
public enum DeskInstruction: Sendable, Equatable {
    /// Journal the group's intents, then send its orders (then mark them sent).
    case place(OrderGroup)
    /// cancelOrder.
    case cancel(brokerOrderID: Int)
    /// placeOrder again with new terms.
    case modify(brokerOrderID: Int, TWSOrder, TWSContract)
}

/// A single order or a bracket, ready to journal and send.
public struct OrderGroup: Sendable, Equatable, Codable {
    /// The desk's running number of the group.
    public var number: Int
    /// The engine's orders, parent first.
    public var orders: [Order]
    /// Their intents, journaled before the send.
    public var intents: [JournaledIntent]
    /// Their wire orders under their TWS order ids.
    public var placements: [TWSOrderPlacement]
    /// The instrument's contract.
    public var contract: TWSContract
    /// When the group was made (its intents' time in the journal).
    public var time: Timestamp
    /// Each order's own contract, when they differ (a roll's legs: the month left, the month entered); `nil`: every
    /// order trades `contract`.
    public var legContracts: [TWSContract]?

    /// The contract of the order at `index` in `placements`.
    public func contract(at index: Int) -> TWSContract {
        guard let legContracts, index >= 0, index < legContracts.count else { return contract }
        return legContracts[index]
    }
}
