import Foundation
import Simulation
import TWSProtocol
import TradingModel

/// The simulated gateway as a pure state machine: requests and clock steps in, messages out.
///
/// No sockets and no clock: the server edge feeds it decoded requests with `handle(_:from:wallTime:)` and replay
/// time with `advance(to:)`, and carries out the returned `GatewayAction`s in order. Account, orders and executions
/// live here and outlive connections.
///
/// ```swift
/// var state = GatewayState(data: .synthetic(count: 2, seed: 1), configuration: GatewayConfiguration())
/// let hello = state.connect(connection: 1, clientID: 7, serverVersion: 200)
/// let replies = state.handle(.contractDetails(requestID: 1, contract: contract), from: 1, wallTime: 0)
/// let ticks = state.advance(to: state.now + .seconds(5))
/// ```
public struct GatewayState: Sendable {
    /// The universe.
    public let data: MarketDataSet
    /// The configuration.
    public let configuration: GatewayConfiguration
    /// The replay clock's current time.
    public internal(set) var now: Timestamp
    /// The accounts this login manages, in managedAccounts' order (one unless the configuration names several).
    public internal(set) var accounts: [AccountBook]
    /// The first managed account: the only one, unless the configuration names several.
    public var account: AccountBook { accounts[0] }
    /// Faults that act on the next order, execution or historical request.
    public var pendingFaults = PendingFaults()
    /// Trading halts by instrument (`halt SYMBOL`): 1 a regulatory halt, 2 a volatility (LULD) pause.
    public internal(set) var halts: [InstrumentID: Int] = [:]
    /// Between 1100 and 1101/1102: live messages (bars, ticks, fills) are withheld.
    public internal(set) var isConnectivityLost = false
    /// When the current loss of connectivity began (`nil` while connected): what traded since reached no client.
    public internal(set) var connectivityLostSince: Timestamp?
    /// IB's desupport warning (2172) this gateway's build sends at every connect (the `desupport` fault); `nil`: none.
    public internal(set) var desupportText: String?

    var engine: MatchingEngine
    var sessions: [ConnectionID: ClientSession] = [:]
    var orders: [OrderKey: GatewayOrder] = [:]
    /// The permIds of the second live orders `twin-order` made.
    var twinPermIDs: Set<Int64> = []
    var engineOrders: [OrderID: OrderKey] = [:]
    var executions: [ExecutionRecord] = []
    var nextEngineID: Int64 = 1
    var nextPermID: Int64 = 1_000_000_001
    var nextExecution = 1
    /// Highest order id each clientId has used (persists across reconnects).
    var highestOrderID: [Int: Int] = [:]
    /// The 3-minute period of the last periodic account refresh.
    var accountRefreshPeriod: Int64 = 0
    /// Historical requests stalled by a fault: (connection, requestID).
    var stalledHistory: Set<[Int]> = []
    /// Every placeOrder received (`placeOrderLog`).
    var orderLog: [PlaceOrderRecord] = []
    /// Which gateway process this is: 1 for the first, one more after each `restart-fresh` (a new process numbers
    /// its executions apart from the old one's, as IB's execIds and permIds never repeat).
    public internal(set) var incarnation = 1
    /// The first part of this process's execIds, drawn at random per process (IB's `0000e0d5.6558a1b2.01.01` never
    /// repeats, across gateway processes either): two simulators, or one restarted between two bot runs on the same
    /// journal, never hand out the same execId.
    public internal(set) var executionPrefix: UInt32
    /// Order messages held back by `late-exec` / `late-status` until the replay clock reaches `due`.
    var lateMessages: [LateMessage] = []

    /// Creates the state at a replay start time.
    /// - Parameters:
    ///   - data: the universe.
    ///   - configuration: account and engine settings.
    ///   - start: the replay start (default: `data.defaultStart`).
    public init(data: MarketDataSet, configuration: GatewayConfiguration, start: Timestamp? = nil) {
        self.data = data
        self.configuration = configuration
        self.now = start ?? data.defaultStart
        // Never empty (`account` is the first): a configuration whose list was emptied after its init gets the default.
        self.accounts = (configuration.accounts.isEmpty ? GatewayConfiguration().accounts : configuration.accounts)
            .map { AccountBook(accountCode: $0, cash: configuration.startingCash, baseCurrency: configuration.baseCurrency) }
        // Intraday data has hours: orders trade in the US stock sessions their terms allow, as at IB (daily data is
        // traded at any time of the day, as before).
        var simulation = configuration.simulation
        let intraday = !data.instruments.isEmpty && data.instruments.allSatisfy { !$0.series.isDaily }
        if intraday, simulation.sessions == nil { simulation.sessions = TradingSessions() }
        // The data over the calendar: a listed holiday the data trades on trades like any weekday (as in a backtest).
        if intraday, simulation.sessions != nil {
            simulation.sessions?.openDays = TradingSessions.daysWithBars(
                data.instruments.filter { $0.kind == .stock }.lazy.flatMap { $0.series.bars.lazy.map(\.timestamp) })
        }
        self.engine = MatchingEngine(config: simulation, kinds: data.instruments.map(\.kind))
        if intraday { engine.assumeIntraday() }
        self.executionPrefix = configuration.executionPrefix ?? UInt32.random(in: 1...UInt32.max)
        for index in accounts.indices { accounts[index].startOfDay = now.dayNumber }
        accountRefreshPeriod = now.nanoseconds / TimeSpan.minutes(3).nanoseconds
    }

    /// A new gateway process on the same data and replay time (`restart-fresh`): no orders, positions or executions,
    /// the starting cash again; its execIds and permIds continue apart from this one's, its order ids after each
    /// client's highest.
    public func freshProcess() -> GatewayState {
        var fresh = GatewayState(data: data, configuration: configuration, start: now)
        fresh.incarnation = incarnation + 1
        fresh.nextPermID = nextPermID
        // Derived, not drawn, so that a fixed first prefix repeats; x * odd + 1 never equals x (mod 2^32).
        fresh.executionPrefix = executionPrefix &* 2_654_435_761 &+ 1
        // IB remembers each client id's order ids across restarts: nextValidId continues after the highest used.
        fresh.highestOrderID = highestOrderID
        // The build's desupport date is the installation's, not the process's.
        fresh.desupportText = desupportText
        return fresh
    }

    /// The clientIds connected now.
    public var connectedClientIDs: [Int] { sessions.values.map(\.clientID).sorted() }
    /// Each connected client's market data type (reqMarketDataType; 1 is live), by client id.
    public var marketDataTypes: [Int: Int] {
        Dictionary(sessions.values.map { ($0.clientID, $0.marketDataType) }, uniquingKeysWith: max)
    }
    /// How many open reqMktData lines are served delayed.
    public var delayedMarketLines: Int { sessions.values.reduce(0) { $0 + $1.marketLines.values.filter(\.delayed).count } }

    /// Counts of the streaming subscriptions open now (for tests that must know a request has arrived).
    public var activeSubscriptions: (marketData: Int, realTimeBars: Int, historyUpdates: Int) {
        sessions.values.reduce((0, 0, 0)) { total, session in
            (total.0 + session.marketLines.count, total.1 + session.realTimeBars.count,
             total.2 + session.historyUpdates.count)
        }
    }

    // MARK: - Connections

    /// A client finished the handshake.
    /// - Parameters:
    ///   - connection: the socket's id.
    ///   - clientID: the clientId from startApi.
    ///   - serverVersion: the negotiated version.
    /// - Returns: managedAccounts, nextValidId, the farm messages and the desupport warning (2172) when the
    ///   `desupport` fault set one; or error 326 and a close for a duplicate id.
    public mutating func connect(connection: ConnectionID, clientID: Int, serverVersion: Int) -> [GatewayAction] {
        if sessions.values.contains(where: { $0.clientID == clientID }) {
            return [.send(connection, .error(TWSErrorMessage(
                requestID: -1, code: 326, message: TWSErrorText.clientIDInUse))), .close(connection)]
        }
        sessions[connection] = ClientSession(connection: connection, clientID: clientID, serverVersion: serverVersion)
        var out: [GatewayAction] = [
            .send(connection, .managedAccounts(accountsList: managedAccountsList)),
            .send(connection, .nextValidID(orderID: nextValidID(for: clientID))),
        ]
        for (code, text) in Self.farmsOK {
            out.append(.send(connection, .error(TWSErrorMessage(requestID: -1, code: code, message: text))))
        }
        if let desupportText {
            out.append(.send(connection, .error(TWSErrorMessage(requestID: -1, code: 2172, message: desupportText))))
        }
        return out
    }

    /// The farm status messages sent at connect.
    static let farmsOK: [(Int, String)] = [
        (2104, "Market data farm connection is OK:usfarm"),
        (2106, "HMDS data farm connection is OK:ushmds"),
        (2158, "Sec-def data farm connection is OK:secdefnj"),
    ]

    /// A socket closed: its subscriptions end; orders and account stay.
    public mutating func disconnect(connection: ConnectionID) {
        sessions[connection] = nil
        stalledHistory = stalledHistory.filter { $0.first != connection }
        lateMessages.removeAll { $0.connection == connection }
    }

    func nextValidID(for clientID: Int) -> Int { (highestOrderID[clientID] ?? 0) + 1 }

    // MARK: - Accounts

    /// A managed account by its code.
    public func book(_ code: String) -> AccountBook? { accounts.first { $0.accountCode == code } }

    /// managedAccounts' text: the codes, comma-separated.
    var managedAccountsList: String { accounts.map(\.accountCode).joined(separator: ",") }

    /// Where `code`'s book is (the first account's for a code not managed: callers check it first).
    func bookIndex(_ code: String) -> Int { accounts.firstIndex { $0.accountCode == code } ?? 0 }

    /// The account a request names, or the first for none.
    func accountCode(named code: String) -> String { code.isEmpty ? accounts[0].accountCode : code }

    /// Why IB refuses an order for the account it names: none on a login with several (IB's "You must specify an
    /// account", seen by users of demo logins with two accounts), or one this login does not manage. `nil`: it books.
    func accountRefusal(_ named: String) -> String? {
        if named.isEmpty {
            return accounts.count > 1 ? "Error validating request:-'bN' : cause - You must specify an account." : nil
        }
        guard book(named) == nil else { return nil }
        return "Error validating request:-'bN' : cause - The account code \(named) is not valid (this login manages "
            + "\(accounts.map(\.accountCode).joined(separator: ", ")))"
    }

    func connections(ofClient clientID: Int) -> [ConnectionID] {
        sessions.values.filter { $0.clientID == clientID }.map(\.connection)
    }

    // MARK: - Requests

    /// Handles one decoded request.
    /// - Parameters:
    ///   - request: the request.
    ///   - connection: who sent it.
    ///   - wallTime: seconds on the server's monotonic clock (for pacing rules only).
    /// - Returns: the messages to send.
    public mutating func handle(_ request: TWSRequest, from connection: ConnectionID, wallTime: Double) -> [GatewayAction] {
        guard let session = sessions[connection] else { return [] }
        var out: [GatewayAction] = []
        func send(_ r: TWSResponse) { out.append(.send(connection, r)) }
        switch request {
        case .startAPI:
            send(.error(TWSErrorMessage(requestID: -1, code: 321, message: "Error validating request:-'startApi' "
                + "received twice")))
        case .requestIDs:
            send(.nextValidID(orderID: nextValidID(for: session.clientID)))
        case .currentTime:
            send(.currentTime(TWSTimeText.epochSeconds(now)))
        case .currentTimeInMillis:
            send(.currentTimeInMillis(now.nanoseconds / 1_000_000))
        case .managedAccounts:
            send(.managedAccounts(accountsList: managedAccountsList))
        case .contractDetails(let requestID, let contract):
            out += contractDetails(requestID: requestID, contract: contract, connection: connection)
        case .marketDataType(let type):
            sessions[connection]?.marketDataType = (1...4).contains(type) ? type : 1
        case .marketData(let r):
            out += marketData(r, connection: connection)
        case .cancelMarketData(let requestID):
            sessions[connection]?.marketLines[requestID] = nil
        case .realTimeBars(let r):
            out += realTimeBars(r, connection: connection)
        case .cancelRealTimeBars(let requestID):
            sessions[connection]?.realTimeBars[requestID] = nil
        case .historicalData(let r):
            out += historicalData(r, connection: connection, wallTime: wallTime)
        case .cancelHistoricalData(let requestID):
            sessions[connection]?.historyUpdates[requestID] = nil
            stalledHistory.remove([connection, requestID])
        case .placeOrder(let orderID, let contract, let order):
            logPlaceOrder(
                orderID: orderID, order: order, symbol: resolve(contract)?.symbol ?? contract.symbol,
                clientID: session.clientID)
            let placed = placeOrder(orderID: orderID, contract: contract, order: order, clientID: session.clientID)
            if pendingFaults.loseConnectivityAfterNextOrder {
                pendingFaults.loseConnectivityAfterNextOrder = false
                out += losingConnectivity(after: placed)
            } else {
                out += placed
            }
        case .cancelOrder(let orderID, _):
            out += cancelOrder(orderID, from: session.clientID, connection: connection)
        case .globalCancel:
            out += globalCancel()
        case .openOrders, .allOpenOrders:
            let all: Bool
            if case .allOpenOrders = request { all = true } else { all = false }
            // Deactivated and locate-held orders (Inactive) are listed too, as TWS 10.48 and later list them.
            for order in orders.values.sorted(by: { $0.permID < $1.permID })
            where !order.isTerminal && !order.isHeld && (all || order.key.clientID == session.clientID) {
                send(order.openOrder())
                send(order.orderStatus())
            }
            send(.openOrderEnd)
        case .autoOpenOrders:
            break
        case .completedOrders:
            // Every client's finished orders of this simulator session (TWS: today's, of the account); all orders
            // here come through the API, so apiOnly changes nothing.
            for order in orders.values.sorted(by: { $0.permID < $1.permID }) where order.isTerminal {
                send(order.completedOrder(zone: configuration.loginZone))
            }
            send(.completedOrdersEnd)
        case .accountUpdatesMulti(let requestID, _, _, _):
            send(.accountUpdateMultiEnd(requestID: requestID))
        case .marketRule(let rule):
            send(marketRuleAnswer(rule))
        case .positions, .cancelPositions, .accountUpdates, .accountSummary, .cancelAccountSummary, .pnl, .cancelPnL,
            .pnlSingle, .cancelPnLSingle, .executions:
            out += accountRequest(request, connection: connection)
        }
        return applyingMessageFaults(out)
    }

    // MARK: - Reference data

    /// Resolves a wire contract to one instrument: by conId, else by what it describes (`matches`). `nil` when
    /// nothing, or more than one contract, matches (IB's error 200 for both).
    func resolve(_ contract: TWSContract) -> SimulatedInstrument? {
        let found = matches(contract)
        return found.count == 1 ? found[0] : nil
    }

    /// Every instrument a wire contract describes, as contract details lists them: by conId; a stock or index by
    /// symbol (in USD); a future by root and, when given, contract month (`202612` or its last day `20261218`),
    /// local symbol (`ESZ6`), multiplier and exchange; a pair by base and quote currency (`EUR`, `USD`) or local
    /// symbol (`EUR.USD`). A contract month past its last trading day is not listed, as IB lists only live contracts.
    func matches(_ contract: TWSContract) -> [SimulatedInstrument] {
        if contract.contractID != 0 {
            guard let found = data.instrument(contractID: contract.contractID), !isExpired(found),
                contract.symbol.isEmpty || contract.symbol.uppercased() == found.contractSymbol
            else { return [] }
            return [found]
        }
        let type = contract.securityType.uppercased()
        let currency = contract.currency.uppercased()
        let exchange = contract.exchange.uppercased()
        switch type {
        case "FUT":
            let month = contract.lastTradeDateOrContractMonth
            let months = data.instruments.filter { instrument in
                guard case let .future(future) = instrument.kind, let contractMonth = future.month,
                    future.spec.root == contract.symbol.uppercased(), !isExpired(instrument),
                    currency.isEmpty || currency == future.spec.currency,
                    exchange.isEmpty || exchange == future.spec.exchange,
                    contract.multiplier.isEmpty || Double(contract.multiplier) == Double(future.spec.multiplier),
                    contract.localSymbol.isEmpty || contract.localSymbol.uppercased() == future.localSymbol
                else { return false }
                if month.isEmpty { return true }
                if month.count == 8 { return month == lastTradeDate(future.spec, contractMonth) }
                return month == contractMonth.wireText
            }
            // Nearest expiry first, as IB lists a root's months.
            return months.sorted { ($0.kind.contractMonthText ?? "") < ($1.kind.contractMonthText ?? "") }
        case "CASH":
            return data.instruments.filter { instrument in
                guard case let .forex(pair) = instrument.kind, exchange.isEmpty || exchange == "IDEALPRO" else {
                    return false
                }
                if !contract.localSymbol.isEmpty { return contract.localSymbol.uppercased() == pair.description }
                return pair.base == contract.symbol.uppercased() && pair.quote == currency
            }
        case "", "STK", "IND":
            guard currency.isEmpty || currency == "USD", let instrument = data.instrument(symbol: contract.symbol),
                case .stock = instrument.kind
            else { return [] }
            // An index is an index (VIX: IND on CBOE), a stock a stock.
            return type.isEmpty || type == instrument.securityType ? [instrument] : []
        default:
            return []
        }
    }

    /// A future whose last trading day is before the replay's day: IB no longer lists it.
    func isExpired(_ instrument: SimulatedInstrument) -> Bool {
        guard case let .future(future) = instrument.kind, let last = future.lastTradingDay else { return false }
        return FutureSpec.tradingDay(of: now) > last
    }

    /// `yyyyMMdd` of a contract month's last trading day (IB's `lastTradeDateOrContractMonth` once qualified).
    func lastTradeDate(_ spec: FutureSpec, _ month: ContractMonth) -> String {
        TWSTimeText.date(Timestamp(nanoseconds: spec.lastTradingDay(of: month) * Timestamp.nanosecondsPerDay))
    }

    /// The fully qualified contract of an instrument.
    func qualifiedContract(_ instrument: SimulatedInstrument, exchange: String = "SMART") -> TWSContract {
        var c = TWSContract()
        c.contractID = instrument.contractID
        c.symbol = instrument.contractSymbol
        c.securityType = instrument.securityType
        c.currency = "USD"
        switch instrument.kind {
        case let .future(future):
            c.exchange = future.spec.exchange
            c.currency = future.spec.currency
            c.multiplier = "\(future.spec.multiplier)"
            c.localSymbol = future.localSymbol ?? instrument.symbol
            c.tradingClass = future.spec.root
            if let month = future.month { c.lastTradeDateOrContractMonth = lastTradeDate(future.spec, month) }
        case let .forex(pair):
            c.exchange = "IDEALPRO"
            c.currency = pair.quote
            c.localSymbol = pair.description
            c.tradingClass = pair.description
        case .stock:
            c.exchange = instrument.indexExchange ?? (exchange.isEmpty ? "SMART" : exchange)
            c.primaryExchange = instrument.indexExchange == nil ? instrument.primaryExchange : ""
            c.localSymbol = instrument.symbol
            c.tradingClass = instrument.primaryExchange == "NASDAQ" ? "NMS" : instrument.symbol
        }
        return c
    }

    mutating func contractDetails(requestID: Int, contract: TWSContract, connection: ConnectionID) -> [GatewayAction] {
        let found = matches(contract)
        guard !found.isEmpty else {
            return [.send(connection, .error(TWSErrorMessage(
                requestID: requestID, code: 200, message: TWSErrorText.noSecurityDefinition)))]
        }
        return found.map { .send(connection, .contractDetails(requestID: requestID, details: details(of: $0))) }
            + [.send(connection, .contractDetailsEnd(requestID: requestID))]
    }

    /// An instrument's contract details, laid out as IB's.
    func details(of instrument: SimulatedInstrument) -> TWSContractDetails {
        var details = TWSContractDetails(contract: qualifiedContract(instrument))
        details.marketName = details.contract.tradingClass
        details.minTick = instrument.minTick.doubleValue
        details.orderTypes = "LMT,MKT,STP,STP LMT,TRAIL,TRAIL LIMIT,IOC,GTC,DAY,OCA,BRACKET"
        details.validExchanges = "SMART,\(instrument.primaryExchange)"
        details.priceMagnifier = 1
        details.longName = instrument.longName
        details.industry = instrument.industry
        details.category = instrument.industry
        details.timeZoneID = "UTC"
        details.tradingHours = tradingHours(instrument)
        details.liquidHours = liquidHours(instrument)
        details.stockType = "COMMON"
        details.minSize = 1
        details.sizeIncrement = 1
        details.suggestedSizeIncrement = 100
        switch instrument.kind {
        case let .future(future):
            details.validExchanges = future.spec.exchange
            details.longName = future.spec.name
            details.stockType = ""
            details.suggestedSizeIncrement = 1
            details.underSymbol = future.spec.root
            if let month = future.month {
                details.contractMonth = month.wireText
                details.realExpirationDate = lastTradeDate(future.spec, month)
            }
        case let .forex(pair):
            details.validExchanges = "IDEALPRO"
            details.longName = "\(pair.base) priced in \(pair.quote)"
            details.stockType = ""
            details.suggestedSizeIncrement = 1
        case .stock:
            if let exchange = instrument.indexExchange {
                // An index: no order types, its own exchange, IB's stock type empty.
                (details.orderTypes, details.validExchanges) = ("", exchange)
            }
        }
        // One rule per valid exchange, in their order (IB's layout).
        let rule = marketRule(of: instrument).map(String.init) ?? ""
        details.marketRuleIDs = details.validExchanges.split(separator: ",").map { _ in rule }.joined(separator: ",")
        return details
    }

    /// `yyyyMMdd:HHmm-yyyyMMdd:HHmm;…` for today and the next days, `CLOSED` on weekends (UTC): daily data over the
    /// simulator's session (14:30–21:00), a stock's intraday data all day, and a currency pair's or a future's
    /// intraday data as IB lists it: one session per trading day from 17:00 New York the evening before to 17:00 New
    /// York (`TradingDay.newYorkFivePM`; IB: EUR.USD `20221211:1715-20221212:1700`, CL `20221206:1800-20221207:1700`
    /// in New York time), Monday's from Sunday evening, and Saturday `CLOSED`.
    func tradingHours(_ instrument: SimulatedInstrument) -> String {
        var parts: [String] = []
        let aroundTheClock = !instrument.series.isDaily && TradingDay(kind: instrument.kind) == .newYorkFivePM
        for offset in 0..<7 {
            let dayNumber = now.dayNumber + Int64(offset)
            let day = Timestamp(nanoseconds: dayNumber * Timestamp.nanosecondsPerDay)
            let d = TWSTimeText.date(day)
            if aroundTheClock {
                // The session of the trading day that ends on this date, listed under its opening date.
                if day.weekday == 5 { parts.append("\(d):CLOSED") }
                guard day.weekday < 5 else { continue }
                let open = USEquityCalendar.utc(dayNumber - 1, minutes: TradingDay.fivePMMinutes)
                let close = USEquityCalendar.utc(dayNumber, minutes: TradingDay.fivePMMinutes)
                parts.append("\(TWSTimeText.date(open)):\(Self.hoursMinutes(open))-\(d):\(Self.hoursMinutes(close))")
            } else if day.weekday >= 5 {
                parts.append("\(d):CLOSED")
            } else if instrument.series.isDaily {
                parts.append("\(d):1430-\(d):2100")
            } else {
                parts.append("\(d):0000-\(d):2359")
            }
        }
        return parts.joined(separator: ";")
    }

    /// The regular hours, as IB's `liquidHours`: for intraday data the part of each day's US regular session its
    /// bars cover (09:30–16:00 New York for the bundled minute data, extended-hours minutes left out as IB leaves them
    /// out; `CLOSED` on a day without bars in it), so a bot's feed watch and its session-aligned bars expect bars
    /// exactly when regular-hours (`useRTH`) bars come; daily data, futures and currency pairs keep their trading
    /// hours (weekdays around the clock).
    func liquidHours(_ instrument: SimulatedInstrument) -> String {
        guard !instrument.series.isDaily, case .stock = instrument.kind else { return tradingHours(instrument) }
        var parts: [String] = []
        for offset in 0..<7 {
            let dayNumber = now.dayNumber + Int64(offset)
            let d = TWSTimeText.date(Timestamp(nanoseconds: dayNumber * Timestamp.nanosecondsPerDay))
            guard let covered = instrument.series.session(onDay: dayNumber),
                let regular = USEquityCalendar.sessions(onDay: dayNumber).first(where: { $0.kind == .regular }),
                max(covered.open, regular.open) < min(covered.close, regular.close)
            else {
                parts.append("\(d):CLOSED")
                continue
            }
            let session = (open: max(covered.open, regular.open), close: min(covered.close, regular.close))
            // A session to the day's end is written 2400 of its day, as IB does.
            let closeText = session.close.dayNumber > dayNumber ? "2400" : Self.hoursMinutes(session.close)
            parts.append("\(d):\(Self.hoursMinutes(session.open))-\(d):\(closeText)")
        }
        return parts.joined(separator: ";")
    }

    /// `HHmm` of a UTC time.
    private static func hoursMinutes(_ time: Timestamp) -> String {
        let minutes = (time.nanoseconds / Timestamp.nanosecondsPerSecond % 86_400) / 60
        let hh = minutes / 60, mm = minutes % 60
        return (hh < 10 ? "0" : "") + "\(hh)" + (mm < 10 ? "0" : "") + "\(mm)"
    }
}

/// One-shot faults the core applies to the next matching event.
public struct PendingFaults: Sendable, Equatable {
    /// Reject the next order placed, with this reason.
    public var rejectNextOrder: String?
    /// Book the next (stand-alone) order that rests a second time: another order id and permId, the same orderRef.
    public var twinNextOrder = false
    /// Precede the next (stand-alone) order's messages with 10349 and a Cancelled status; it goes on regardless.
    public var presetNoticeNextOrder = false
    /// Send the next live execDetails twice.
    public var duplicateNextExecution = false
    /// Never answer the next historical data request.
    public var stallNextHistorical = false
    /// After the next order's acknowledgement, lose connectivity (1100); its fill is withheld until restored.
    public var loseConnectivityAfterNextOrder = false
    /// Refuse this many more reqMktData requests with 10168 (`fail-quotes`, Faults/QuoteFaults.swift).
    public var refuseMarketData = 0
    /// Split the next fill into this many executions (`partial-fill N`; 0: none). Faults/OrderMessageFaults.swift.
    public var splitNextFill = 0
    /// Send the next orderStatus twice (`duplicate-status`).
    public var duplicateNextStatus = false
    /// Hold the next live execDetails and its commissionReport back for this much replay time (`late-exec S`).
    public var lateNextExecution: TimeSpan?
    /// Hold the next orderStatus back for this much replay time (`late-status S`).
    public var lateNextStatus: TimeSpan?
    /// Send the next fill's messages (execDetails, orderStatus, openOrder, commissionReport) in reverse order
    /// (`reorder-fill`).
    public var reverseNextFill = false
    /// Send the next fill without its orderStatus (`missing-status`).
    public var dropNextFillStatus = false
    /// Refuse the next order with this errMsg and no status (`refuse CODE`, Faults/OrderHoldFaults.swift).
    public var refuseNextOrder: OrderRefusal?
    /// Never end an execution list whose filter is all blank (`no-exec-end`; stays on).
    public var omitBlankExecutionsEnd = false
    /// Hold the next short sale this long while "locating" shares (`locate S`).
    public var locateNextShortSale: TimeSpan?
    /// Deactivate the next stand-alone order that rests (`deactivate`).
    public var deactivateNextOrder = false
    /// Creates an empty set.
    public init() {}
}
