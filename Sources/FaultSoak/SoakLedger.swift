import Foundation
import GatewayCore

/// What the simulator did for the bot, over every gateway process of a soak (a `restart-fresh` starts an empty one):
/// the executions by execId and the new placeOrders by orderRef. Compared with the bot's journal at the end: an
/// execution not journaled is a lost fill, an orderRef placed twice a duplicate order. Pure.
public struct SoakLedger: Sendable, Equatable {
    /// One execution, as the simulator made it.
    public struct Execution: Sendable, Equatable {
        public var executionID: String
        public var orderRef: String
        public var side: String
        public var shares: Double
        public var symbol: String
    }

    /// By gateway process (`GatewayState.incarnation`): its executions for the bot, and its submissions per orderRef.
    private var executions: [Int: [Execution]] = [:]
    /// By gateway process: the executions it made for the bot during a loss of connectivity (1100) that was still on
    /// when the process was last seen. Their reports were withheld, so when such a process is retired (a
    /// `restart-fresh`) no client could have learnt of them: they are counted apart, not as lost fills.
    private var unreported: [Int: Set<String>] = [:]
    private var submissions: [Int: [String: Int]] = [:]
    /// By gateway process: the second live orders its `twin-order` faults made, and the modifications that reached it.
    private var twins: [Int: [TwinOrderRecord]] = [:]
    private var modifications: [Int: Int] = [:]
    /// The bot's client id.
    public let clientID: Int

    /// Creates an empty ledger for a client.
    public init(clientID: Int) { self.clientID = clientID }

    /// Takes a snapshot of a gateway process (again: the later snapshot of the same process replaces the earlier).
    public mutating func absorb(_ state: GatewayState) {
        executions[state.incarnation] = state.executionLog.filter { $0.clientID == clientID }.map { record in
            Execution(
                executionID: record.execution.executionID, orderRef: record.execution.orderRef,
                side: record.execution.side,
                shares: record.execution.shares.map { NSDecimalNumber(decimal: $0).doubleValue } ?? 0,
                symbol: record.contract.symbol)
        }
        submissions[state.incarnation] = state.submissions(clientID: clientID)
        twins[state.incarnation] = state.twinOrders(clientID: clientID)
        modifications[state.incarnation] = state.placeOrderLog
            .filter { $0.clientID == clientID && $0.isModification }.count
        unreported[state.incarnation] = Set(
            state.executionsDuringOutage.filter { $0.clientID == clientID }.map(\.execution.executionID))
    }

    /// Executions that went with a gateway process retired during a loss of connectivity, before any report of them
    /// reached a client.
    public var unreportedExecutions: Set<String> { unreported.values.reduce(into: []) { $0.formUnion($1) } }

    /// Every execution of every process.
    public var allExecutions: [Execution] { executions.keys.sorted().flatMap { executions[$0] ?? [] } }

    /// New submissions per orderRef, over every process.
    public var allSubmissions: [String: Int] {
        submissions.values.reduce(into: [:]) { total, counts in
            for (ref, count) in counts { total[ref, default: 0] += count }
        }
    }

    /// Every second live order a `twin-order` made, over every process.
    public var allTwins: [TwinOrderRecord] { twins.keys.sorted().flatMap { twins[$0] ?? [] } }

    /// Modifications of working orders that reached the simulator, over every process.
    public var allModifications: Int { modifications.values.reduce(0, +) }

    /// The gateway processes seen.
    public var processes: Int { executions.count }

    /// Executions the journal does not have (lost fills; not those no client could have learnt of), and journaled
    /// execIds the simulator never made.
    public func compare(journaled: Set<String>) -> (lost: [Execution], phantom: [String]) {
        let made = allExecutions
        let madeIDs = Set(made.map(\.executionID))
        let unreported = unreportedExecutions
        return (
            made.filter { !journaled.contains($0.executionID) && !unreported.contains($0.executionID) },
            journaled.subtracting(madeIDs).sorted()
        )
    }

    /// orderRefs that reached the simulator more than once (as new orders, modifications aside).
    public var duplicateOrders: [String: Int] { allSubmissions.filter { $0.value > 1 } }
}
