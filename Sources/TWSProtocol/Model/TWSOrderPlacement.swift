import NIOCore

/// An order under the TWS order id it goes out with: what one placeOrder sends.
public struct TWSOrderPlacement: Sendable, Hashable, Codable {
    /// The TWS order id.
    public var orderID: Int
    /// The order's terms.
    public var order: TWSOrder

    /// Creates a placement.
    public init(orderID: Int, order: TWSOrder) {
        self.orderID = orderID
        self.order = order
    }
}

extension TWSRequest {
    /// The framed placeOrder of a placement: the bytes of
    /// `TWSRequest.placeOrder(orderID:contract:order:).encode(serverVersion:)`, without building the request, so the
    /// order path does not copy the order's ~130 fields once more.
    /// - Parameters:
    ///   - placement: the order and its id.
    ///   - contract: the contract.
    ///   - serverVersion: the negotiated version.
    /// - Returns: the framed bytes.
    /// - Throws: `TWSEncodingError.unrepresentable` from 201 (a non-numeric multiplier in protobuf; no time in
    ///   force from 225); the text layout below 201 never fails.
    public static func encodePlaceOrder(
        _ placement: TWSOrderPlacement, contract: TWSContract, serverVersion: Int
    ) throws(TWSEncodingError) -> ByteBuffer {
        if TWSProtobufGates.usesBinaryMessageID(serverVersion: serverVersion) {
            return try TWSRequest.placeOrder(orderID: placement.orderID, contract: contract, order: placement.order)
                .encode(serverVersion: serverVersion)
        }
        try TWSRequest.checkOrder(placement.order, serverVersion: serverVersion)
        var writer = TWSFieldWriter(style: .python, capacity: 1024)
        writer.beginFrame()
        writer.write(placeOrderMessageID)
        writer.write(placement.orderID)
        placement.order.writePlaceOrderFields(contract: contract, into: &writer, serverVersion: serverVersion)
        return writer.finishFrame()
    }

    /// placeOrder's message id (PROTOCOL.md §5.10).
    static let placeOrderMessageID = 3
}
