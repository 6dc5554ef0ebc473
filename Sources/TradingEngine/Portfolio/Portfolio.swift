import TradingModel

/// Cash, positions and their marks, kept incrementally so each bar costs O(1).
///
/// Invariant (checked by tests at every step): `equity == cash + Σ positions[i].carriedValue(at: marks[i])`: a
/// stock's or currency's market value, a future's unrealized P&L (buying a future pays no price; its gains and
/// losses move cash when they are realized). Gross exposure counts a future's whole contract value.
/// Marks are the last prices seen (bar closes or fill prices before the first bar).
///
/// Currencies (`CurrencyConversion`): an instrument priced in another currency than the account's books its cash,
/// value and exposure in that currency's balance; `cash`, `positionsValue`, `grossExposure`, `equity` and the P&L
/// and commission totals are in the account's currency, each other currency converted at its latest rate (the close of
/// the universe's pair of the two: `rate(for:)`). A rate moves equity as a price does. A position's own figures
/// (`Position.realizedPnL`, its average price) stay in its instrument's currency.
///
/// Settlement: sale proceeds become *settled* `settlementDays` trading days after the fill (`USEquityCalendar`:
/// weekdays without the exchanges' holidays); purchases reduce settled cash at once. `settlementDays = 0` settles
/// immediately.
public struct Portfolio: Sendable {
    /// Cash in the account's currency, every currency's balance converted (can go negative: margin is not modelled).
    public private(set) var cash: Money
    /// Cash at the start.
    public let initialCash: Money
    /// Positions indexed by `InstrumentID.index`.
    public private(set) var positions: [Position]
    /// Last price per instrument (zero before any data).
    public private(set) var marks: [Price]
    /// Σ carried value over all positions (`Position.carriedValue`).
    public private(set) var positionsValue: Money
    /// Σ |quantity × mark × multiplier| over all positions.
    public private(set) var grossExposure: Money
    /// Realized P&L before commissions, all instruments.
    public internal(set) var realizedPnL: Money  // internal(set): the restart restore (EngineCore+RealizedRestore.swift)
    /// Commissions paid, all instruments.
    public private(set) var commissions: Money
    /// Number of non-flat positions.
    public private(set) var activePositionCount: Int
    /// Trading days until sale proceeds settle.
    public let settlementDays: Int
    private var pendingSettlements: [(settlesAt: Timestamp, amount: Money)] = []
    private var pendingHead = 0
    /// Sale proceeds not yet settled.
    public private(set) var unsettledCash: Money = .zero
    /// The currencies: which instrument is priced in which, and whose price is which rate.
    public let conversion: CurrencyConversion
    /// `true` when some instrument is priced in another currency (the mark's slow path).
    public let hasForeign: Bool
    /// The balances in the other currencies, `conversion.currencies`' order.
    public private(set) var balances: [CurrencyBalance]

    /// Creates a flat portfolio of stocks.
    /// - Parameters:
    ///   - cash: starting cash.
    ///   - instrumentCount: size of the universe.
    ///   - settlementDays: T+N for sale proceeds (0 = immediate).
    public init(cash: Money, instrumentCount: Int, settlementDays: Int = 0) {
        self.init(cash: cash, kinds: Array(repeating: .stock, count: instrumentCount), settlementDays: settlementDays)
    }

    /// Creates a flat portfolio for a universe's instruments (futures count their multiplier), with `cash` in
    /// `accountCurrency`.
    public init(cash: Money, universe: Universe, settlementDays: Int = 0, accountCurrency: String = "USD") {
        self.init(
            cash: cash, kinds: universe.instruments.map(\.kind), settlementDays: settlementDays,
            conversion: CurrencyConversion(universe: universe, accountCurrency: accountCurrency))
    }

    private init(cash: Money, kinds: [InstrumentKind], settlementDays: Int, conversion: CurrencyConversion? = nil) {
        let instrumentCount = kinds.count
        self.cash = cash
        self.initialCash = cash
        self.positions = kinds.enumerated().map { Position(instrument: InstrumentID(index: $0), kind: $1) }
        self.marks = Array(repeating: .zero, count: instrumentCount)
        self.positionsValue = .zero
        self.grossExposure = .zero
        self.realizedPnL = .zero
        self.commissions = .zero
        self.activePositionCount = 0
        self.settlementDays = settlementDays
        let conversion = conversion ?? CurrencyConversion(singleCurrency: instrumentCount)
        self.conversion = conversion
        self.hasForeign = !conversion.isSingleCurrency
        self.balances = conversion.currencies.map { CurrencyBalance(currency: $0) }
    }

    /// Cash plus the marked value of all positions.
    @inlinable public var equity: Money { cash + positionsValue }
    /// Cash available under T+N settlement.
    public var settledCash: Money { cash - unsettledCash }
    /// Unrealized P&L of all positions at their marks.
    public var unrealizedPnL: Money {
        var total = Money.zero
        for (i, p) in positions.enumerated() where !p.isFlat {
            total += p.unrealizedPnL(at: marks[i]).converted(at: rate(for: p.instrument))
        }
        return total
    }

    /// The position in an instrument.
    @inlinable public func position(for instrument: InstrumentID) -> Position { positions[instrument.index] }

    /// Marked market value of one position (a future's contract value), in the account's currency.
    public func positionValue(for instrument: InstrumentID) -> Money {
        positions[instrument.index].marketValue(at: marks[instrument.index]).converted(at: rate(for: instrument))
    }

    /// The exposure |quantity × mark × multiplier| a quantity of an instrument would have at its mark (a projected
    /// position's, in the risk checks).
    public func exposure(of instrument: InstrumentID, quantity: Int64) -> Money {
        let i = instrument.index
        return Money(units: FixedPoint.multiply(marks[i].units, quantity)).times(positions[i].multiplier).magnitude
            .converted(at: rate(for: instrument))
    }

    /// Moves an instrument's mark to a new price (a bar close or trade).
    @inlinable
    public mutating func mark(_ instrument: InstrumentID, at price: Price) {
        let i = instrument.index
        if hasForeign { return markConverting(i, at: price) }
        let quantity = positions[i].quantity.units
        if quantity != 0 { revalue(i, to: price, quantity: quantity) } else { setMark(i, price) }
    }

    @usableFromInline
    mutating func setMark(_ i: Int, _ price: Price) { marks[i] = price }

    @usableFromInline
    mutating func revalue(_ i: Int, to price: Price, quantity: Int64) {
        // A mark moves a stock's value and a future's unrealized P&L alike: by q·Δp·multiplier (the average price
        // is fixed). Whole-share positions (the common case): one checked multiply of the price change. Marks are
        // never negative, so |q·p| changes by sign(q)·q·Δp.
        let multiplier = positions[i].multiplier
        let whole = quantity / FixedPoint.scale
        if whole * FixedPoint.scale == quantity {
            let (perUnit, overflow) = (price.units - marks[i].units).multipliedReportingOverflow(by: whole)
            let (delta, overflowTimes) = perUnit.multipliedReportingOverflow(by: multiplier)
            if !overflow, !overflowTimes {
                positionsValue.units += delta
                grossExposure.units += quantity > 0 ? delta : -delta
                marks[i] = price
                return
            }
        }
        let old = positions[i].marketValue(at: marks[i]).units
        let new = positions[i].marketValue(at: price).units
        positionsValue.units += new - old
        grossExposure.units += new.magnitude.toInt64 - old.magnitude.toInt64
        marks[i] = price
    }

    /// A mark where some instrument is priced in another currency: a foreign instrument's value moves its currency's
    /// balance, and a pair that gives a rate moves that currency's conversion.
    @usableFromInline
    mutating func markConverting(_ i: Int, at price: Price) {
        let k = conversion.currencyIndex[i]
        if k == 0 {
            let quantity = positions[i].quantity.units
            if quantity != 0 { revalue(i, to: price, quantity: quantity) } else { setMark(i, price) }
        } else {
            let before = positions[i]
            balances[k - 1].value += before.carriedValue(at: price) - before.carriedValue(at: marks[i])
            balances[k - 1].gross += before.marketValue(at: price).magnitude - before.marketValue(at: marks[i]).magnitude
            marks[i] = price
        }
        let source = conversion.rateFor[i]
        if source != 0, price.units > 0 {
            let close = price.doubleValue
            balances[source - 1].rate = conversion.rateInverted[i] ? 1 / close : close
            reconvert(source)
        }
        if k != 0, k != source { reconvert(k) }
    }

    /// Replaces currency `k`'s converted terms in the totals by its balance at its rate now.
    mutating func reconvert(_ k: Int) {
        var balance = balances[k - 1]
        let cash = balance.cash.converted(at: balance.rate)
        let value = balance.value.converted(at: balance.rate)
        let gross = balance.gross.converted(at: balance.rate)
        self.cash += cash - balance.convertedCash
        positionsValue += value - balance.convertedValue
        grossExposure += gross - balance.convertedGross
        (balance.convertedCash, balance.convertedValue, balance.convertedGross) = (cash, value, gross)
        balances[k - 1] = balance
    }

    /// The account's currency per unit of the instrument's price currency now: 1 in the account's currency, the
    /// latest rate otherwise (0 before its pair's first price).
    @inlinable public func rate(for instrument: InstrumentID) -> Double {
        guard hasForeign else { return 1 }
        let k = conversion.currencyIndex[instrument.index]
        return k == 0 ? 1 : balances[k - 1].rate
    }

    /// Carries a continuous future's position into its next contract month, `gap` away (the new month's price minus
    /// the old one's): its average price and its mark move by the gap, so its P&L is unchanged and later marks (the
    /// new month's) move it only by what the new month moves. A backtest over each month's prices as traded does this
    /// at the roll, where the bot sells one month and buys the other.
    public mutating func carry(_ instrument: InstrumentID, movedBy gap: Price) {
        let i = instrument.index
        guard !positions[i].isFlat, gap.units != 0, marks[i].units + gap.units > 0 else { return }
        let before = positions[i]
        let oldMark = marks[i]
        positions[i].averagePrice.units += gap.units
        marks[i].units += gap.units
        let value = positions[i].carriedValue(at: marks[i]) - before.carriedValue(at: oldMark)
        let gross = positions[i].marketValue(at: marks[i]).magnitude - before.marketValue(at: oldMark).magnitude
        book(i, cash: .zero, value: value, gross: gross)
    }

    /// Adds changes in an instrument's currency to the totals (the account's currency) or to its currency's balance.
    private mutating func book(_ i: Int, cash: Money, value: Money, gross: Money) {
        let k = hasForeign ? conversion.currencyIndex[i] : 0
        if k == 0 {
            self.cash += cash
            positionsValue += value
            grossExposure += gross
        } else {
            balances[k - 1].cash += cash
            balances[k - 1].value += value
            balances[k - 1].gross += gross
            reconvert(k)
        }
    }

    /// Books a fill: position, cash, commission, realized P&L and settlement.
    /// - Returns: the realized P&L, in the account's currency.
    @discardableResult
    public mutating func apply(_ fill: Fill) -> Money {
        let i = fill.instrument.index
        if marks[i].units == 0 { marks[i] = fill.price }
        let before = positions[i]
        let inCurrency = positions[i].apply(fill)
        let after = positions[i]
        let rate = rate(for: fill.instrument)
        let realized = inCurrency.converted(at: rate)
        let cashDelta: Money
        if after.paysNotional {
            let notional = fill.notional.times(after.multiplier)
            cashDelta = fill.side == .buy ? -notional - fill.commission : notional - fill.commission
        } else {
            cashDelta = inCurrency - fill.commission
        }
        book(
            i, cash: cashDelta, value: after.carriedValue(at: marks[i]) - before.carriedValue(at: marks[i]),
            gross: after.marketValue(at: marks[i]).magnitude - before.marketValue(at: marks[i]).magnitude)
        if after.paysNotional, fill.side == .sell, settlementDays > 0, cashDelta.units > 0 {
            let proceeds = cashDelta.converted(at: rate)
            pendingSettlements.append((Self.settlementTime(of: fill.timestamp, days: settlementDays), proceeds))
            unsettledCash += proceeds
        }
        realizedPnL += realized
        commissions += fill.commission.converted(at: rate)
        if before.isFlat && !positions[i].isFlat { activePositionCount += 1 }
        if !before.isFlat && positions[i].isFlat { activePositionCount -= 1 }
        return realized
    }

    /// Books a commission that arrived after its fill (IB reports commissions separately): cash and the totals,
    /// as if it had come with the fill. A negative amount is a rebate.
    public mutating func bookCommission(_ amount: Money, for instrument: InstrumentID) {
        commissions += amount.converted(at: rate(for: instrument))
        book(instrument.index, cash: -amount, value: .zero, gross: .zero)
        positions[instrument.index].commission += amount
    }

    /// Sets cash and the commission total to what a crashed run had (live restart; `EngineCore.restore(cash:)`):
    /// `cash` in the account's currency itself and `foreign` in each other (a currency not listed holds none), the
    /// total converted at the latest rates. Positions and marks are untouched; unsettled proceeds are
    /// `restoreSettlements`'. `rates` are the run before's, for a currency whose pair has no price yet.
    public mutating func restoreBalances(
        cash: Money, foreign: [String: Money] = [:], rates: [String: Double] = [:], commissions: Money
    ) {
        var total = cash
        for k in balances.indices {
            if balances[k].rate == 0, let rate = rates[balances[k].currency], rate > 0, rate.isFinite {
                balances[k].rate = rate
                reconvert(k + 1)  // the positions' value at it; `cash` is set below
            }
            balances[k].cash = foreign[balances[k].currency] ?? .zero
            balances[k].convertedCash = balances[k].cash.converted(at: balances[k].rate)
            total += balances[k].convertedCash
        }
        self.cash = total
        self.commissions = commissions
    }

    /// The cash held in the account's currency itself: `cash` without the other currencies' balances.
    public var homeCash: Money { balances.reduce(cash) { $0 - $1.convertedCash } }

    /// The cash held in each other currency, in it (a restart's checkpoint).
    public var foreignCash: [String: Money] {
        Dictionary(uniqueKeysWithValues: balances.map { ($0.currency, $0.cash) })
    }

    /// The account's currency per unit of each other now (0 before its pair's first price).
    public var foreignRates: [String: Double] {
        Dictionary(uniqueKeysWithValues: balances.map { ($0.currency, $0.rate) })
    }

    /// Sale proceeds still settling after a restart (the run before's sales within the last `settlementDays`
    /// business days, from the journal), replacing any: each becomes settled at its time.
    public mutating func restoreSettlements(_ pending: [(settlesAt: Timestamp, amount: Money)]) {
        pendingSettlements = pending.filter { $0.amount.units > 0 }.sorted { $0.settlesAt < $1.settlesAt }
        pendingHead = 0
        unsettledCash = pendingSettlements.reduce(Money.zero) { $0 + $1.amount }
    }

    /// Releases sale proceeds whose settlement time has come.
    @inlinable
    public mutating func settle(upTo now: Timestamp) {
        if unsettledCash.units != 0 { releaseSettlements(upTo: now) }
    }

    @usableFromInline
    mutating func releaseSettlements(upTo now: Timestamp) {
        while pendingHead < pendingSettlements.count, pendingSettlements[pendingHead].settlesAt <= now {
            unsettledCash -= pendingSettlements[pendingHead].amount
            pendingHead += 1
        }
        if pendingHead == pendingSettlements.count {
            pendingSettlements.removeAll(keepingCapacity: true)
            pendingHead = 0
        }
    }

    /// The time proceeds of a fill at `time` settle: midnight UTC after `days` settlement days (the exchanges'
    /// trading days: a sale the day before Thanksgiving settles T+1 on the Friday, one on the Friday before Labor Day
    /// on the Tuesday, as at IB).
    public static func settlementTime(of time: Timestamp, days: Int) -> Timestamp {
        var day = time.dayNumber
        for _ in 0..<max(0, days) { day = USEquityCalendar.nextTradingDay(after: day) }
        return Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay)
    }
}

/// One currency's balance in a portfolio whose account is in another: amounts in the currency, and what they added
/// to the portfolio's totals at the last conversion.
public struct CurrencyBalance: Sendable, Hashable {
    /// The currency, e.g. `USD`.
    public let currency: String
    /// Account currency per unit of it (the pair's latest close, or one over it); 0 before the first.
    public internal(set) var rate = 0.0
    /// Cash in the currency: what its instruments' trades paid and received, commissions and futures' P&L.
    public internal(set) var cash = Money.zero
    /// Σ carried value of the positions priced in it.
    public internal(set) var value = Money.zero
    /// Σ gross exposure of the positions priced in it.
    public internal(set) var gross = Money.zero
    var convertedCash = Money.zero
    var convertedValue = Money.zero
    var convertedGross = Money.zero

    init(currency: String) { self.currency = currency }
}

extension UInt64 {
    @usableFromInline var toInt64: Int64 { Int64(truncatingIfNeeded: self) }
}
