import TradingModel

/// The simulated exchange: holds working orders and fills them against bars or quotes.
///
/// Used by the backtester now and by the TWS gateway simulator later, so it knows nothing of either: it takes
/// `Order`s, market data and the current time, and appends `ExecutionReport`s to a caller-owned buffer (no
/// allocation per bar once the buffer has grown).
///
/// Rules (see `PricePath` for the intrabar path):
/// - **Activation.** An order may fill only on data timestamped at or after `submission + latency`, and never
///   on the bar during which it was submitted (at least 1 ns later), except a market order in `.thisClose`
///   mode with zero latency, which fills at once at the last bar's close.
/// - **Market**: the first eligible price (the next bar's open).
/// - **Limit**: at the open if the open is at or better than the limit (a gap through fills at the better
///   open), else at the limit if the path reaches it.
/// - **Stop**: at the open if the open is at or through the stop (gap), else at the stop price.
/// - **Stop limit**: triggers like a stop, then behaves as a limit on the rest of the path and later bars.
/// - **Trailing** (amount or percent): the stop follows the best price seen since submission (starting from
///   the last known price) along the path; TRAIL LIMIT becomes a limit at stop ∓ offset when triggered.
/// - **Time in force**: DAY orders expire at the first data of a later UTC day; IOC orders are canceled after
///   their first eligible bar; GTD orders expire at the first data at or after their good-till time; GTC rest
///   until filled or canceled.
/// - **Brackets and OCA**: children are armed once the parent is completely filled (from the next data point);
///   any fill of an OCA member cancels the other members; canceling a parent cancels its children.
/// - **Volume cap**: with `maxVolumeParticipation`, all fills of one instrument in one bar together take at most
///   that fraction of the bar's volume, rounded down to whole shares (to 1e-8 units with `fractionalShares`); the
///   rest keeps working.
/// - **Whole shares**: unless `fractionalShares`, an order (or a modification) for a fraction of a share is rejected,
///   so every fill is a whole number of shares, as IB trades stocks.
/// - **Sessions** (`SimulationConfig.sessions`, intraday data of a stock): an order trades only in the US stock
///   sessions its type and terms allow (`TradingSessions`); outside them it rests, and a DAY order lasts to the end of
///   its trading day's last such session. A bar of a stock on a day the calendar lists as closed, inside an ordinary
///   weekday's regular hours, opens that day (`openedDays`): the data wins over the calendar. Futures and currency
///   pairs trade around the clock on weekdays, as their data has bars.
/// - **Buying power** (`setFunds`, `FundsAtFill`): with an account's buying power set for a matching call, a fill
///   that opens or adds to a position beyond the account's rule (cash pays, or the initial margin) is cut to the whole
///   units that keep it, never below the part that closes a position, or refused; the order ends
///   `.canceled(.buyingPower)`, and a bracket parent cut after filling keeps its children, resized to what filled.
/// - **Costs**: slippage applies to market and triggered-stop fills, never to limit fills. Commission is charged per
///   order, as IBKR charges it: the schedule's minimum and maximum apply once to an order across its partial fills,
///   each fill paying the order's charge so far less what its earlier fills paid (`OrderCommission`); a modified
///   order, and one still filling on a later trading day, is billed as a new order.
public struct MatchingEngine: Sendable {
    /// The configuration.
    public let config: SimulationConfig
    @usableFromInline var working: [WorkingOrder] = []
    @usableFromInline var workingCount: [Int32]
    @usableFromInline var lastBars: [Bar?]
    /// Per instrument: its bars are intraday (two less than a day apart, or `assumeIntraday`), so `config.sessions`
    /// applies to its orders; a daily bar's midnight stamp is a date, not a time of a session.
    @usableFromInline var isIntraday: [Bool]
    /// The session of the last time asked about and how long it lasts (`TradingSessions.span`).
    var sessionSpan: (kind: TradingSessions.SessionSet, from: Timestamp, until: Timestamp)?
    /// The session rules in force: `config.sessions`, with the closed days the data has shown trading on.
    @usableFromInline var sessionRules: TradingSessions?
    var commissions: CommissionCalculator
    /// What each instrument is (its commission schedule).
    let kinds: [InstrumentKind]
    /// Each instrument's price tick (a quoted spread's step: `SlippageModel.quotedSpreadOnInstrumentTick`).
    let ticks: [Price]
    /// Buying power at the fill, by account (0 in a backtest; the simulator's account index): set by the caller
    /// before a matching call (`setFunds`), updated by each fill of the call, cleared after (`clearFunds`). None: no
    /// check. A fill that opens or adds to a position beyond what the account's rule allows is cut to what it allows,
    /// or refused, and the order ends `.canceled(.buyingPower)`; each such fill is recorded in `fundsCuts`.
    var funds: [FundsAtFill?] = []
    /// `true` while some account's `funds` are set.
    @usableFromInline var fundsInForce = false
    /// The fills cut or refused for buying power, in order (the caller takes them: `takeFundsCuts()`).
    @usableFromInline var fundsCuts: [FundsCut] = []
    /// The volume each instrument's bar has given to fills so far, when a bar is matched in two passes (sells, then
    /// buys): the cap applies to both together.
    var passVolume: [(time: Timestamp, used: Quantity)]

    /// Creates an engine for stocks `0..<instrumentCount`.
    public init(config: SimulationConfig = SimulationConfig(), instrumentCount: Int) {
        self.init(config: config, kinds: Array(repeating: .stock, count: instrumentCount))
    }

    /// Creates an engine for a universe's instruments.
    public init(config: SimulationConfig = SimulationConfig(), universe: Universe) {
        self.init(config: config, kinds: universe.instruments.map(\.kind), ticks: universe.instruments.map(\.tickSize))
    }

    /// Creates an engine for instruments of these kinds, in instrument order, with their ticks (`nil`: each kind's,
    /// 0.01 for a stock).
    public init(config: SimulationConfig = SimulationConfig(), kinds: [InstrumentKind], ticks: [Price]? = nil) {
        let instrumentCount = kinds.count
        self.config = config
        self.kinds = kinds
        self.ticks = ticks ?? kinds.map { $0.tickSize ?? Price(units: FixedPoint.scale / 100) }
        self.workingCount = Array(repeating: 0, count: instrumentCount)
        self.lastBars = Array(repeating: nil, count: instrumentCount)
        self.isIntraday = Array(repeating: false, count: instrumentCount)
        self.passVolume = Array(repeating: (.zero, .zero), count: instrumentCount)
        self.commissions = CommissionCalculator(model: config.commission)
        self.sessionRules = config.sessions
    }

    /// The days the calendar lists as closed that the data traded on (`TradingSessions.openDays`): given in the
    /// configuration, and found in the bars as they came.
    public var openedDays: Set<Int64> { sessionRules?.openDays ?? [] }

    /// A stock's bar at `time`: on a day the calendar lists as closed, inside an ordinary weekday's regular hours, it
    /// opens the day (and the DAY orders working then last to that day's end).
    @usableFromInline
    mutating func noteSessionEvidence(_ time: Timestamp, instrument index: Int) {
        guard var rules = sessionRules, kinds[index] == .stock else { return }
        // Asked once per session: a bar inside a session (regular, pre-market, …) opens nothing.
        if let span = sessionSpan, time >= span.from, time < span.until {
            if !span.kind.isEmpty { return }
        } else {
            let span = rules.span(at: time)
            sessionSpan = span
            if !span.kind.isEmpty { return }
        }
        let day = USEquityCalendar.newYorkDay(of: time)
        guard !rules.openDays.contains(day), !USEquityCalendar.isTradingDay(day),
            USEquityCalendar.ordinarySessions(onDay: day).contains(where: { $0.kind == .regular && $0.contains(time) })
        else { return }
        rules.openDays.insert(day)
        sessionRules = rules
        sessionSpan = nil
        for i in working.indices where working[i].dayExpiry != nil {
            if let sessions = working[i].sessions {
                working[i].dayExpiry = rules.dayOrderExpiry(submittedAt: working[i].activeAt, sessions: sessions)
            }
        }
    }

    /// Whether instrument `index` is a currency pair (its quoted spread is one tick).
    @usableFromInline
    func isPair(_ index: Int) -> Bool {
        if case .forex = kinds[index] { true } else { false }
    }

    /// `true` while any order is working.
    @inlinable public var hasWorkingOrders: Bool { !working.isEmpty }
    /// Number of working orders.
    public var workingOrderCount: Int { working.count }
    /// The ids of working orders, in submission order.
    public var workingOrderIDs: [OrderID] { working.map(\.id) }

    // MARK: - Commands

    /// Accepts an order (or rejects it) and, in `.thisClose` mode, fills a market order at once.
    /// - Parameters:
    ///   - order: the order to work; its remaining quantity is worked.
    ///   - now: submission time.
    ///   - reports: receives `.accepted` / `.rejected` and any immediate fills.
    ///   - account: whose buying power pays its fills (`funds`); 0 unless the caller keeps several accounts.
    public mutating func submit(
        _ order: Order, at now: Timestamp, account: Int = 0, into reports: inout [ExecutionReport]
    ) {
        let index = order.instrument.index
        guard index >= 0, index < workingCount.count else {
            reports.append(.rejected(order.id, reason: "unknown instrument \(order.instrument)", at: now))
            return
        }
        guard order.remainingQuantity.units > 0 else {
            reports.append(.rejected(order.id, reason: "quantity must be positive", at: now))
            return
        }
        if let reason = fractionRefusal(order.remainingQuantity) {
            reports.append(.rejected(order.id, reason: reason, at: now))
            return
        }
        let sign = order.side.sign
        guard let mode = WaitMode(type: order.type, sign: sign, reference: lastBars[index]?.close) else {
            reports.append(.rejected(order.id, reason: "invalid price for \(order.type.ibName)", at: now))
            return
        }
        let goodTill = order.timeInForce == .gtd ? order.execution?.goodTill : nil
        if order.timeInForce == .gtd, goodTill == nil {
            reports.append(.rejected(order.id, reason: "a GTD order needs a good-till time", at: now))
            return
        }
        let delay = max(config.latency.nanoseconds, 1)
        var entry = WorkingOrder(
            id: order.id, instrument: order.instrument, side: order.side, sign: sign,
            remaining: order.remainingQuantity, mode: mode, timeInForce: order.timeInForce,
            ocaGroup: order.ocaGroup, parentID: order.parentID, submittedAt: now,
            activeAt: Timestamp(nanoseconds: now.nanoseconds + delay),
            isArmed: order.parentID.map { parent in !working.contains { $0.id == parent } } ?? true,
            isDone: false, goodTill: goodTill, isAdaptive: order.execution?.algo != nil)
        entry.account = account
        if let rules = sessionRules, isIntraday[index], kinds[index] == .stock {
            let sessions = rules.sessions(for: order.type, execution: order.execution)
            entry.sessions = sessions
            entry.execution = order.execution
            if order.timeInForce == .day {
                entry.dayExpiry = rules.dayOrderExpiry(submittedAt: entry.activeAt, sessions: sessions)
            }
        }
        reports.append(.accepted(order.id, at: now + config.latency))
        working.append(entry)
        workingCount[index] += 1
        if config.marketFill == .thisClose, config.latency.nanoseconds == 0, mode == .market, entry.isArmed,
            let bar = lastBars[index], entry.sessions.map({ allows($0, at: bar.timestamp) }) ?? true
        {
            var used = Quantity.zero
            fillAtClose(of: bar, orderAt: working.count - 1, now: now, used: &used, into: &reports)
            compact()
        }
    }

    /// Accepts a bracket: the parent, then its children, which stay unarmed until the parent has filled.
    /// If the parent is rejected, so are the children.
    /// - Parameters:
    ///   - parent: the entry order.
    ///   - children: protective orders whose `parentID` is the parent's id.
    ///   - now: submission time.
    ///   - reports: receives the acknowledgements.
    public mutating func submitBracket(
        parent: Order, children: [Order], at now: Timestamp, into reports: inout [ExecutionReport]
    ) {
        let before = reports.count
        submit(parent, at: now, into: &reports)
        let rejected = reports[before...].contains { report in
            if case let .rejected(id, _, _) = report { return id == parent.id }
            return false
        }
        for child in children {
            if rejected {
                reports.append(.rejected(child.id, reason: "parent \(parent.id) rejected", at: now))
            } else {
                submit(child, at: now, into: &reports)
            }
        }
    }

    /// Cancels a working order (and its bracket children).
    /// - Parameters:
    ///   - id: the order.
    ///   - now: the time of the cancel.
    ///   - reports: receives `.canceled`, or `.modifyRejected` when the order is not working.
    public mutating func cancel(_ id: OrderID, at now: Timestamp, into reports: inout [ExecutionReport]) {
        guard let i = working.firstIndex(where: { $0.id == id }) else {
            reports.append(.modifyRejected(id, reason: "order \(id) is not working", at: now))
            return
        }
        finish(at: i, report: .canceled(id, reason: .requested, at: now), into: &reports)
        cancelChildren(of: id, at: now, into: &reports)
        compact()
    }

    /// Changes quantity and/or price of a working order.
    /// - Parameters:
    ///   - id: the order.
    ///   - change: new total quantity (already-filled quantity is kept) and/or type.
    ///   - context: `(filledQuantity, now)`: what has traded already and the time of the change.
    ///   - reports: receives `.replaced` or `.modifyRejected`.
    public mutating func modify(
        _ id: OrderID, _ change: OrderModification, context: (filled: Quantity, now: Timestamp),
        into reports: inout [ExecutionReport]
    ) {
        let now = context.now
        guard let i = working.firstIndex(where: { $0.id == id }) else {
            reports.append(.modifyRejected(id, reason: "order \(id) is not working", at: now))
            return
        }
        if let quantity = change.quantity {
            let remaining = quantity - context.filled
            guard remaining.units > 0 else {
                reports.append(.modifyRejected(id, reason: "new quantity not above filled quantity", at: now))
                return
            }
            if let reason = fractionRefusal(remaining) {
                reports.append(.modifyRejected(id, reason: reason, at: now))
                return
            }
            working[i].remaining = remaining
        }
        if let type = change.type {
            let ref = lastBars[working[i].instrument.index]?.close
            guard let mode = WaitMode(type: type, sign: working[i].sign, reference: ref) else {
                reports.append(.modifyRejected(id, reason: "invalid price for \(type.ibName)", at: now))
                return
            }
            working[i].mode = mode
            // Only an order that keeps sessions (intraday stock data) gets those of its new type.
            if let rules = sessionRules, working[i].sessions != nil {
                working[i].sessions = rules.sessions(for: type, execution: working[i].execution)
            }
        }
        // IBKR bills a modified order as a new one: its next fill pays a new minimum.
        working[i].commission.restart()
        reports.append(.replaced(id, at: now))
    }

    /// Why a quantity cannot be worked: a fraction of a share while `fractionalShares` is off (`nil`: it can).
    func fractionRefusal(_ quantity: Quantity) -> String? {
        guard !config.fractionalShares, quantity.units % FixedPoint.scale != 0 else { return nil }
        return "\(quantity) is not a whole number of shares (fractional shares are off)"
    }

    // MARK: - Market data

    /// Matches the working orders of one instrument against a bar.
    /// - Parameters:
    ///   - bar: the bar; its timestamp is the time of the fills.
    ///   - instrument: whose bar it is.
    ///   - reports: receives fills, expiries and OCA/IOC cancels.
    @inlinable
    public mutating func process(bar: Bar, for instrument: InstrumentID, into reports: inout [ExecutionReport]) {
        setLastBar(bar, for: instrument)
        if hasWorkingOrders { matchBar(bar, for: instrument, sides: nil, into: &reports) }
    }

    /// Matches one side's working orders of an instrument against a bar: a time step's fills are simultaneous, so
    /// the backtest matches every sell of the step before any buy (a rotation's sales pay for its purchases, as they
    /// do at IB, whose cash account counts a sale's proceeds at once). The first pass of a bar records it
    /// (`process(bar:)`'s work); the volume cap applies to both passes together.
    /// - Parameters:
    ///   - bar: the bar; its timestamp is the time of the fills.
    ///   - instrument: whose bar it is.
    ///   - side: `.sell` first (records the bar), then `.buy`.
    ///   - reports: receives fills, expiries and OCA/IOC cancels of that side's orders.
    @inlinable
    public mutating func process(
        bar: Bar, for instrument: InstrumentID, side: Side, into reports: inout [ExecutionReport]
    ) {
        if side == .sell { setLastBar(bar, for: instrument) }
        if hasWorkingOrders { matchBar(bar, for: instrument, sides: side, into: &reports) }
    }

    /// Whether an instrument has working orders (the caller sets `funds` only then).
    @inlinable
    public func hasWorkingOrders(for instrument: InstrumentID) -> Bool { workingCount[instrument.index] > 0 }

    /// Sets an account's buying power for the fills of the next matching call (`FundsAtFill`).
    public mutating func setFunds(_ snapshot: FundsAtFill, account: Int = 0) {
        if account >= funds.count { funds += Array(repeating: nil, count: account + 1 - funds.count) }
        funds[account] = snapshot
        fundsInForce = true
    }

    /// Clears every account's buying power (no check until set again); keeps the storage.
    @inlinable
    public mutating func clearFunds() {
        guard fundsInForce else { return }
        clearAllFunds()
    }

    @usableFromInline
    mutating func clearAllFunds() {
        for k in funds.indices { funds[k] = nil }
        fundsInForce = false
    }

    /// An account's buying power in force (`nil`: none set).
    func fundsOf(_ account: Int) -> FundsAtFill? { fundsInForce && account < funds.count ? funds[account] : nil }

    /// `true` when buying-power cuts wait to be taken.
    @inlinable public var hasFundsCuts: Bool { !fundsCuts.isEmpty }

    /// Hands over the buying-power cuts recorded since the last call.
    public mutating func takeFundsCuts() -> [FundsCut] {
        defer { fundsCuts.removeAll() }
        return fundsCuts
    }

    /// Records the latest bar of an instrument (used for trailing-stop starts and `.thisClose` fills).
    @inlinable
    mutating func setLastBar(_ bar: Bar, for instrument: InstrumentID) {
        if !isIntraday[instrument.index], let last = lastBars[instrument.index],
            bar.timestamp.nanoseconds - last.timestamp.nanoseconds < Self.intradaySpacing
        {
            isIntraday[instrument.index] = true
        }
        lastBars[instrument.index] = bar
        if sessionRules != nil, isIntraday[instrument.index] { noteSessionEvidence(bar.timestamp, instrument: instrument.index) }
    }

    /// Whether an order of `sessions` may trade at `time` (the calendar is asked once per session).
    mutating func allows(_ sessions: TradingSessions.SessionSet, at time: Timestamp) -> Bool {
        // Disjointness, not `contains`: every option set contains the empty one (all venues closed).
        if let span = sessionSpan, time >= span.from, time < span.until { return !sessions.isDisjoint(with: span.kind) }
        let span = (sessionRules ?? TradingSessions()).span(at: time)
        sessionSpan = span
        return !sessions.isDisjoint(with: span.kind)
    }

    /// Bars closer together than this are intraday (20 hours: a daily series' bars are a day or more apart).
    @usableFromInline static let intradaySpacing: Int64 = 20 * 3600 * 1_000_000_000

    /// Treats every instrument's data as intraday from the start (the gateway simulator, which knows its data's bar
    /// size and matches against quotes, not bars).
    public mutating func assumeIntraday() {
        isIntraday = Array(repeating: true, count: isIntraday.count)
    }

    /// Matches against a top-of-book quote: buys at the ask, sells at the bid, no volume cap.
    public mutating func process(quote: Quote, for instrument: InstrumentID, into reports: inout [ExecutionReport]) {
        guard workingCount[instrument.index] > 0 else { return }
        let buyPath = PricePath(price: quote.ask)
        let sellPath = PricePath(price: quote.bid)
        let midPath = PricePath(price: quote.mid)
        var used = Quantity.zero
        for i in working.indices where working[i].instrument == instrument {
            let path = working[i].mode.isMidpoint ? midPath : working[i].side == .buy ? buyPath : sellPath
            match(at: i, path: path, context: MatchContext(time: quote.timestamp, volume: nil), used: &used,
                into: &reports)
        }
        compact()
    }

    @usableFromInline
    mutating func matchBar(
        _ bar: Bar, for instrument: InstrumentID, sides: Side?, into reports: inout [ExecutionReport]
    ) {
        guard workingCount[instrument.index] > 0 else { return }
        let path = PricePath(bar: bar)
        var used = Quantity.zero
        if sides == .buy, passVolume[instrument.index].time == bar.timestamp { used = passVolume[instrument.index].used }
        defer { if sides == .sell { passVolume[instrument.index] = (bar.timestamp, used) } }
        let context = MatchContext(time: bar.timestamp, volume: bar.volume)
        var i = 0
        while i < working.count {
            if working[i].instrument == instrument, sides.map({ working[i].side == $0 }) ?? true {
                if let spread = config.limitFillsAtQuotes, working[i].mode.worksAtQuotes {
                    // The quotes at the bar's open and close, each a one-point path: filled at the quote.
                    let side = working[i].side
                    for price in [bar.open, bar.close] {
                        let quote = PricePath(
                            price: spread.apply(
                                to: price, side: side, volumeShare: 0, tick: ticks[instrument.index],
                                currencyPair: isPair(instrument.index)))
                        match(at: i, path: quote, context: context, used: &used, into: &reports)
                    }
                } else {
                    match(at: i, path: path, context: context, used: &used, into: &reports)
                }
            }
            i += 1
        }
        compact()
    }
}
