import Foundation
import TradingEngine
import TradingModel

/// Settings of an `IBBroker`.
public struct IBBrokerConfiguration: Sendable {
    /// Account, outside-RTH, OCA type and orderRef namespace of every order.
    public var orderOptions: WireOrderOptions
    /// How long a fill waits for its commission report before it goes to the engine without it (`nil`: never
    /// wait). Overdue fills are released by `releaseOverdueCommissions()`, which the runner calls on its timer.
    public var commissionWait: TimeSpan?
    /// The zone of execution times TWS sends without one (its login zone).
    public var defaultTimeZone: TimeZone
    /// Where intents are written before they are sent (`nil`: not journaled, e.g. manual tools).
    public var journal: (any IntentJournal)?
    /// The order-efficiency limit on new entries (`nil`: counted and logged, never denied).
    public var orderEfficiency: OrderEfficiencyLimit?
    /// Test only: where the process exits abruptly (`IBTRADER_CRASH_AT`); `nil` in real use.
    public var crashPoint: CrashPoint?

    /// Creates a configuration; defaults: default account, RTH only, `IBT:` orderRefs, 5 s commission wait, UTC,
    /// no journal.
    public init(
        orderOptions: WireOrderOptions = WireOrderOptions(), commissionWait: TimeSpan? = .seconds(5),
        defaultTimeZone: TimeZone = TWSTimeParser.utc, journal: (any IntentJournal)? = nil,
        orderEfficiency: OrderEfficiencyLimit? = nil, crashPoint: CrashPoint? = nil
    ) {
        self.orderEfficiency = orderEfficiency
        self.crashPoint = crashPoint
        self.orderOptions = orderOptions
        self.commissionWait = commissionWait
        self.defaultTimeZone = defaultTimeZone
        self.journal = journal
    }

    /// The mapping context of executions, positions and snapshots.
    func mappingContext(_ contracts: ContractBook) -> MappingContext {
        MappingContext(contracts: contracts, account: orderOptions.account, defaultZone: defaultTimeZone)
    }
}

/// What an `IBBroker` reports.
public enum IBBrokerEvent: Sendable, Equatable {
    /// A report for the engine (`EngineEvent.execution`).
    case report(ExecutionReport)
    /// A commission that arrived after its fill went to the engine.
    case lateCommission(LateCommission)
    /// An execution of an order this broker does not follow (for the reconciler / operator).
    case unknownExecution(BrokerExecution)
    /// Something inconsistent (logged and shown to the operator).
    case anomaly(String)

    /// The engine event of a report, `nil` for the other cases.
    public var engineEvent: EngineEvent? {
        if case .report(let report) = self { return .execution(report) }
        return nil
    }
}

/// Why the broker could not carry out a command.
public enum IBBrokerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The order could not be expressed on the wire.
    case mapping(IBMappingError)
    /// TWS refused or the connection failed.
    case request(String)
    /// The command names an order this broker did not place.
    case unknownOrder(OrderID)
    /// The intent journal could not be written, so nothing was sent.
    case journal(String)
    /// A new entry was denied by the order-efficiency limit (`OrderEfficiencyGuard`); nothing was sent.
    case orderEfficiency(String)

    public var description: String {
        switch self {
        case .mapping(let error): "cannot map order: \(error)"
        case .request(let text): "TWS request failed: \(text)"
        case .unknownOrder(let id): "unknown order \(id)"
        case .journal(let text): "journal write failed, order not sent: \(text)"
        case .orderEfficiency(let text): "risk denial: \(text)"
        }
    }
}
