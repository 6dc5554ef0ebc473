import TradingModel

/// Why a TWS value could not be turned into a domain value (or a domain value into a TWS one).
///
/// Unknown or unsupported values are always an error, never a silent default.
public enum IBMappingError: Error, Hashable, Sendable, CustomStringConvertible, Codable {
    /// An order side other than `BUY`/`SELL` (orders) or `BOT`/`SLD` (executions).
    case unknownSide(String)
    /// An order status text TWS is not documented to send.
    case unknownOrderStatus(String)
    /// An order type this adapter does not trade.
    case unsupportedOrderType(String)
    /// A time in force this adapter does not trade.
    case unsupportedTimeInForce(String)
    /// A date or time text in none of TWS's forms.
    case malformedTime(String)
    /// A time zone name neither IANA nor a known abbreviation.
    case unknownTimeZone(String)
    /// A quantity that is missing, not positive where it must be, or has more than 8 decimals.
    case invalidQuantity(field: String, value: String)
    /// A price that is not finite, not positive where it must be, or out of range.
    case invalidPrice(field: String, value: String)
    /// A contract that is not in the book (neither by contract id nor by symbol).
    case unknownContract(symbol: String, contractID: Int)
    /// An instrument without a contract in the book.
    case unknownInstrument(InstrumentID)
    /// A required field is empty.
    case missingField(String)

    public var description: String {
        switch self {
        case .unknownSide(let s): "unknown side '\(s)'"
        case .unknownOrderStatus(let s): "unknown order status '\(s)'"
        case .unsupportedOrderType(let s): "unsupported order type '\(s)'"
        case .unsupportedTimeInForce(let s): "unsupported time in force '\(s)'"
        case .malformedTime(let s): "malformed TWS time '\(s)'"
        case .unknownTimeZone(let s): "unknown time zone '\(s)'"
        case .invalidQuantity(let f, let v): "invalid quantity \(f)=\(v)"
        case .invalidPrice(let f, let v): "invalid price \(f)=\(v)"
        case .unknownContract(let s, let id): "unknown contract \(s) (conId \(id))"
        case .unknownInstrument(let id): "no contract for instrument \(id)"
        case .missingField(let f): "missing field \(f)"
        }
    }
}
