import NIOCore
import TWSProtocol

extension TWSConnection {
    /// Takes the next order id (nextValidId, above every order id seen).
    /// - Throws: `TWSRequestError.notConnected` before nextValidId arrived.
    public func nextOrderID() throws(TWSRequestError) -> Int {
        guard let id = orderIDs.next() else { throw .notConnected }
        return id
    }

    /// Sends a group of orders under ids already taken (`nextOrderID()`), in one call: every order is encoded
    /// first, then all are queued in order (a bracket's parent and children with only the last transmitting), and
    /// written at once when the rate limiter lets them go.
    /// - Returns: when the group was handed to the transport (for a latency measure that ends there, not when the
    ///   caller resumes); `nil` when the rate limiter holds some of it (it leaves later).
    /// - Throws: `TWSRequestError.notConnected` unless ready, `.invalidRequest` when an order cannot be encoded
    ///   (then nothing of the group is queued).
    @discardableResult
    public func submitOrders(
        _ placements: [TWSOrderPlacement], contract: TWSContract, legContracts: [TWSContract]? = nil
    ) throws(TWSRequestError) -> ContinuousClock.Instant? {
        guard case .ready = phase, let version = negotiatedVersion else { throw .notConnected }
        // Encoded first, so nothing of the group is queued unless all of it is.
        var frames: [ByteBuffer] = []
        frames.reserveCapacity(placements.count)
        for (k, placement) in placements.enumerated() {
            let contract = legContracts.flatMap { k < $0.count ? $0[k] : nil } ?? contract
            do {
                frames.append(try TWSRequest.encodePlaceOrder(placement, contract: contract, serverVersion: version))
            } catch {
                throw .invalidRequest("\(error)")
            }
        }
        for (placement, frame) in zip(placements, frames) {
            recentOrderIDs.insert(placement.orderID)
            orderIDs.observe(orderID: placement.orderID)
            enqueue(frame, dependency: .order(placement.orderID))
        }
        return scheduler.isEmpty && writer != nil && writeFailure == nil ? .now : nil
    }

    /// Places a new order (placeOrder) under a fresh order id. Follow it on `orderEvents()`.
    /// - Parameters:
    ///   - order: the order (action, quantity, type, prices, TIF, …).
    ///   - contract: the contract.
    /// - Returns: the order id used.
    /// - Throws: `TWSRequestError.notConnected`, `.invalidRequest` when the order cannot be encoded.
    @discardableResult
    public func placeOrder(_ order: TWSOrder, contract: TWSContract) async throws(TWSRequestError) -> Int {
        _ = try await readySession()
        let id = try nextOrderID()
        try submit(orderID: id, order: order, contract: contract)
        return id
    }

    /// Modifies an order: placeOrder again with the same order id and the new terms. A 321 rejection of a modify
    /// leaves the original order live.
    /// - Throws: `TWSRequestError.notConnected`, `.invalidRequest`.
    public func modifyOrder(id orderID: Int, order: TWSOrder, contract: TWSContract) async throws(TWSRequestError) {
        _ = try await readySession()
        try submit(orderID: orderID, order: order, contract: contract)
    }

    private func submit(orderID: Int, order: TWSOrder, contract: TWSContract) throws(TWSRequestError) {
        recentOrderIDs.insert(orderID)
        orderIDs.observe(orderID: orderID)
        try send(.placeOrder(orderID: orderID, contract: contract, order: order))
    }

    /// Cancels an order (cancelOrder); cancels leave before any other queued message.
    /// - Throws: `TWSRequestError.notConnected`.
    public func cancelOrder(_ orderID: Int, options: TWSOrderCancel = TWSOrderCancel()) async throws(TWSRequestError) {
        _ = try await readySession()
        recentOrderIDs.insert(orderID)
        try send(.cancelOrder(orderID: orderID, options), priority: .cancel)
    }

    /// Cancels every open order of the account, including those of other clients and TWS (reqGlobalCancel).
    /// - Throws: `TWSRequestError.notConnected`.
    public func globalCancel(options: TWSOrderCancel = TWSOrderCancel()) async throws(TWSRequestError) {
        _ = try await readySession()
        try send(.globalCancel(options), priority: .cancel)
    }

    /// The open orders of this client (reqOpenOrders), collected until openOrderEnd.
    /// - Returns: each open order with its terms and state.
    /// - Throws: `TWSRequestError`.
    public func openOrders() async throws(TWSRequestError) -> [TWSOpenOrder] {
        let result = try await collect(.openOrders, request: .openOrders)
        return decodeAll(result).compactMap { response in
            if case .openOrder(let order) = response { return order }
            return nil
        }
    }

    /// This session's executions that match `filter` (reqExecutions), with the commission reports received so far.
    /// - Parameter filter: client id, account, time, symbol, … (empty matches everything of today).
    /// - Returns: the executions, in the order TWS sent them.
    /// - Throws: `TWSRequestError`.
    public func executions(filter: TWSExecutionFilter = TWSExecutionFilter()) async throws(TWSRequestError)
        -> [TWSExecutionReport]
    {
        let requestID = nextRequestID()
        let result = try await collect(.request(requestID), request: .executions(requestID: requestID, filter: filter))
        return decodeAll(result).compactMap { response in
            guard case .executionDetails(_, _, let execution) = response else { return nil }
            return executionJoiner.report(executionID: execution.executionID)
        }
    }

    /// Completed orders (reqCompletedOrders, until completedOrdersEnd) as messages with a payload each: the bytes
    /// received for a completedOrder that does not decode, the message re-encoded at the negotiated version for one
    /// that does (the read loop decodes every message once). `completedOrderList(apiOnly:)` gives them decoded.
    /// - Parameter apiOnly: only orders placed through the API.
    /// - Returns: the completedOrder messages.
    /// - Throws: `TWSRequestError`.
    public func completedOrders(apiOnly: Bool = false) async throws(TWSRequestError) -> [TWSInboundMessage] {
        let result = try await collect(.completedOrders, request: .completedOrders(apiOnly: apiOnly))
        let version = negotiatedVersion ?? configuration.versions.upperBound
        return result.items.compactMap { item in
            switch item {
            case .undecodable(let message, _):
                return message
            case .response(let response):
                do {
                    return TWSInboundMessage(
                        messageID: response.messageID, payload: try response.encodePayload(serverVersion: version))
                } catch {
                    logger.warning("skipping completedOrder that cannot be re-encoded: \(error)")
                    return nil
                }
            }
        }
    }
}
