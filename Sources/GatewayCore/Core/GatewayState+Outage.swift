import TWSProtocol

// While TWS is cut off from IB (between 1100 and 1101/1102) nothing live reaches a client: real-time bars, ticks,
// P&L and the order events of fills that happen meanwhile are withheld (lost, as with real TWS). Requests are still
// answered, so reqExecutions / reqOpenOrders after the restoration show what was missed.
extension GatewayState {
    /// The executions made during the current loss of connectivity (none while connected): IB's, not yet TWS's, so
    /// no client has heard of them.
    public var executionsDuringOutage: [ExecutionRecord] {
        guard let since = connectivityLostSince else { return [] }
        return executions.filter { $0.time >= since }
    }

    /// Drops the live messages a client would not get while connectivity is lost.
    func withholdingLiveMessages(_ actions: [GatewayAction]) -> [GatewayAction] {
        guard isConnectivityLost else { return actions }
        return actions.filter { action in
            guard case .send(_, let response) = action else { return true }
            return !Self.isLive(response)
        }
    }

    /// A message TWS pushes on its own (not an answer to a request).
    static func isLive(_ response: TWSResponse) -> Bool {
        switch response {
        case .realTimeBar, .tickPrice, .tickSize, .tickString, .tickGeneric, .historicalDataUpdate, .pnl, .pnlSingle,
            .orderStatus, .openOrder, .commissionReport:
            return true
        case .executionDetails(let requestID, _, _):
            return requestID < 0
        default:
            return false
        }
    }

    /// The `lost-after-order` fault: the order's acknowledgement (openOrder, orderStatus) goes out, then 1100, and
    /// what follows (its fill, commission, final status) is withheld until restored.
    mutating func losingConnectivity(after placed: [GatewayAction]) -> [GatewayAction] {
        var out: [GatewayAction] = []
        var rest = placed[...]
        while let first = rest.first {
            out.append(first)
            rest = rest.dropFirst()
            if case .send(_, .orderStatus) = first { break }
        }
        out += connectivityLost()
        return out + withholdingLiveMessages(Array(rest))
    }
}
