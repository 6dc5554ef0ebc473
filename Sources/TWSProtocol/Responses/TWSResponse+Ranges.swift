/// Range checks on decoded responses (`TWSValueRange`): both decoding paths apply them to what they decoded.
extension TWSResponse {
    /// The first value outside its documented range, as the error the decoder throws; `nil` when all are in range.
    func rangeError() -> TWSDecodingError? {
        switch self {
        case .nextValidID(let orderID):
            return Self.check(orderID, TWSValueRange.orderIDs, "orderId", in: self)
        case .currentTime(let seconds):
            return Self.check(seconds, TWSValueRange.epochSeconds, "time", in: self)
        case .currentTimeInMillis(let milliseconds):
            let seconds = milliseconds >= 0 ? milliseconds / 1_000 : (milliseconds + 1) / 1_000 - 1
            return Self.check(seconds, TWSValueRange.epochSeconds, "timeInMillis", in: self, shown: milliseconds)
        case .orderStatus(let status):
            return Self.check(status.orderID, TWSValueRange.javaInt, "orderId", in: self)
                ?? Self.check(status.parentID, TWSValueRange.javaInt, "parentId", in: self)
                ?? Self.check(status.clientID, TWSValueRange.javaInt, "clientId", in: self)
        case .openOrder(let open):
            return Self.check(open.order.orderID, TWSValueRange.javaInt, "orderId", in: self)
                ?? Self.check(open.order.parentID, TWSValueRange.javaInt, "parentId", in: self)
                ?? Self.check(open.order.clientID, TWSValueRange.javaInt, "clientId", in: self)
        case .executionDetails(_, _, let execution):
            return Self.check(execution.orderID, TWSValueRange.javaInt, "orderId", in: self)
                ?? Self.check(execution.clientID, TWSValueRange.javaInt, "clientId", in: self)
        case .realTimeBar(_, let bar):
            return Self.check(bar.time, TWSValueRange.epochSeconds, "time", in: self)
        default:
            return nil
        }
    }

    private static func check<Value: BinaryInteger>(
        _ value: Value, _ range: ClosedRange<Value>, _ field: String, in response: TWSResponse, shown: Int64? = nil
    ) -> TWSDecodingError? {
        guard !range.contains(value) else { return nil }
        let text = shown.map { String($0) } ?? String(value)
        let allowed = "\(range.lowerBound)…\(range.upperBound)"
        return .outOfRange(message: response.messageName, field: field, value: text, allowed: allowed)
    }
}
