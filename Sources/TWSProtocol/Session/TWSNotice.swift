/// One errMsg from TWS, as a value: notices ride on streams, terminal ones become `TWSRequestError.rejected`.
public struct TWSNotice: Sendable, Equatable, CustomStringConvertible, Codable {
    /// The request, ticker or order it is about; −1 when it concerns the connection.
    public var requestID: Int
    /// The errMsg code (PROTOCOL.md §7).
    public var code: Int
    /// The text, as TWS sent it.
    public var message: String
    /// The advanced order-reject JSON (order rejections, ≥166); `nil` when empty.
    public var advancedOrderRejectJSON: String?
    /// When TWS raised it, in epoch milliseconds (≥194); `nil` before.
    public var errorTimeMilliseconds: Int64?

    /// Creates a notice.
    public init(
        requestID: Int, code: Int, message: String,
        advancedOrderRejectJSON: String? = nil, errorTimeMilliseconds: Int64? = nil
    ) {
        self.requestID = requestID
        self.code = code
        self.message = message
        self.advancedOrderRejectJSON = advancedOrderRejectJSON
        self.errorTimeMilliseconds = errorTimeMilliseconds
    }

    /// How the client treats this code.
    public var disposition: TWSErrorDisposition {
        TWSErrorClassification.disposition(code: code, requestID: requestID)
    }

    public var description: String { "TWS \(code) (id \(requestID)): \(message)" }
}
