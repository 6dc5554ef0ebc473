import TWSProtocol

extension TWSHistoricalBarsQuery {
    /// The wire request for a request id.
    func request(requestID: Int, keepUpToDate: Bool) -> TWSHistoricalDataRequest {
        TWSHistoricalDataRequest(
            requestID: requestID, contract: contract, endDateTime: keepUpToDate ? "" : endDateTime,
            durationString: duration, barSizeSetting: barSize, whatToShow: whatToShow, useRTH: useRTH,
            formatDate: formatDate, keepUpToDate: keepUpToDate
        )
    }

    /// How the pacing planner sees this query.
    func pacingRequest(keepUpToDate: Bool) -> HistoricalPacingRequest {
        let identity =
            contract.contractID != 0
            ? "#\(contract.contractID)"
            : [
                contract.symbol, contract.securityType, contract.lastTradeDateOrContractMonth,
                contract.strike.map { "\($0)" } ?? "", contract.right, contract.multiplier, contract.currency,
                contract.localSymbol,
            ].joined(separator: "/")
        let series = "\(identity)@\(contract.exchange)/\(contract.primaryExchange):\(whatToShow)"
        let signature = [series, endDateTime, duration, barSize, "\(useRTH)", "\(formatDate)", "\(keepUpToDate)"]
            .joined(separator: "|")
        return HistoricalPacingRequest(signature: signature, seriesKey: series, isBidAsk: whatToShow == "BID_ASK")
    }
}

/// One element of a keep-up-to-date historical bars stream.
public enum TWSHistoricalBarsEvent: Sendable, Equatable {
    /// The initial bars (historicalData).
    case bars([TWSBar])
    /// The still-forming last bar, or the next one (historicalDataUpdate).
    case update(TWSBar)
}

extension TWSConnection {
    // MARK: - Contracts

    /// Looks up contracts (reqContractDetails): one result per match; several mean the contract is ambiguous.
    /// - Parameter contract: a partial contract (symbol, security type, exchange, currency, …).
    /// - Returns: the matching contract details (empty when TWS returned none).
    /// - Throws: `TWSRequestError.rejected` with code 200 when no security definition was found.
    public func contractDetails(_ contract: TWSContract) async throws(TWSRequestError) -> [TWSContractDetails] {
        let requestID = nextRequestID()
        let result = try await collect(
            .request(requestID), request: .contractDetails(requestID: requestID, contract: contract))
        return decodeAll(result).compactMap { response in
            if case .contractDetails(_, let details) = response { return details }
            return nil
        }
    }

    /// The price increments of a market rule (reqMarketRule), by rising low edge: a rule id comes from the contract
    /// details' `marketRuleIDs` (`TWSContractDetails.marketRuleID(forExchange:)`).
    ///
    /// The answer carries the rule id and no request id: it is matched by the rule id (two calls for the same rule
    /// get the answers in order). TWS refuses an unknown rule with an errMsg of request id -1; one that names the
    /// market rule and this id (the simulator's 321) ends the call at once, anything else leaves it to the request
    /// timeout.
    /// - Parameter id: the rule id.
    /// - Returns: the rule's bands (empty when TWS sends none).
    /// - Throws: `TWSRequestError` (`timedOut` when TWS does not answer within `requestTimeout`).
    public func marketRule(_ id: Int) async throws(TWSRequestError) -> [TWSPriceIncrement] {
        let result = try await collect(.marketRule(id), request: .marketRule(marketRuleID: id), firstItemCompletes: true)
        for response in decodeAll(result) {
            if case .marketRule(_, let increments) = response { return increments }
        }
        throw .invalidRequest("the marketRule answer for rule \(id) could not be decoded")
    }

    // MARK: - Historical bars

    /// Downloads historical bars (reqHistoricalData, keepUpToDate off), paced so TWS never reports a pacing
    /// violation: the request may wait in the client (PROTOCOL.md §8.2).
    /// - Parameter query: contract, period and bar size.
    /// - Returns: the bars, oldest first.
    /// - Throws: `TWSRequestError.rejected` (162 no data / query error, 200 unknown contract, 321 bad request).
    public func historicalBars(_ query: TWSHistoricalBarsQuery) async throws(TWSRequestError) -> [TWSBar] {
        let requestID = nextRequestID()
        let result = try await collect(
            .request(requestID), request: .historicalData(query.request(requestID: requestID, keepUpToDate: false)),
            cancel: .cancelHistoricalData(requestID: requestID),
            path: .paced(.historical, query.pacingRequest(keepUpToDate: false), requestID: requestID)
        )
        return decodeAll(result).flatMap { response -> [TWSBar] in
            if case .historicalData(_, _, _, let bars) = response { return bars }
            return []
        }
    }

    /// Historical bars that stay up to date (keepUpToDate on): first `.bars`, then `.update` for the forming bar.
    /// Stopping the stream sends cancelHistoricalData.
    /// - Parameter query: contract, period and bar size (`endDateTime` is ignored: it must be empty).
    /// - Returns: the stream.
    /// - Throws: `TWSRequestError.notConnected`; TWS errors end the stream.
    public func historicalBarsKeepingUpToDate(
        _ query: TWSHistoricalBarsQuery
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<TWSHistoricalBarsEvent>, any Error> {
        let requestID = nextRequestID()
        let path = OutboundPath.paced(.historical, query.pacingRequest(keepUpToDate: true), requestID: requestID)
        return try await subscribe(
            .request(requestID), request: .historicalData(query.request(requestID: requestID, keepUpToDate: true)),
            cancel: .cancelHistoricalData(requestID: requestID), options: SubscriptionOptions(path: path)
        ) { response in
            switch response {
            case .historicalData(_, _, _, let bars): return .bars(bars)
            case .historicalDataUpdate(_, let bar): return .update(bar)
            default: return nil
            }
        }
    }

    // MARK: - Real-time bars

    /// 5-second real-time bars (reqRealTimeBars) until the consumer stops, which sends cancelRealTimeBars. New
    /// requests are paced to at most 60 per 10 minutes.
    /// - Parameters:
    ///   - contract: the contract.
    ///   - whatToShow: `TRADES`, `MIDPOINT`, `BID` or `ASK`.
    ///   - useRTH: regular trading hours only.
    /// - Returns: the stream of bars and notices.
    /// - Throws: `TWSRequestError.notConnected`; TWS errors (420, 354, …) end the stream.
    public func realTimeBars(
        contract: TWSContract, whatToShow: String = "TRADES", useRTH: Bool = true
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<TWSRealTimeBar>, any Error> {
        try await streamed { receiver throws(TWSRequestError) in
            try await realTimeBars(contract: contract, whatToShow: whatToShow, useRTH: useRTH, into: receiver)
        }
    }

    /// 5-second real-time bars handed to `receiver` as they are read (`TWSReceiver`), until `cancel()` on the
    /// result, which sends cancelRealTimeBars; otherwise as `realTimeBars(contract:whatToShow:useRTH:)`.
    public func realTimeBars(
        contract: TWSContract, whatToShow: String = "TRADES", useRTH: Bool = true,
        into receiver: TWSReceiver<SubscriptionItem<TWSRealTimeBar>>
    ) async throws(TWSRequestError) -> TWSSubscription {
        let (requestID, request, pacingRequest) = realTimeBarsRequest(contract, whatToShow, useRTH)
        return try await subscribe(
            .request(requestID), request: .realTimeBars(request), cancel: .cancelRealTimeBars(requestID: requestID),
            options: SubscriptionOptions(path: .paced(.realTimeBars, pacingRequest, requestID: requestID)),
            into: receiver
        ) { response in
            if case .realTimeBar(_, let bar) = response { return bar }
            return nil
        }
    }

    private func realTimeBarsRequest(
        _ contract: TWSContract, _ whatToShow: String, _ useRTH: Bool
    ) -> (Int, TWSRealTimeBarsRequest, HistoricalPacingRequest) {
        let requestID = nextRequestID()
        let request = TWSRealTimeBarsRequest(
            requestID: requestID, contract: contract, whatToShow: whatToShow, useRTH: useRTH)
        // Only the 60-new-requests-per-10-minutes rule applies; the signature is unique, so no identical rule.
        let pacingRequest = HistoricalPacingRequest(
            signature: "rtb:\(requestID)", seriesKey: "rtb:\(requestID)", isBidAsk: false)
        return (requestID, request, pacingRequest)
    }
}
