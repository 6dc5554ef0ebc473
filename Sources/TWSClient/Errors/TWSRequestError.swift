import TWSProtocol

/// Why a request failed or a subscription ended with an error.
public enum TWSRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// TWS answered with a terminal errMsg for this request (200 no security definition, 162 historical data
    /// error, 201 order rejected, …).
    case rejected(TWSNotice)
    /// The request was made while not connected (client-side code 504).
    case notConnected
    /// The connection closed before the answer was complete.
    case connectionClosed(reason: String?)
    /// No answer came in time; the text says what was awaited.
    case timedOut(waitingFor: String)
    /// The request cannot be encoded at the negotiated server version, or its arguments are invalid.
    case invalidRequest(String)
    /// The caller's task was cancelled.
    case cancelled

    /// The errMsg code when TWS rejected the request.
    public var code: Int? {
        switch self {
        case .rejected(let notice): return notice.code
        case .notConnected: return 504
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .rejected(let notice):
            return "request \(notice.requestID) rejected by TWS: \(notice.code) \(notice.message)"
        case .notConnected:
            return "not connected to TWS/IB Gateway (504)"
        case .connectionClosed(let reason):
            return "the connection to TWS/IB Gateway closed" + (reason.map { ": \($0)" } ?? "")
        case .timedOut(let waitingFor):
            return "timed out waiting for \(waitingFor)"
        case .invalidRequest(let text):
            return "invalid request: \(text)"
        case .cancelled:
            return "request cancelled"
        }
    }
}
