/// Why trading in an instrument is halted, as TWS's HALTED tick (type 49) says it.
public enum TradingHalt: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    /// A general (regulatory or news) halt: tick value 1.
    case general = 1
    /// A volatility halt, i.e. a limit-up/limit-down pause: tick value 2.
    case volatility = 2

    /// The halt status of a HALTED tick value: `.some(nil)` for 0 (trading), `nil` for a value it does not know
    /// (TWS's −1, "not available").
    public static func status(tickValue value: Double) -> TradingHalt?? {
        switch value {
        case 0: .some(nil)
        case 1: .general
        case 2: .volatility
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .general: "a trading halt"
        case .volatility: "a limit-up/limit-down volatility pause"
        }
    }
}
