import TWSProtocol

extension TWSConnection {
    /// TWS's what-if preview of an order: placeOrder with `whatIf` set under a fresh order id; TWS answers with one
    /// openOrder whose state carries the margin before, change and after, the equity with loan and the commission,
    /// and keeps no order.
    /// - Parameters:
    ///   - order: the order's terms (`whatIf` is set here).
    ///   - contract: the contract.
    ///   - timeout: how long to wait for the answer; by default the connection's `requestTimeout` (the manual
    ///     commands' `--timeout`), or 10 s when it has none.
    /// - Returns: the preview's order state.
    /// - Throws: `TWSRequestError.rejected` when TWS refuses the order (its errMsg), `.timedOut`, `.notConnected`.
    public func whatIf(
        _ order: TWSOrder, contract: TWSContract, timeout: Duration? = nil
    ) async throws(TWSRequestError) -> TWSOrderState {
        let timeout = timeout ?? configuration.requestTimeout ?? .seconds(10)
        var order = order
        order.whatIf = true
        order.transmit = true
        let events = orderEvents()
        let orderID = try await placeOrder(order, contract: contract)
        let timedOut = Result<TWSOrderState, TWSRequestError>.failure(
            .timedOut(waitingFor: "the what-if preview of order \(orderID)"))
        let result = await firstAnswer(within: timeout, clock: environment.clock, else: timedOut) {
            do {
                for try await event in events {
                    switch event {
                    case .openOrder(let open) where open.order.orderID == orderID:
                        return .success(open.orderState)
                    case .notice(let notice) where notice.requestID == orderID && !Self.isOrderWarning(notice.code):
                        return .failure(.rejected(notice))
                    default: continue
                    }
                }
            } catch {}
            return .failure(.connectionClosed(reason: "the order events ended before the what-if answer"))
        }
        return try result.get()
    }

    /// TWS's informational order codes (399 "will not be placed until…", 2100–2199 notes), not refusals.
    static func isOrderWarning(_ code: Int) -> Bool { code == 399 || (2100..<2200).contains(code) }
}
