import Foundation
import TWSProtocol

/// Answers the requests a command or the bot sends that a transcript of a bare client does not name: the start-up
/// reads of the account and the broker's state, contract details and market rules of the contracts the session
/// shows. Answers are the minimal complete ones a gateway gives for an account with nothing else going on (every
/// list ends at once and empty), so the transcript's own steps carry the behaviour under test.
///
/// A request that the transcript names is always played from the transcript, never answered here; a test removes a
/// kind from `answers` to make its absence part of the test (a missing `execDetailsEnd`, say).
public struct TranscriptAmbient: Sendable {
    /// The kinds of request answered.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case requestIDs, currentTime, contractDetails, marketRule, openOrders, positions, executions, completedOrders
        case accountSummary, accountUpdates, pnl, marketDataType, marketData, historicalData, cancels
    }

    /// The kinds answered (all by default).
    public var answers: Set<Kind>
    /// The account's values (`NetLiquidation`, `TotalCashValue`, `BuyingPower`, … in `currency`).
    public var accountValues: [String: String]
    /// The account's currency.
    public var currency: String
    /// Contracts by symbol or local symbol beyond those the transcript shows (the transcript's win).
    public var contracts: [String: TWSContract]
    /// A quote for `marketData` requests: bid, ask, last (`nil`: a cent around the first price the recording shows
    /// for the symbol; none when it shows none).
    public var quote: (bid: Double, ask: Double, last: Double)?
    /// The server's time for `currentTime`, epoch seconds (by default from the connection time).
    public var serverTime: Int64?

    /// Creates a responder that answers everything with an account of 100,000 USD of cash.
    public init(
        answers: Set<Kind> = Set(Kind.allCases), accountValues: [String: String] = TranscriptAmbient.cashAccount(100_000),
        currency: String = "USD", contracts: [String: TWSContract] = [:],
        quote: (bid: Double, ask: Double, last: Double)? = nil, serverTime: Int64? = nil
    ) {
        self.answers = answers
        self.accountValues = accountValues
        self.currency = currency
        self.contracts = contracts
        self.quote = quote
        self.serverTime = serverTime
    }

    /// The values of a cash account holding `cash` and nothing else.
    public static func cashAccount(_ cash: Double) -> [String: String] {
        let text = String(format: "%.2f", cash)
        return [
            "NetLiquidation": text, "TotalCashValue": text, "BuyingPower": text, "AvailableFunds": text,
            "ExcessLiquidity": text, "EquityWithLoanValue": text, "GrossPositionValue": "0.00",
            "InitMarginReq": "0.00", "MaintMarginReq": "0.00", "FullInitMarginReq": "0.00", "FullMaintMarginReq": "0.00",
            "Cushion": "1", "SettledCash": text, "AccountType": "INDIVIDUAL",
        ]
    }

    /// The answers to a request, or `nil` when this responder does not answer it (a mismatch, then).
    func answer(_ request: TWSRequest, context: TranscriptContext, serverVersion: Int) -> [TWSResponse]? {
        let account = context.placed.values.first.map(\.order.account).flatMap { $0.isEmpty ? nil : $0 } ?? "DU0000000"
        switch request {
        case .requestIDs where answers.contains(.requestIDs):
            let next = (context.placed.keys.max() ?? 0) + 1
            return [.nextValidID(orderID: next)]
        case .currentTime where answers.contains(.currentTime):
            return [.currentTime(serverTime ?? 0)]
        case .currentTimeInMillis where answers.contains(.currentTime):
            return [.currentTimeInMillis((serverTime ?? 0) * 1000)]
        case .contractDetails(let id, let wanted) where answers.contains(.contractDetails):
            guard let contract = known(wanted, context: context) else {
                return [.error(TWSErrorMessage(requestID: id, code: 200, message: "No security definition has been found for the request"))]
            }
            var details = TWSContractDetails(contract: contract)
            details.marketName = contract.tradingClass.isEmpty ? contract.symbol : contract.tradingClass
            details.minTick = contract.securityType == "CASH" ? 0.00005 : contract.securityType == "FUT" ? 0.25 : 0.01
            details.orderTypes = "LMT,MKT,STP,STP LMT,TRAIL,MIT,LIT,REL"
            details.validExchanges = contract.exchange
            details.priceMagnifier = 1
            details.marketRuleIDs = "26"
            details.longName = contract.symbol
            details.timeZoneID = "US/Eastern"
            details.minSize = 1
            details.sizeIncrement = 1
            details.suggestedSizeIncrement = 1
            return [.contractDetails(requestID: id, details: details), .contractDetailsEnd(requestID: id)]
        case .marketRule(let id) where answers.contains(.marketRule):
            return [.marketRule(marketRuleID: id, increments: [TWSPriceIncrement(lowEdge: 0, increment: 0.01)])]
        case .openOrders, .allOpenOrders, .autoOpenOrders:
            // The orders the session showed working; reqOpenOrders lists this client's only.
            let mine: Bool = if case .openOrders = request { true } else { false }
            let orders = context.working.values.sorted { $0.order.orderID < $1.order.orderID }
                .filter { !mine || $0.order.clientID == context.clientID }
            return answers.contains(.openOrders) ? orders.map { .openOrder($0) } + [.openOrderEnd] : nil
        case .positions where answers.contains(.positions):
            return positions(context).map { .position(account: account, contract: $0.contract, position: $0.quantity, averageCost: $0.cost) }
                + [.positionEnd]
        case .executions(let id, let filter) where answers.contains(.executions):
            let rows = context.executions.filter { row in
                (filter.symbol.isEmpty || row.contract.symbol == filter.symbol)
                    && (filter.accountCode.isEmpty || row.execution.accountNumber == filter.accountCode)
                    && (filter.clientID == 0 || row.execution.clientID == filter.clientID)
            }
            return rows.flatMap { row -> [TWSResponse] in
                [.executionDetails(requestID: id, contract: row.contract, execution: row.execution)]
                    + (context.commissions[row.execution.executionID].map { [.commissionReport($0)] } ?? [])
            } + [.executionDetailsEnd(requestID: id)]
        case .completedOrders where answers.contains(.completedOrders):
            return [.completedOrdersEnd]
        case .accountSummary(let id, _, let tags) where answers.contains(.accountSummary):
            let wanted = tags.split(separator: ",").map(String.init)
            let rows = wanted.compactMap { tag -> TWSResponse? in
                guard let value = accountValues[tag] else { return nil }
                return .accountSummary(requestID: id, account: account, tag: tag, value: value,
                                       currency: tag == "AccountType" || tag == "Cushion" ? "" : currency)
            }
            return rows + [.accountSummaryEnd(requestID: id)]
        case .accountUpdates(true, let code) where answers.contains(.accountUpdates):
            let name = code.isEmpty ? account : code
            return accountValues.sorted { $0.key < $1.key }.map {
                .accountValue(key: $0.key, value: $0.value, currency: currency, accountName: name)
            } + [.accountDownloadEnd(accountName: name)]
        case .pnl(let id, _, _) where answers.contains(.pnl):
            return [.pnl(requestID: id, dailyPnL: 0, unrealizedPnL: 0, realizedPnL: 0)]
        case .marketDataType where answers.contains(.marketDataType):
            return []
        case .marketData(let r) where answers.contains(.marketData):
            // The test's quote, else one around the first price the recording shows for the symbol.
            let recorded = context.prices[r.contract.symbol].map { (bid: $0 - 0.01, ask: $0 + 0.01, last: $0) }
            guard let quote = quote ?? recorded else {
                return [.marketDataType(requestID: r.requestID, marketDataType: 1)]
                    + (r.snapshot ? [.tickSnapshotEnd(requestID: r.requestID)] : [])
            }
            var out: [TWSResponse] = [
                .marketDataType(requestID: r.requestID, marketDataType: 1),
                .tickPrice(TWSTickPrice(requestID: r.requestID, tickType: .bid, price: quote.bid, size: 100)),
                .tickPrice(TWSTickPrice(requestID: r.requestID, tickType: .ask, price: quote.ask, size: 100)),
                .tickPrice(TWSTickPrice(requestID: r.requestID, tickType: .last, price: quote.last, size: 100)),
            ]
            if r.snapshot { out.append(.tickSnapshotEnd(requestID: r.requestID)) }
            return out
        case .historicalData(let r) where answers.contains(.historicalData):
            return [.historicalDataEnd(requestID: r.requestID, startDate: "", endDate: "")]
        case .cancelMarketData, .cancelRealTimeBars, .cancelHistoricalData, .cancelPositions, .cancelAccountSummary,
            .cancelPnL, .cancelPnLSingle, .accountUpdates(false, _), .realTimeBars:
            return answers.contains(.cancels) ? [] : nil
        default:
            return nil
        }
    }

    /// The net positions of the executions the session showed, by contract (average cost of the buys).
    private func positions(_ context: TranscriptContext) -> [(contract: TWSContract, quantity: Decimal, cost: Double)] {
        var out: [String: (contract: TWSContract, quantity: Decimal, cost: Double)] = [:]
        var order: [String] = []
        for row in context.executions {
            let key = row.contract.localSymbol.isEmpty ? row.contract.symbol : row.contract.localSymbol
            if out[key] == nil {
                out[key] = (row.contract, 0, 0)
                order.append(key)
            }
            let shares = row.execution.shares ?? 0
            let signed = row.execution.side == "SLD" ? -shares : shares
            let before = out[key]!.quantity
            let after = before + signed
            if signed > 0, after != 0 {
                let previous = NSDecimalNumber(decimal: before).doubleValue * out[key]!.cost
                out[key]!.cost = (previous + NSDecimalNumber(decimal: shares).doubleValue * row.execution.price)
                    / NSDecimalNumber(decimal: after).doubleValue
            }
            out[key]!.quantity = after
        }
        return order.compactMap { out[$0] }.filter { $0.quantity != 0 }
    }

    /// A contract the session knows by the request's conId, symbol or local symbol.
    private func known(_ wanted: TWSContract, context: TranscriptContext) -> TWSContract? {
        let all = Array(context.contracts.values) + Array(contracts.values)
        if wanted.contractID != 0, let hit = all.first(where: { $0.contractID == wanted.contractID }) { return hit }
        if !wanted.localSymbol.isEmpty, let hit = all.first(where: { $0.localSymbol == wanted.localSymbol }) { return hit }
        return all.first { contract in
            contract.symbol == wanted.symbol
                && (wanted.securityType.isEmpty || contract.securityType == wanted.securityType)
                && (wanted.lastTradeDateOrContractMonth.isEmpty
                    || contract.lastTradeDateOrContractMonth.hasPrefix(wanted.lastTradeDateOrContractMonth))
        }
    }
}
