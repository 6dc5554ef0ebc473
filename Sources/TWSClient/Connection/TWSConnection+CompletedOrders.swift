import TWSProtocol

extension TWSConnection {
    /// The open orders of every client of the account, TWS's manual orders included (reqAllOpenOrders), collected
    /// until openOrderEnd: what a restart must see, since an earlier run may have used another client id.
    /// - Returns: each open order with its terms and state.
    /// - Throws: `TWSRequestError`.
    public func allOpenOrders() async throws(TWSRequestError) -> [TWSOpenOrder] {
        let result = try await collect(.openOrders, request: .allOpenOrders)
        return decodeAll(result).compactMap { response in
            if case .openOrder(let order) = response { return order }
            return nil
        }
    }

    /// The orders that ended today (reqCompletedOrders, until completedOrdersEnd), decoded: filled, cancelled and
    /// rejected orders with their orderRef and permId, so a restart finds an order that finished while it was down.
    /// - Parameter apiOnly: only orders placed through the API.
    /// - Returns: the completed orders, in the order TWS sent them (a malformed one is logged and skipped).
    /// - Throws: `TWSRequestError`.
    public func completedOrderList(apiOnly: Bool = false) async throws(TWSRequestError) -> [TWSCompletedOrder] {
        let result = try await collect(.completedOrders, request: .completedOrders(apiOnly: apiOnly))
        return decodeAll(result).compactMap { response in
            if case .completedOrder(let order) = response { return order }
            return nil
        }
    }
}
