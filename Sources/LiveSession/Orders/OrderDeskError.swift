import TradingEngine
import TradingModel

/// Why the order desk refused a command (nothing of it was sent).
public enum OrderDeskError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The order could not be expressed on the wire.
    case mapping(IBMappingError)
    /// The command names an order the desk did not place.
    case unknownOrder(OrderID)
    /// The intent journal could not be written, so nothing was sent.
    case journal(String)
    /// A new entry was denied by the order-efficiency limit (`OrderEfficiencyGuard`); nothing was sent.
    case orderEfficiency(String)

    public var description: String {
        switch self {
        case .mapping(let error): "cannot map order: \(error)"
        case .unknownOrder(let id): "unknown order \(id)"
        case .journal(let text): "journal write failed, order not sent: \(text)"
        case .orderEfficiency(let text): "risk denial: \(text)"
        }
    }
}
