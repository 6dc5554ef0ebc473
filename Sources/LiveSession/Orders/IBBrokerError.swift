import TradingEngine
import TradingModel

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
