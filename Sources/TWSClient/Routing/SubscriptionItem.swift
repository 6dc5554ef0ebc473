import TWSProtocol

/// One element of a subscription stream: data, or a TWS notice (a warning that does not end the stream).
///
/// Terminal errors end the stream with a thrown `TWSRequestError` instead.
///
/// ```swift
/// for try await item in try await connection.realTimeBars(request) {
///     switch item {
///     case .data(let bar): print(bar)
///     case .notice(let notice): logger.notice("\(notice)")
///     }
/// }
/// ```
public enum SubscriptionItem<Value: Sendable>: Sendable {
    /// A value.
    case data(Value)
    /// A notice about this subscription (e.g. 10167 "displaying delayed data").
    case notice(TWSNotice)

    /// The value, or `nil` for a notice.
    public var value: Value? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The same item with its value transformed.
    public func map<Other: Sendable>(_ transform: (Value) throws -> Other) rethrows -> SubscriptionItem<Other> {
        switch self {
        case .data(let value): return .data(try transform(value))
        case .notice(let notice): return .notice(notice)
        }
    }
}

extension SubscriptionItem: Equatable where Value: Equatable {}
