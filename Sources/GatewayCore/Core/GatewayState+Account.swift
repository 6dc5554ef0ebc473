import Foundation
import TWSProtocol
import TradingModel

extension GatewayState {
    mutating func accountRequest(_ request: TWSRequest, connection: ConnectionID) -> [GatewayAction] {
        var out: [GatewayAction] = []
        func send(_ r: TWSResponse) { out.append(.send(connection, r)) }
        switch request {
        case .positions:
            // Every managed account's, as TWS sends them (a client picks its own by the account field).
            sessions[connection]?.positions = true
            for book in accounts {
                for (id, holding) in book.holdings.sorted(by: { $0.key < $1.key }) {
                    send(positionMessage(data.instrument(id), holding, account: book.accountCode))
                }
            }
            send(.positionEnd)
        case .cancelPositions:
            sessions[connection]?.positions = false
        case .accountUpdates(let subscribe, let named):
            guard subscribe else {
                sessions[connection]?.accountUpdates = nil
                break
            }
            // One account at a time (TWS: a new subscription replaces the last).
            if !named.isEmpty, book(named) == nil {
                send(.error(TWSErrorMessage(requestID: -1, code: 321, message: accountRefusal(named) ?? "")))
                break
            }
            let code = accountCode(named: named)
            sessions[connection]?.accountUpdates = code
            out += accountValues(to: connection, account: code)
            for (id, holding) in accounts[bookIndex(code)].holdings.sorted(by: { $0.key < $1.key })
            where !holding.quantity.isZero {
                send(portfolioMessage(data.instrument(id), account: code))
            }
            send(accountTimeMessage())
            send(.accountDownloadEnd(accountName: code))
        case .accountSummary(let requestID, _, let tags):
            let wanted = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            sessions[connection]?.accountSummaries[requestID] = wanted
            out += accountSummary(requestID: requestID, tags: wanted, connection: connection)
        case .cancelAccountSummary(let requestID):
            sessions[connection]?.accountSummaries[requestID] = nil
        case .pnl(let requestID, let named, _):
            let code = accountCode(named: named)
            sessions[connection]?.pnl[requestID] = code
            send(pnlMessage(requestID: requestID, account: code))
        case .cancelPnL(let requestID):
            sessions[connection]?.pnl[requestID] = nil
        case .pnlSingle(let requestID, let named, _, let contractID):
            guard let instrument = data.instrument(contractID: contractID) else {
                send(.error(TWSErrorMessage(requestID: requestID, code: 200,
                                            message: TWSErrorText.noSecurityDefinition)))
                break
            }
            let code = accountCode(named: named)
            sessions[connection]?.pnlSingle[requestID] = (code, instrument.id)
            send(pnlSingleMessage(requestID: requestID, instrument: instrument, account: code))
        case .cancelPnLSingle(let requestID):
            sessions[connection]?.pnlSingle[requestID] = nil
        case .executions(let requestID, let filter):
            // Like TWS without a master client id: a client sees the executions of its own orders.
            let clientID = sessions[connection]?.clientID
            // The filter's time read once, not per execution (a bot's periodic sync asks since a time, all week long).
            let after = filter.time.isEmpty ? nil : TWSTimeText.parse(filter.time)
            // TWS lists at most the last 7 days of executions (its longest setting; by default today's): a bot that
            // has run for weeks does not get its first week back.
            let window = now - .days(7)
            for record in executions
            where record.clientID == clientID && record.time >= window && matches(record, filter, after: after) {
                send(.executionDetails(requestID: requestID, contract: record.contract, execution: record.execution))
                send(.commissionReport(record.commission))
            }
            // `no-exec-end`: TWS may never end a list whose filter is all blank.
            if !(pendingFaults.omitBlankExecutionsEnd && filter == TWSExecutionFilter()) {
                send(.executionDetailsEnd(requestID: requestID))
            }
        default:
            break
        }
        return out
    }

    /// updateAccountTime (`HH:mm`, UTC).
    func accountTimeMessage() -> TWSResponse {
        let seconds = (now.nanoseconds / Timestamp.nanosecondsPerSecond) % 86_400
        return .accountTime(String(format: "%02d:%02d", seconds / 3600, seconds / 60 % 60))
    }

    /// accountSummary rows for the requested tags (`All` or `$LEDGER` for every tag) of every managed account (the
    /// group `All`), then the end.
    func accountSummary(requestID: Int, tags: [String], connection: ConnectionID) -> [GatewayAction] {
        let (marks, rates) = (marks(), baseRates())
        let everything = tags.contains("All") || tags.contains { $0.hasPrefix("$LEDGER") }
        var out: [GatewayAction] = []
        for book in accounts {
            if everything || tags.contains("AccountType") {
                out.append(.send(connection, .accountSummary(
                    requestID: requestID, account: book.accountCode, tag: "AccountType", value: "INDIVIDUAL",
                    currency: "")))
            }
            for (tag, value) in book.valuation(marks: marks, rates: rates).tagValues where everything || tags.contains(tag) {
                out.append(.send(connection, .accountSummary(
                    requestID: requestID, account: book.accountCode, tag: tag, value: String(format: "%.2f", value),
                    currency: book.baseCurrency)))
            }
            if tags.contains(where: { $0.hasPrefix("$LEDGER") }) {
                for (currency, rate) in exchangeRates() {
                    out.append(.send(connection, .accountSummary(
                        requestID: requestID, account: book.accountCode, tag: "ExchangeRate",
                        value: String(format: "%.8f", rate), currency: currency)))
                }
            }
        }
        out.append(.send(connection, .accountSummaryEnd(requestID: requestID)))
        return out
    }

    /// IB's `ExchangeRate` rows under `$LEDGER`: the accounts' base currency per unit of each currency it converts
    /// (`baseRates`), and 1 for the base (`BASE` and its own code).
    func exchangeRates() -> [(currency: String, rate: Double)] {
        let base = configuration.baseCurrency
        let dollars = dollarRates()
        let rates = baseRates(dollars)
        var rows: [(currency: String, rate: Double)] = [("BASE", 1), (base, 1)]
        var seen: Set<String> = ["BASE", base]
        for (currency, _) in dollars where seen.insert(currency).inserted {
            if let rate = rates[currency] { rows.append((currency, rate)) }
        }
        return rows
    }

    /// Dollars per unit of each currency a served pair with the dollar prices now (`EUR.USD` at 1.25: EUR 1.25;
    /// `USD.JPY` at 150: JPY 1/150), in the order the data lists the pairs; USD first at 1.
    func dollarRates() -> [(currency: String, rate: Double)] {
        var rates: [(currency: String, rate: Double)] = [("USD", 1)]
        var seen: Set<String> = ["USD"]
        for instrument in data.instruments {
            guard case .forex(let pair) = instrument.kind, let last = QuoteModel.top(instrument, at: now)?.last.doubleValue,
                last > 0
            else { continue }
            if pair.quote == "USD", seen.insert(pair.base).inserted {
                rates.append((pair.base, last))
            } else if pair.base == "USD", seen.insert(pair.quote).inserted {
                rates.append((pair.quote, 1 / last))
            }
        }
        return rates
    }

    /// The base currency per unit of each currency the served pairs convert, through the dollar (an account in
    /// euros: USD at 1 / EUR.USD, GBP at GBP.USD / EUR.USD). Empty but for the base when no pair prices the base in
    /// dollars (the figures then count other currencies one for one, as `GatewaySetup` refuses to start so).
    func baseRates() -> [String: Double] { baseRates(dollarRates()) }

    private func baseRates(_ dollarRates: [(currency: String, rate: Double)]) -> [String: Double] {
        let base = configuration.baseCurrency
        let dollars = Dictionary(dollarRates.map { ($0.currency, $0.rate) }, uniquingKeysWith: { first, _ in first })
        guard let basePerDollar = dollars[base].map({ 1 / $0 }) else { return [base: 1] }
        return dollars.mapValues { $0 * basePerDollar }
    }

    /// The base currency per unit of an instrument's price currency (1 for the base's own, and for one no pair
    /// converts).
    func baseRate(of kind: InstrumentKind, in rates: [String: Double]) -> Double {
        let currency = CurrencyConversion.currency(of: kind)
        return currency == configuration.baseCurrency ? 1 : rates[currency] ?? 1
    }

    func pnlMessage(requestID: Int, account code: String) -> TWSResponse {
        let v = accounts[bookIndex(code)].valuation(marks: marks(), rates: baseRates())
        return .pnl(requestID: requestID, dailyPnL: v.dailyPnL, unrealizedPnL: v.unrealizedPnL,
                    realizedPnL: v.realizedPnL)
    }

    func pnlSingleMessage(requestID: Int, instrument: SimulatedInstrument, account code: String) -> TWSResponse {
        let holding = accounts[bookIndex(code)].holdings[instrument.id]
        let q = holding?.quantity.doubleValue ?? 0
        let mark = QuoteModel.top(instrument, at: now)?.last.doubleValue ?? 0
        let unrealized = q * (mark - (holding?.averageCost ?? 0)) * instrument.multiplier
        return .pnlSingle(TWSPnLSingle(
            requestID: requestID, position: (holding?.quantity ?? .zero).decimal,
            dailyPnL: unrealized + (holding?.realized ?? 0), unrealizedPnL: unrealized,
            realizedPnL: holding?.realized ?? 0, value: q * mark * instrument.multiplier))
    }

    /// The execution filter of reqExecutions (empty fields match everything; `time` is `yyyyMMdd[-| ]HH:mm:ss`, read
    /// by the caller as `after`: `nil` when empty or unreadable).
    func matches(_ record: ExecutionRecord, _ filter: TWSExecutionFilter, after: Timestamp?) -> Bool {
        if filter.clientID != 0, filter.clientID != record.clientID { return false }
        if !filter.accountCode.isEmpty, filter.accountCode != record.execution.accountNumber { return false }
        if !filter.symbol.isEmpty, filter.symbol.uppercased() != record.contract.symbol { return false }
        if !filter.securityType.isEmpty, filter.securityType.uppercased() != record.contract.securityType { return false }
        if !filter.exchange.isEmpty, !["SMART", record.execution.exchange, record.contract.primaryExchange]
            .contains(filter.exchange.uppercased()) { return false }
        if !filter.side.isEmpty {
            let side = filter.side.uppercased() == "BUY" || filter.side.uppercased() == "BOT" ? "BOT" : "SLD"
            if side != record.execution.side { return false }
        }
        if let after, record.time < after { return false }
        if let days = filter.lastNDays, days > 0, record.time < now - .days(Int64(min(days, 36_500))) { return false }
        return true
    }
}
