import Foundation
import LiveSession
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// The engine's broker over one TWS connection, for the manual tools: carries out `EngineCommand`s and turns TWS's
/// order messages into engine reports, through the same `OrderDesk` as the live session core.
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
    var connection: TWSConnection
    /// The contracts of the universe.
    public let contracts: ContractBook
    /// The settings.
    public let configuration: IBBrokerConfiguration
    let clock: @Sendable () -> Timestamp
    let journal: (any IntentJournal)?
    /// The orders, their mapping and the day's order-efficiency counts.
    var desk: OrderDesk
    /// Times the configured crash point was reached (`IBBroker+CrashPoint.swift`, test only).
    var crashPointHits = 0
    private var source: AsyncThrowingStream<TWSOrderEvent, any Error>?
    private let output: AsyncStream<IBBrokerEvent>
    let continuation: AsyncStream<IBBrokerEvent>.Continuation

    /// Creates a broker.
    /// - Parameters:
    ///   - connection: a connection (ready before the first command).
    ///   - contracts: the contract of each instrument.
    ///   - configuration: order options, commission wait, time zone.
    ///   - clock: the time stamped on reports that carry none (status changes).
    public init(
        connection: TWSConnection, contracts: ContractBook, configuration: IBBrokerConfiguration = .init(),
        clock: @escaping @Sendable () -> Timestamp
    ) {
        self.connection = connection
        self.contracts = contracts
        self.configuration = configuration
        self.journal = configuration.journal
        self.clock = clock
        var desk = OrderDesk(
            contracts: contracts, options: configuration.orderOptions, commissionWait: configuration.commissionWait,
            efficiencyLimit: configuration.orderEfficiency)
        desk.defaultTimeZone = configuration.defaultTimeZone
        self.desk = desk
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
    public var trackedOrders: [OrderID: TrackedOrder] { desk.book.orders }

    /// Today's order-efficiency counts and ratio, one line.
    public var orderEfficiencySummary: String { desk.efficiency.summary }

    /// The counts as they stand.
    public var orderEfficiency: OrderEfficiencyGuard { desk.efficiency }

    // MARK: - Commands

    /// Carries out an engine command: a group is journaled, then sent, then marked sent.
    /// - Throws: `IBBrokerError`; a submit that fails also produces a `rejected` report so the engine does not wait.
    public func execute(_ command: EngineCommand) async throws(IBBrokerError) {
        try await seedOrderIDs()
        let result = desk.carryOut(command, at: clock())
        publish(result.outputs)
        if let failure = result.failure { throw failure }
        guard let instruction = result.instruction else { return }
        try await send(instruction)
    }

    /// Sends again, once, intents of an earlier run that never reached the broker, under their original orderRefs
    /// (fresh TWS order ids). The engine orders' client ids are the full orderRefs.
    /// - Throws: `IBBrokerError`; a failure also produces `rejected` reports.
    public func resend(_ orders: [Order]) async throws(IBBrokerError) {
        try await seedOrderIDs()
        let result = desk.resend(orders, at: clock())
        publish(result.outputs)
        if let failure = result.failure { throw failure }
        guard let instruction = result.instruction else { return }
        try await send(instruction)
    }

    private func seedOrderIDs() async throws(IBBrokerError) {
        do { desk.seed(nextValidID: try await connection.nextOrderID()) } catch { throw .request("\(error)") }
    }

    private func send(_ instruction: DeskInstruction) async throws(IBBrokerError) {
        switch instruction {
        case .place(let group):
            if let journal {
                do { try journal.write(group.intents) } catch {
                    publish(OrderDesk.rejections(group.orders, "journal write failed: \(error)", at: clock()))
                    throw .journal("\(error)")
                }
            }
            reachCrashPoint(.afterIntentJournaled)  // crash hook (test only)
            do {
                try await connection.submitOrders(
                group.placements, contract: group.contract, legContracts: group.legContracts)
            } catch {
                // Nothing of the group was transmitted: the intents are dead, so a restart must not send them.
                try? journal?.write(group.intents.map { var intent = $0; intent.lastKnownState = .rejected; return intent })
                publish(desk.placeFailed(group, reason: "\(error)", at: clock()))
                throw .request("\(error)")
            }
            await reachSubmitCrashPoint(group.orders.map(\.id))  // crash hook (test only)
            // The orders are out; failing to note that only costs a reconciliation lookup after a restart.
            try? journal?.write(group.intents.map { var intent = $0; intent.lastKnownState = .sent; return intent })
        case .cancel(let id):
            do { try await connection.cancelOrder(id) } catch {
                publish(desk.requestFailed(brokerOrderID: id, cancel: true, reason: "\(error)", at: clock()))
                throw .request("\(error)")
            }
        case .modify(let id, let terms, let contract):
            do { try await connection.modifyOrder(id: id, order: terms, contract: contract) } catch {
                publish(desk.requestFailed(brokerOrderID: id, cancel: false, reason: "\(error)", at: clock()))
                throw .request("\(error)")
            }
        }
    }

    // MARK: - Restart and resynchronization

    /// Fetches the session's executions (reqExecutions) and applies those not seen yet.
    /// - Returns: how many executions were new.
    /// - Throws: `IBBrokerError.request`.
    @discardableResult
    public func synchronizeExecutions() async throws(IBBrokerError) -> Int {
        let reports: [TWSExecutionReport]
        do { reports = try await connection.executions() } catch { throw .request("\(error)") }
        let (outputs, count) = desk.synchronize(reports, at: clock())
        publish(outputs)
        return count
    }

    /// Catches up after a reconnect: the executions missed while disconnected (deduplicated, with their
    /// commissions), the open orders as hints, and orders no longer open at the broker ended.
    /// - Returns: how many executions were new.
    /// - Throws: `IBBrokerError.request`.
    @discardableResult
    public func resynchronize() async throws(IBBrokerError) -> Int {
        let cutoff = desk.book.orders.values.map(\.brokerOrderID).max() ?? 0
        let count = try await synchronizeExecutions()
        let all: [TWSOpenOrder]
        do { all = try await connection.allOpenOrders() } catch { throw .request("\(error)") }
        let clientID = await connection.configuration.clientID
        publish(desk.resynchronize(openOrders: all, clientID: clientID, cutoff: cutoff, at: clock()))
        return count
    }

    /// Today's executions with their commissions (one reqExecutions); open orders and positions left empty.
    /// - Throws: `IBBrokerError.request`.
    public func executionSnapshot() async throws(IBBrokerError) -> BrokerSnapshot {
        do {
            let executions = try await connection.executions()
            return SnapshotMapping.snapshot(
                BrokerAnswers(openOrders: [], executions: executions, positions: []), context: desk.mappingContext
            ).0
        } catch {
            throw .request("\(error)")
        }
    }

    /// What the broker holds now: the open orders of every client of the account, today's completed orders, the
    /// executions and the positions.
    /// - Returns: the snapshot, and what could not be mapped.
    /// - Throws: `IBBrokerError.request`.
    public func brokerSnapshot() async throws(IBBrokerError) -> (BrokerSnapshot, [IBMappingError]) {
        do {
            let answers = BrokerAnswers(
                openOrders: try await connection.allOpenOrders(), executions: try await connection.executions(),
                positions: try await connection.positions(),
                completedOrders: try await connection.completedOrderList())
            return SnapshotMapping.snapshot(answers, context: desk.mappingContext)
        } catch {
            throw .request("\(error)")
        }
    }

    /// Follows an order found working at the broker after a restart, under the engine order restored from the
    /// journal.
    /// - Throws: `IBBrokerError.mapping` when the order cannot be expressed on the wire.
    public func adopt(
        _ order: Order, brokerOrderID: Int, permID: Int64, orderRef: String? = nil, appliedExecutions: [String] = []
    ) throws(IBBrokerError) {
        do throws(IBMappingError) {
            try desk.adopt(
                order, brokerOrderID: brokerOrderID, permID: permID, orderRef: orderRef,
                appliedExecutions: appliedExecutions, at: clock())
        } catch {
            throw .mapping(error)
        }
    }

    /// Marks executions the restart reconciliation already accounted for as seen.
    public func noteReconciled(executionIDs: [String]) {
        desk.noteReconciled(executionIDs: executionIDs, at: clock())
    }

    /// Sets today's order-efficiency counts after a restart, before anything is sent.
    public func restoreEfficiency(day: Int64, submitted: Int, modified: Int, cancelled: Int, executed: Int) {
        desk.restoreEfficiency(
            day: day, counts: (submitted: submitted, modified: modified, cancelled: cancelled, executed: executed))
    }

    /// Releases fills that waited too long for their commission (call periodically).
    public func releaseOverdueCommissions() {
        publish(desk.releaseOverdue(at: clock()))
    }

    /// Applies executions found elsewhere through the same deduplication as live ones.
    public func ingest(_ executions: [BrokerExecution], commissions: [String: Money] = [:]) {
        publish(desk.ingest(executions, commissions: commissions, at: clock()))
    }

    // MARK: - Internals

    private func handle(_ event: TWSOrderEvent) {
        let applied = desk.apply(event, at: clock())
        publish(applied.outputs)
        if let (execution, commission) = applied.execution, let journal {
            do { try journal.record(execution, commission: commission) } catch {
                continuation.yield(.anomaly("journal: execution \(execution.executionID): \(error)"))
            }
        }
        if let (executionID, commission) = applied.commission, let journal {
            do { try journal.recordCommission(executionID: executionID, commission, at: clock()) } catch {
                continuation.yield(.anomaly("journal: commission \(executionID): \(error)"))
            }
        }
    }

    func publish(_ outputs: [OrderBookOutput]) {
        for output in outputs {
            switch output {
            case .report(let report):
                if case .filled = report { reachCrashPoint(.afterFill) }  // crash hook (test only)
                continuation.yield(.report(report))
            case .lateCommission(let late): continuation.yield(.lateCommission(late))
            case .unknownExecution(let execution): continuation.yield(.unknownExecution(execution))
            case .anomaly(let text): continuation.yield(.anomaly(text))
            // Surfaced until the runner acts on them (issue #20): an ALERT, and a verification to request.
            case .executionConflict(let conflict): continuation.yield(.anomaly("ALERT: \(conflict)"))
            case .verificationNeeded(let verification): continuation.yield(.anomaly("ALERT: \(verification)"))
            case .duplicateIncarnation(let twin):
                continuation.yield(.anomaly("ALERT: \(twin.orderRef) is live twice at the broker (permIds \(twin.followedPermID) and \(twin.permID))"))
            }
        }
    }
}
