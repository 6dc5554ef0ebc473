import Foundation
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

/// The engine's broker over TWS: carries out `EngineCommand`s and turns TWS's order messages into engine reports.
///
/// Orders go out under ids from `nextValidId`, with `orderRef` = namespace + client order id; every order is
/// registered with the `IBOrderBook` before it is sent, so no answer arrives for an unknown order. Brackets go out
/// as parent + children with `parentId` and `transmit` false/false/true.
///
/// ```swift
/// let broker = IBBroker(connection: connection, contracts: ContractBook(universe: universe), clock: { wallClock.now })
/// let reports = await broker.start()
/// group.addTask { try await broker.run() }
/// for command in engine.handle(event) { try await broker.execute(command) }
/// for await event in reports { if case .report(let report) = event { engine.handle(.execution(report)) } }
/// ```
public actor IBBroker {
    private var connection: TWSConnection
    /// The contracts of the universe.
    public let contracts: ContractBook
    /// The settings.
    public let configuration: IBBrokerConfiguration
    let clock: @Sendable () -> Timestamp
    let journal: (any IntentJournal)?
    /// The order book, the order-efficiency counts and the crash hook's count, behind a lock as well as the actor:
    /// the synchronous order path (`executeNow`, IBBroker+Submit.swift) runs on the connection's actor.
    nonisolated let ledger: BrokerLedger
    private var source: AsyncThrowingStream<TWSOrderEvent, any Error>?
    private let output: AsyncStream<IBBrokerEvent>
    let continuation: AsyncStream<IBBrokerEvent>.Continuation

    /// Creates a broker.
    /// - Parameters:
    ///   - connection: a connection (ready before the first command).
    ///   - contracts: the contract of each instrument.
    ///   - configuration: order options, commission wait, time zone.
    ///   - clock: the time stamped on reports that carry none (status changes); the runner's clock.
    public init(
        connection: TWSConnection, contracts: ContractBook, configuration: IBBrokerConfiguration = .init(),
        clock: @escaping @Sendable () -> Timestamp
    ) {
        self.connection = connection
        self.contracts = contracts
        self.configuration = configuration
        self.journal = configuration.journal
        self.clock = clock
        self.ledger = BrokerLedger(
            book: IBOrderBook(commissionWait: configuration.commissionWait),
            efficiency: OrderEfficiencyGuard(limit: configuration.orderEfficiency))
        (output, continuation) = AsyncStream.makeStream(of: IBBrokerEvent.self)
    }

    /// Subscribes to the connection's order events (call before the first command).
    /// - Returns: the broker's events; the stream ends with `finish()`.
    public func start() async -> AsyncStream<IBBrokerEvent> {
        if source == nil { source = await connection.orderEvents() }
        return output
    }

    /// Pumps the current connection's order events until that connection closes. After a reconnect, `attach(_:)`
    /// the new connection, call `run()` again, then `resynchronize()`.
    /// - Throws: the error that closed the order-event stream.
    public func run() async throws {
        let stream: AsyncThrowingStream<TWSOrderEvent, any Error>
        if let source {
            stream = source
        } else {
            stream = await connection.orderEvents()
        }
        source = nil
        for try await event in stream { handle(event) }
    }

    /// Continues over a new connection (after the old one closed): orders, ids and fills seen so far are kept.
    public func attach(_ connection: TWSConnection) async {
        self.connection = connection
        source = await connection.orderEvents()
    }

    /// Ends the event stream (at shutdown).
    public func finish() { continuation.finish() }

    /// The orders this broker follows, by engine id.
    public var trackedOrders: [OrderID: TrackedOrder] { book.orders }

    // MARK: - Commands

    /// Carries out an engine command: the synchronous order path (`executeNow`, IBBroker+Submit.swift) run on the
    /// current connection's actor, one hop.
    /// - Throws: `IBBrokerError`; a submit that fails also produces a `rejected` report so the engine does not wait.
    public func execute(_ command: EngineCommand) async throws(IBBrokerError) {
        let sent = try await executeNow(command, on: connection)
        guard let sent else { return }
        await reachSubmitCrashPoint(sent.orders.map(\.id))  // crash hook (test only)
        noteSent(sent)
    }

    /// Releases fills that waited too long for their commission (call periodically, e.g. every second).
    public func releaseOverdueCommissions() {
        publish(book.releaseOverdue(at: clock()))
    }

    /// Fetches the session's executions (reqExecutions) and applies those not seen yet: after a reconnect, and
    /// whenever an orderStatus claims more than the executions received.
    /// - Returns: how many executions were new.
    /// - Throws: `IBBrokerError.request`.
    @discardableResult
    public func synchronizeExecutions() async throws(IBBrokerError) -> Int {
        let reports: [TWSExecutionReport]
        do {
            reports = try await connection.executions()
        } catch {
            throw .request("\(error)")
        }
        var count = 0
        for report in reports {
            let executionID = report.execution.executionID
            if !book.hasApplied(executionID: executionID) {
                count += 1
                handle(.execution(report))
            } else if book.awaitsLateCommission(executionID: executionID), report.commission != nil {
                // [resilience] The fill went out without its commission and the live commissionReport was missed
                // (e.g. during an outage): the one joined to reqExecutions' answer becomes the late commission.
                handle(.commission(report))
            }
        }
        return count
    }

    /// Catches up after a reconnect: applies the executions missed while disconnected (deduplicated, with their
    /// commissions), replays the open orders as hints, and ends orders that are no longer open at the broker
    /// without having filled (they ended during the outage: `expired` for DAY orders, else `canceled`, with an
    /// anomaly event saying so). The open orders are every client's of this account (reqAllOpenOrders), so an
    /// order adopted from an earlier client id of ours is seen working too (`IBBroker+Resynchronize.swift`).
    /// - Returns: how many executions were new.
    /// - Throws: `IBBrokerError.request`.
    @discardableResult
    public func resynchronize() async throws(IBBrokerError) -> Int {
        let count = try await synchronizeExecutions()
        let all: [TWSOpenOrder]
        do {
            all = try await connection.allOpenOrders()
        } catch {
            throw .request("\(error)")
        }
        let clientID = await connection.configuration.clientID
        let open = Self.trackedOpenOrders(
            all, tracked: book.orders.values, clientID: clientID,
            context: configuration.mappingContext(contracts))
        let now = clock()
        for order in open { publish(book.openOrder(order, at: now)) }
        let working = Set(open.map(\.order.orderID))
        for tracked in book.orders.values.sorted(by: { $0.orderID < $1.orderID })
        where tracked.state.isOpen && !working.contains(tracked.brokerOrderID) && tracked.executed < tracked.quantity {
            continuation.yield(.anomaly("\(tracked.orderRef) ended at the broker while disconnected"))
            let status = TWSOrderStatus(
                orderID: tracked.brokerOrderID, status: "Cancelled", filled: WireNumbers.decimal(tracked.executed),
                remaining: WireNumbers.decimal(tracked.quantity - tracked.executed))
            publish(book.status(status, at: now))
        }
        return count
    }

    // MARK: - Restart

    /// Today's executions with their commissions (one reqExecutions), for the runner's periodic journal sync; open
    /// orders and positions are left empty.
    /// - Throws: `IBBrokerError.request`.
    public func executionSnapshot() async throws(IBBrokerError) -> BrokerSnapshot {
        do {
            let executions = try await connection.executions()
            return SnapshotMapping.snapshot(
                BrokerAnswers(openOrders: [], executions: executions, positions: []),
                context: configuration.mappingContext(contracts)
            ).0
        } catch {
            throw .request("\(error)")
        }
    }

    /// What the broker holds now, for the reconciler: the open orders of every client of the account
    /// (reqAllOpenOrders: an earlier run may have used another client id), today's completed orders, the
    /// executions and the positions (of the configured account, or all).
    /// - Returns: the snapshot, and what could not be mapped (left out of it; show it to the operator).
    /// - Throws: `IBBrokerError.request`.
    public func brokerSnapshot() async throws(IBBrokerError) -> (BrokerSnapshot, [IBMappingError]) {
        do {
            let open = try await connection.allOpenOrders()
            let completed = try await connection.completedOrderList()
            let executions = try await connection.executions()
            let positions = try await connection.positions()
            return SnapshotMapping.snapshot(
                BrokerAnswers(
                    openOrders: open, executions: executions, positions: positions, completedOrders: completed),
                context: configuration.mappingContext(contracts))
        } catch {
            throw .request("\(error)")
        }
    }

    /// Follows an order found working at the broker after a restart (the reconciler's `adopt`), under the engine
    /// order restored from the journal.
    /// - Parameters:
    ///   - order: the engine's order (its lifecycle as restored: accepted or partially filled).
    ///   - brokerOrderID: the TWS order id.
    ///   - permID: TWS's permanent id.
    ///   - orderRef: the orderRef it carries at the broker when that is not this run's reference of the order's
    ///     client id (an order of an earlier run, restored with its full orderRef as client id).
    ///   - appliedExecutions: execIds of what it already traded (in `order.filledQuantity`): never delivered again.
    /// - Throws: `IBBrokerError.mapping` when the order cannot be expressed on the wire.
    public func adopt(
        _ order: Order, brokerOrderID: Int, permID: Int64, orderRef: String? = nil, appliedExecutions: [String] = []
    ) throws(IBBrokerError) {
        var wire: TWSOrder
        do throws(IBMappingError) {
            wire = try OrderMapping.wireOrder(for: order, options: configuration.orderOptions)
        } catch {
            throw .mapping(error)
        }
        if let orderRef { wire.orderRef = orderRef }
        var tracked = TrackedOrder(order: order, brokerOrderID: brokerOrderID, orderRef: wire.orderRef, wire: wire)
        tracked.permID = permID
        tracked.executed = order.filledQuantity
        tracked.delivered = order.filledQuantity
        book.track(tracked)
        book.noteApplied(executionIDs: appliedExecutions, at: clock())
    }

    /// Marks executions the restart reconciliation already accounted for (journaled, in the adopted positions)
    /// as seen, so a later reqExecutions neither applies nor reports them again.
    public func noteReconciled(executionIDs: [String]) {
        book.noteApplied(executionIDs: executionIDs, at: clock())
    }

    /// Sends again, once, intents of an earlier run that never reached the broker (the reconciler's `send`):
    /// under fresh TWS order ids but their original orderRefs, journaled like any order (the journal rows exist,
    /// so they are only marked `sent`). The engine orders' client ids are the full orderRefs
    /// (`EngineCore.restore(order:at:)`).
    /// - Parameter orders: a single order, or a bracket parent followed by its children.
    /// - Throws: `IBBrokerError`; a failure also produces `rejected` reports.
    public func resend(_ orders: [Order]) async throws(IBBrokerError) {
        var options = configuration.orderOptions
        options.reference = OrderReference(prefix: "")
        let sent = try await submitNow(orders, parentIndex: orders.count > 1 ? 0 : nil, options: options, on: connection)
        await reachSubmitCrashPoint(sent.orders.map(\.id))  // crash hook (test only)
        noteSent(sent)
    }

    /// Applies executions found by the reconciler (or any other source) through the same deduplication as live
    /// ones: each execId reaches the engine once, with its commission when known (else it follows when it arrives).
    /// - Parameters:
    ///   - executions: the executions, in time order.
    ///   - commissions: known commissions by execId (`BrokerSnapshot.commissions`).
    public func ingest(_ executions: [BrokerExecution], commissions: [String: Money] = [:]) {
        let now = clock()
        for execution in executions {
            let commission = commissions[execution.executionID].map { CommissionStatus.reported($0, realizedPnL: nil) }
            publish(book.execution(execution, commission: commission ?? .pending, at: now))
        }
    }

    // MARK: - Internals

    private func handle(_ event: TWSOrderEvent) {
        let now = clock()
        switch event {
        case .status(let status):
            publish(book.status(status, at: now))
        case .openOrder(let open):
            publish(book.openOrder(open, at: now))
        case .execution(let report):
            do throws(IBMappingError) {
                let execution = try ExecutionMapping.execution(
                    report.execution, contract: report.contract, context: configuration.mappingContext(contracts))
                let commission = try ExecutionMapping.commission(report.commission)
                publish(book.execution(execution, commission: commission, at: now))
                if case .reported(let money, _) = commission {
                    journal(execution, commission: money)
                } else {
                    journal(execution, commission: nil)
                }
            } catch {
                continuation.yield(.anomaly("execution \(report.execution.executionID): \(error)"))
            }
        case .commission(let report):
            do throws(IBMappingError) {
                let commission = try ExecutionMapping.commission(report.commission)
                publish(book.commission(executionID: report.execution.executionID, commission, at: now))
                if case .reported(let money, _) = commission {
                    journalCommission(report.execution.executionID, money, at: now)
                }
            } catch {
                continuation.yield(.anomaly("commission \(report.execution.executionID): \(error)"))
            }
        case .notice(let notice):
            publish(book.notice(notice, at: now))
        }
    }

    nonisolated func publish(_ outputs: [OrderBookOutput]) {
        for output in outputs {
            switch output {
            case .report(let report):
                noteExecution(report, at: clock())
                if case .filled = report { reachCrashPoint(.afterFill) }  // crash hook (test only)
                continuation.yield(.report(report))
            case .lateCommission(let late): continuation.yield(.lateCommission(late))
            case .unknownExecution(let execution): continuation.yield(.unknownExecution(execution))
            case .anomaly(let text): continuation.yield(.anomaly(text))
            // Surfaced until the runner acts on them (issue #20): an ALERT, and a verification to request.
            case .executionConflict(let conflict): continuation.yield(.anomaly("ALERT: \(conflict)"))
            case .verificationNeeded(let verification): continuation.yield(.anomaly("ALERT: \(verification)"))
            }
        }
    }
}
