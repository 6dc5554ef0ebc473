import NIOCore
import TWSProtocol

extension TWSConnection {
    /// Takes the next order id (nextValidId, above every order id seen).
    /// - Throws: `TWSRequestError.notConnected` before nextValidId arrived.
    public func nextOrderID() throws(TWSRequestError) -> Int {
        try takeOrderID()
    }

    /// Takes the next order id without a hop onto the connection's actor: the order path of a trading session
    /// (`IBBroker`) allocates, journals and then submits (`submitOrders`).
    /// - Throws: `TWSRequestError.notConnected` before nextValidId arrived.
    public nonisolated func takeOrderID() throws(TWSRequestError) -> Int {
        guard let id = orderIDs.next() else { throw .notConnected }
        return id
    }

    /// Sends a group of orders under ids already taken (`takeOrderID()`), in one call: every order is encoded
    /// first, then all are queued in order (a bracket's parent and children with only the last transmitting).
    /// - Throws: `TWSRequestError.notConnected` unless ready (then nothing of the group is queued).
    public func submitOrders(_ placements: [TWSOrderPlacement], contract: TWSContract) throws(TWSRequestError) {
        guard case .ready = phase, let version = negotiatedVersion else { throw .notConnected }
        // Encoded in place (placeOrder never fails to encode), so nothing of the group is queued unless all of it is.
        var frames: [ByteBuffer] = []
        frames.reserveCapacity(placements.count)
        for placement in placements {
            frames.append(TWSRequest.encodePlaceOrder(placement, contract: contract, serverVersion: version))
        }
        for (placement, frame) in zip(placements, frames) { enqueue(frame, dependency: .order(placement.orderID)) }
        notePlaced(placements.lazy.map(\.orderID))
    }

    /// Sends a group of orders of the usual kinds under ids already taken, encoded through a template for their
    /// contract (`TWSPlaceOrderTemplate`: the same bytes as `submitOrders(_:contract:)` for `terms.order`, without
    /// building the full orders). A template for another server version than the negotiated one is not used: the
    /// orders are then encoded in full.
    /// - Throws: `TWSRequestError.notConnected` unless ready (then nothing of the group is queued).
    public func submitOrders(
        _ placements: [TWSOrderTermsPlacement], template: TWSPlaceOrderTemplate
    ) throws(TWSRequestError) {
        guard case .ready = phase, let version = negotiatedVersion else { throw .notConnected }
        // Each order queued as it is encoded: encoding cannot fail, so the whole group is queued, in order.
        for placement in placements {
            let frame =
                template.serverVersion == version
                ? template.encode(placement)
                : TWSRequest.encodePlaceOrder(
                    TWSOrderPlacement(orderID: placement.orderID, order: placement.terms.order),
                    contract: template.contract, serverVersion: version)
            enqueue(frame, dependency: .order(placement.orderID))
        }
        notePlaced(placements.lazy.map(\.orderID))
    }

    /// Notes a group's ids as placed: after its frames left, off the tick-to-order path, as nothing about these
    /// orders is routed before the caller returns (routing runs on this actor).
    private func notePlaced(_ ids: some Sequence<Int>) {
        for id in ids {
            recentOrderIDs.insert(id)
            orderIDs.observe(orderID: id)
        }
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

    /// `modifyOrder` without suspending, for a ready connection (the synchronous order path).
    /// - Throws: `TWSRequestError.notConnected` unless ready, `.invalidRequest`.
    public func modifyOrderNow(id orderID: Int, order: TWSOrder, contract: TWSContract) throws(TWSRequestError) {
        guard case .ready = phase else { throw .notConnected }
        try submit(orderID: orderID, order: order, contract: contract)
    }

    /// `cancelOrder` without suspending, for a ready connection (the synchronous order path).
    /// - Throws: `TWSRequestError.notConnected` unless ready.
    public func cancelOrderNow(_ orderID: Int, options: TWSOrderCancel = TWSOrderCancel()) throws(TWSRequestError) {
        guard case .ready = phase else { throw .notConnected }
        recentOrderIDs.insert(orderID)
        try send(.cancelOrder(orderID: orderID, options), priority: .cancel)
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
