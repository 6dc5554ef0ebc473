import Foundation
import TWSProtocol

/// One value of reqAccountSummary.
public struct TWSAccountSummaryValue: Sendable, Equatable {
    /// The account.
    public var account: String
    /// The tag, e.g. `NetLiquidation`.
    public var tag: String
    /// The value, as text.
    public var value: String
    /// The currency (empty for non-monetary tags).
    public var currency: String

    /// Creates a summary value.
    public init(account: String, tag: String, value: String, currency: String) {
        self.account = account
        self.tag = tag
        self.value = value
        self.currency = currency
    }
}

/// One update of reqAccountUpdates.
public enum TWSAccountUpdate: Sendable, Equatable {
    /// updateAccountValue.
    case value(key: String, value: String, currency: String, account: String)
    /// updatePortfolio.
    case portfolio(TWSPortfolioValue)
    /// updateAccountTime (`HH:mm`).
    case time(String)
    /// accountDownloadEnd: the first full download is complete.
    case downloadEnd(account: String)
}

/// Daily, unrealized and realized P&L of reqPnL; unavailable values are `nil`.
public struct TWSPnL: Sendable, Equatable {
    /// Today's P&L.
    public var daily: Double?
    /// Unrealized P&L.
    public var unrealized: Double?
    /// Realized P&L.
    public var realized: Double?

    /// Creates a P&L value.
    public init(daily: Double?, unrealized: Double?, realized: Double?) {
        self.daily = daily
        self.unrealized = unrealized
        self.realized = realized
    }
}

extension TWSConnection {
    /// All positions of the accounts (reqPositions until positionEnd, then cancelPositions).
    /// - Returns: the positions.
    /// - Throws: `TWSRequestError`.
    public func positions() async throws(TWSRequestError) -> [TWSPosition] {
        let result = try await collect(.positions, request: .positions, cancel: .cancelPositions)
        try send(.cancelPositions, priority: .cancel)
        return decodeAll(result).compactMap { response in
            guard case .position(let account, let contract, let quantity, let cost) = response else { return nil }
            return TWSPosition(account: account, contract: contract, quantity: quantity, averageCost: cost)
        }
    }

    /// Account values and portfolio updates of one account (reqAccountUpdates) until the consumer stops, which
    /// unsubscribes. TWS allows one such subscription per client.
    /// - Parameter account: the account code (one of `TWSSessionInfo.accounts`).
    /// - Returns: the stream.
    /// - Throws: `TWSRequestError.notConnected`.
    public func accountUpdates(
        account: String
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<TWSAccountUpdate>, any Error> {
        try await subscribe(
            .accountUpdates, request: .accountUpdates(subscribe: true, accountCode: account),
            cancel: .accountUpdates(subscribe: false, accountCode: account)
        ) { response in
            switch response {
            case .accountValue(let key, let value, let currency, let name):
                return .value(key: key, value: value, currency: currency, account: name)
            case .portfolioValue(let item): return .portfolio(item)
            case .accountTime(let time): return .time(time)
            case .accountDownloadEnd(let name): return .downloadEnd(account: name)
            default: return nil
            }
        }
    }

    /// An account summary (reqAccountSummary until accountSummaryEnd, then cancelAccountSummary).
    /// - Parameters:
    ///   - group: `All` or an account group.
    ///   - tags: comma-separated tags, e.g. `NetLiquidation,TotalCashValue,BuyingPower`.
    /// - Returns: one value per account and tag.
    /// - Throws: `TWSRequestError` (322 when too many summaries are open).
    public func accountSummary(
        group: String = "All", tags: String = "NetLiquidation,TotalCashValue,BuyingPower"
    ) async throws(TWSRequestError) -> [TWSAccountSummaryValue] {
        let requestID = nextRequestID()
        let cancel = TWSRequest.cancelAccountSummary(requestID: requestID)
        let result = try await collect(
            .request(requestID), request: .accountSummary(requestID: requestID, group: group, tags: tags),
            cancel: cancel
        )
        try send(cancel, priority: .cancel)
        return decodeAll(result).compactMap { response in
            guard case .accountSummary(_, let account, let tag, let value, let currency) = response else { return nil }
            return TWSAccountSummaryValue(account: account, tag: tag, value: value, currency: currency)
        }
    }

    /// Account P&L about once a second (reqPnL) until the consumer stops, which sends cancelPnL.
    /// - Parameters:
    ///   - account: the account code.
    ///   - modelCode: the model code; empty for none.
    /// - Returns: the stream.
    /// - Throws: `TWSRequestError.notConnected`.
    public func pnl(
        account: String, modelCode: String = ""
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<TWSPnL>, any Error> {
        let requestID = nextRequestID()
        return try await subscribe(
            .request(requestID), request: .pnl(requestID: requestID, account: account, modelCode: modelCode),
            cancel: .cancelPnL(requestID: requestID)
        ) { response in
            guard case .pnl(_, let daily, let unrealized, let realized) = response else { return nil }
            return TWSPnL(daily: daily, unrealized: unrealized, realized: realized)
        }
    }

    /// The account's first reqPnL update, then the subscription is cancelled: a one-off read of the day's P&L (the
    /// manual commands' daily-loss check, `ibtrader account`).
    /// - Parameters:
    ///   - account: the account code.
    ///   - timeout: how long to wait on the connection's clock.
    /// - Returns: the P&L; `nil` when none arrives within `timeout` (TWS sends P&L only for accounts it tracks), or the
    ///   request fails.
    public func firstPnL(account: String, within timeout: Duration) async -> TWSPnL? {
        guard let stream = try? await pnl(account: account) else { return nil }
        return await firstAnswer(within: timeout, clock: environment.clock, else: nil) { () async -> TWSPnL?? in
            do {
                for try await item in stream {
                    if case .data(let pnl) = item { return pnl }
                }
            } catch {}
            return .some(nil)
        }
    }

    /// P&L of one position about once a second (reqPnLSingle) until the consumer stops (cancelPnLSingle).
    /// - Parameters:
    ///   - account: the account code.
    ///   - contractID: the contract's conId.
    ///   - modelCode: the model code; empty for none.
    /// - Returns: the stream.
    /// - Throws: `TWSRequestError.notConnected`.
    public func pnlSingle(
        account: String, contractID: Int, modelCode: String = ""
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<TWSPnLSingle>, any Error> {
        let requestID = nextRequestID()
        let request = TWSRequest.pnlSingle(
            requestID: requestID, account: account, modelCode: modelCode, contractID: contractID)
        return try await subscribe(
            .request(requestID), request: request, cancel: .cancelPnLSingle(requestID: requestID)
        ) { response in
            guard case .pnlSingle(let value) = response else { return nil }
            return value
        }
    }
}
