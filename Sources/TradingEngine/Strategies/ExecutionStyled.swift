import TradingModel

/// A strategy whose entries are worked as an `ExecutionStyle` says: sent as limits at an offset, as IB Adaptive
/// orders, with a time in force; repriced, cancelled or sent at market when they have not filled in time.
///
/// It runs inside the engine, on the engine's timers (bar time), so a backtest reprices on the same bars as the live
/// run does. Each styled entry gets a readable client id (`AAPL-E1764000000`: symbol and bar time), kept through its
/// reprices (IB modifies: the same order, a new price); a conversion to market is a new order, `…-MKT`. Every reprice
/// carries its reason (`OrderModification.reason`), which the live run journals.
public struct ExecutionStyled<Base: Strategy>: Strategy {
    /// The wrapped strategy.
    public var base: Base
    /// How entries are worked.
    public let style: ExecutionStyle
    /// Styled entries with a timeout, until they are done.
    var working: [ClientOrderID: Entry] = [:]
    /// Client ids given out at `idTime` (a second entry of one symbol in one bar gets a suffix).
    var idsAtTime: Set<String> = []
    var idTime = Timestamp.zero

    /// What the wrapper remembers of a styled entry.
    struct Entry: Sendable {
        var request: OrderRequest
        /// The request's own timeout, else the style's.
        var timeout: TimeSpan
        /// The bracket it is the entry of, if any.
        var bracket: BracketOrder?
        var filled = Quantity.zero
        var reprices = 0
        /// Cancelled by its timeout: the unfilled rest goes out at market once the cancel is confirmed.
        var thenMarket = false
    }

    /// The prefix of the wrapper's timers (the rest is the entry's client id).
    static var timerPrefix: String { "execution-style:" }

    /// Wraps a strategy.
    public init(_ base: Base, style: ExecutionStyle) {
        self.base = base
        self.style = style
    }

    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        var own: [StrategyAction] = []
        switch event {
        case .timer(let timer, _) where timer.rawValue.hasPrefix(Self.timerPrefix):
            return deadline(ClientOrderID(String(timer.rawValue.dropFirst(Self.timerPrefix.count))), context)
        case .filled(let fill, let id):
            if var entry = working[id] {
                entry.filled += fill.quantity
                working[id] = entry.filled >= entry.request.quantity ? nil : entry
            }
        case .orderUpdated(let id, let update):
            if let entry = working[id], update.endsOrder {
                working[id] = nil
                if case .canceled = update, entry.thenMarket { own += marketRest(of: entry, id: id) }
            }
        case .bar(let instrument, _):
            if context.hasOpenOrders(for: instrument) { own += adoptRestored(instrument, context) }
        default:
            break
        }
        var actions = base.handle(event, in: context)
        if !actions.isEmpty { style(&actions, context) }
        return own.isEmpty ? actions : own + actions
    }

    /// As the wrapped strategy (the engine skips `.barsClosed` for per-instrument strategies).
    public static var handlesBarsClosed: Bool { Base.handlesBarsClosed }

    /// The wrapped strategy's history is re-warmed; the entries being worked are this run's and stay.
    public mutating func adoptHistory(of warmed: Self) { base.adoptHistory(of: warmed.base) }

    // MARK: - Styling

    /// Styles the entries among `actions`; every other order without a timeout gets the style's.
    mutating func style(_ actions: inout [StrategyAction], _ context: some StrategyContext) {
        for k in actions.indices {
            switch actions[k] {
            case .submit(var request):
                if request.type == .market, isEntry(request, context) {
                    actions[k] = .submit(styled(request, context))
                    if let schedule = track(request: &actions[k], context) { actions.append(schedule) }
                } else if request.timeout == nil, let timeout = style.timeout,
                    !ProtectiveOrders.isProtective(request.clientOrderID ?? "")
                {
                    // A position's protection never times out: it works until the position is gone.
                    request.timeout = timeout
                    actions[k] = .submit(request)
                }
            case .submitBracket(var bracket):
                guard bracket.entry.type == .market, isEntry(bracket.entry, context) else { continue }
                bracket.entry = styled(bracket.entry, context)
                actions[k] = .submitBracket(bracket)
                if let schedule = track(request: &actions[k], context) { actions.append(schedule) }
            default:
                continue
            }
        }
    }

    /// An entry as the style sends it (its id not yet given).
    func styled(_ request: OrderRequest, _ context: some StrategyContext) -> OrderRequest {
        var styled = request
        switch style.entry {
        case .market:
            break
        case .limit(let offset, let from):
            if let price = offsetPrice(request, offset, from: from, context) { styled.type = .limit(price) }
        case .adaptive(let priority):
            var execution = styled.execution ?? OrderExecution()
            execution.algo = .adaptive(priority)
            styled.execution = execution
        case .midprice(let cap, let from):
            styled.type = .midprice(cap: cap.flatMap { offsetPrice(request, $0, from: from ?? .last, context) })
        case .stop(let offset):
            // Beyond the last close in the trade's direction: the same arithmetic as a limit that pays up.
            if let price = offsetPrice(request, offset, from: .last, context) { styled.type = .stop(price) }
        case .trailing(let trail):
            switch trail {
            case .basisPoints(let bps): styled.type = .trailingPercent(bps / 100)
            case .ticks:
                if let last = context.lastBar(for: request.instrument)?.close {
                    let tick = context.universe[request.instrument].tickSize
                    styled.type = .trailingAmount(Price(units: max(trail.units(at: last, tick: tick), max(tick.units, 1))))
                }
            }
        }
        if let tif = style.timeInForce {
            styled.timeInForce = tif
            if tif == .gtd, let goodFor = style.goodFor {
                var execution = styled.execution ?? OrderExecution()
                execution.goodTill = context.now + goodFor
                styled.execution = execution
            }
        }
        return styled
    }

    /// Gives a styled entry its id and, with a timeout, tracks it and returns the timer to schedule.
    mutating func track(request action: inout StrategyAction, _ context: some StrategyContext) -> StrategyAction? {
        let request: OrderRequest
        var bracket: BracketOrder?
        switch action {
        case .submit(let r): request = r
        case .submitBracket(let b):
            request = b.entry
            bracket = b
        default: return nil
        }
        guard let timeout = request.timeout ?? style.timeout else { return nil }
        // Cancelling at the timeout is the engine's own order timeout: no id or timer of the wrapper's needed. A
        // bracket keeps its own settings: the engine would cancel a partly filled parent, and with it the protective
        // orders of what has filled.
        guard style.onTimeout != .cancel || style.entry != .market else {
            guard request.timeout == nil, bracket == nil else { return nil }
            var timed = request
            timed.timeout = timeout
            if var b = bracket {
                b.entry = timed
                action = .submitBracket(b)
            } else {
                action = .submit(timed)
            }
            return nil
        }
        let id = request.clientOrderID ?? newID(for: request.instrument, context)
        var tracked = request
        tracked.clientOrderID = id
        tracked.timeout = nil  // the wrapper's timer, not the engine's, decides what happens at the timeout
        if var b = bracket {
            b.entry = tracked
            action = .submitBracket(b)
            bracket = b
        } else {
            action = .submit(tracked)
        }
        working[id] = Entry(request: tracked, timeout: timeout, bracket: bracket)
        return .schedule(TimerID(Self.timerPrefix + id.rawValue), at: context.now + timeout)
    }

    /// `AAPL-E1764000000`: the symbol and the bar time in seconds, unique in a run and across restarts.
    mutating func newID(for instrument: InstrumentID, _ context: some StrategyContext) -> ClientOrderID {
        if context.now != idTime {
            idTime = context.now
            idsAtTime = []
        }
        let base = "\(context.universe[instrument].symbol.rawValue)-E\(context.now.nanoseconds / 1_000_000_000)"
        var id = base
        var k = 1
        while idsAtTime.contains(id) {
            k += 1
            id = "\(base)-\(k)"
        }
        idsAtTime.insert(id)
        return ClientOrderID(id)
    }

    // MARK: - After a restart

    /// Styled entries of an earlier run that a restart restored (their ids say what they are) go on where they were:
    /// each gets one more timeout, then the reprices it had left (the journal counts the modifications made, and the
    /// order has the latest limit), then its final step (`afterReprices`, or `onTimeout` when it is not `reprice`).
    /// A bracket's entry is only cancelled (its protective orders are not known to send again).
    mutating func adoptRestored(_ instrument: InstrumentID, _ context: some StrategyContext) -> [StrategyAction] {
        guard style.onTimeout != .cancel || style.entry != .market else { return [] }
        var actions: [StrategyAction] = []
        for order in context.openOrders(for: instrument)
        where working[order.clientOrderID] == nil && order.parentID == nil && Self.isStyledEntry(order.clientOrderID) {
            guard let timeout = style.timeout else { break }
            var request = OrderRequest(
                instrument: order.instrument, side: order.side, quantity: order.quantity, type: order.type,
                timeInForce: order.timeInForce, clientOrderID: order.clientOrderID)
            request.execution = order.execution
            let hasChildren = context.openOrders(for: instrument).contains { $0.parentID == order.id }
            var entry = Entry(
                request: request, timeout: timeout,
                bracket: hasChildren ? BracketOrder(entry: request, stopLoss: nil, takeProfit: nil) : nil)
            entry.filled = order.filledQuantity
            entry.reprices = min(order.modifications, style.reprices)
            working[order.clientOrderID] = entry
            actions.append(.schedule(TimerID(Self.timerPrefix + order.clientOrderID.rawValue), at: context.now + timeout))
        }
        return actions
    }

    /// `true` for an id this wrapper gives (`AAPL-E1764000000`, `…-2`), also behind a run's orderRef prefix; not for
    /// a rest at market (`…-MKT`).
    public static func isStyledEntry(_ id: ClientOrderID) -> Bool {
        func isNumber(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy(\.isNumber) }
        func isMarker(_ text: Substring) -> Bool { text.first == "E" && isNumber(text.dropFirst()) }
        let parts = id.rawValue.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 2, let last = parts.last else { return false }
        return isMarker(last) || (parts.count >= 3 && isNumber(last) && isMarker(parts[parts.count - 2]))
    }

    // MARK: - Timeouts

    /// An entry's timeout: reprice it, or cancel it (then perhaps send the rest at market).
    mutating func deadline(_ id: ClientOrderID, _ context: some StrategyContext) -> [StrategyAction] {
        guard var entry = working[id],
            let order = context.openOrders(for: entry.request.instrument).first(where: { $0.clientOrderID == id })
        else {
            working[id] = nil
            return []
        }
        guard order.state != .pendingCancel else { return [] }
        let timeout = entry.timeout
        let again = StrategyAction.schedule(TimerID(Self.timerPrefix + id.rawValue), at: context.now + timeout)
        // A change still in flight (live): look again after another timeout.
        if order.state == .pendingReplace || order.state == .pendingSubmit { return [again] }
        let step = style.timeoutStep(
            for: order.type, side: order.side, repricesMade: entry.reprices,
            ticks: context.universe[order.instrument].ticks, waited: timeout)
        if case .reprice(let next, let reason) = step {
            entry.reprices += 1
            working[id] = entry
            return [.modify(id, OrderModification(type: .limit(next), reason: reason)), again]
        }
        // A bracket entry that has partly filled keeps working: cancelling it would cancel the protective orders of
        // what has filled.
        if entry.bracket != nil, entry.filled.units > 0 || order.filledQuantity.units > 0 {
            working[id] = nil
            return []
        }
        entry.thenMarket = step == .cancelThenMarket
        working[id] = entry
        return [.cancel(id)]
    }

    /// The unfilled rest of a cancelled entry as a market order (`…-MKT`); a bracket is sent again whole.
    func marketRest(of entry: Entry, id: ClientOrderID) -> [StrategyAction] {
        let rest = entry.request.quantity - entry.filled
        guard rest.units > 0 else { return [] }
        var request = entry.request
        request.type = .market
        request.quantity = rest
        request.clientOrderID = ClientOrderID(id.rawValue + "-MKT")
        if request.timeInForce == .ioc || request.timeInForce == .gtd { request.timeInForce = .gtc }
        request.execution?.goodTill = nil
        if request.execution?.isPlain == true { request.execution = nil }
        if var bracket = entry.bracket {
            guard entry.filled.units == 0, bracket.stopLoss != nil || bracket.takeProfit != nil else { return [] }
            bracket.entry = request
            return [.submitBracket(bracket)]
        }
        return [.submit(request)]
    }

    // MARK: - Helpers

    /// `true` for an order that opens or adds to a position (a reduction or reversal keeps the strategy's terms).
    func isEntry(_ request: OrderRequest, _ context: some StrategyContext) -> Bool {
        let held = context.position(for: request.instrument).quantity.units
        return held == 0 || (held > 0) == (request.side == .buy)
    }

    /// `offset` from the reference price, towards paying up (a buy above, a sell below), on at least one tick (ticks
    /// are the increment at the reference price: a $0.50 stock's tick is 0.0001 under IB's US-stock rule).
    func offsetPrice(
        _ request: OrderRequest, _ offset: ExecutionStyle.PriceOffset, from: ExecutionStyle.PriceReference,
        _ context: some StrategyContext
    ) -> Price? {
        guard let reference = referencePrice(request.instrument, side: request.side, from: from, context) else { return nil }
        let tick = context.universe[request.instrument].ticks.increment(at: reference)
        let distance = offset.units(at: reference, tick: tick)
        let units = request.side == .buy ? reference.units + distance : reference.units - distance
        return Price(units: max(units, max(tick.units, 1)))
    }

    /// The reference price of a limit entry: the last close, or the quote's bid or ask (the last close without one).
    func referencePrice(
        _ instrument: InstrumentID, side: Side, from: ExecutionStyle.PriceReference, _ context: some StrategyContext
    ) -> Price? {
        let last = context.lastBar(for: instrument)?.close
        switch from {
        case .last: return last
        case .bid:
            if let bid = context.lastQuote(for: instrument)?.bid, bid.units > 0 { return bid }
            return last
        case .ask:
            if let ask = context.lastQuote(for: instrument)?.ask, ask.units > 0 { return ask }
            return last
        }
    }
}

/// `ExecutionStyled` asks for what its strategy asks for, and for quotes when limits are priced from the bid or ask.
extension ExecutionStyled {
    public var usesQuotes: Bool { base.usesQuotes || style.needsQuotes }
}

extension OrderEvent {
    /// `true` for an event after which the order no longer works.
    var endsOrder: Bool {
        switch self {
        case .filled, .canceled, .rejected, .denied, .expired: true
        default: false
        }
    }
}
