import TWSProtocol

extension TWSConnection {
    /// The open orders of every client of the account, and those entered in TWS (reqAllOpenOrders), collected
    /// until openOrderEnd. Each order's `clientID` says which client placed it (only that client can cancel it).
    /// - Returns: each open order with its terms and state.
    /// - Throws: `TWSRequestError`.
    public func allOpenOrders() async throws(TWSRequestError) -> [TWSOpenOrder] {
        let result = try await collect(.openOrders, request: .allOpenOrders)
        return decodeAll(result).compactMap { response in
            if case .openOrder(let order) = response { return order }
            return nil
        }
    }
}
