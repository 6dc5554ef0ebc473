import TradingModel

/// What one order has filled and paid so far: the state IBKR's per-order minimum and maximum need.
///
/// IBKR applies a schedule's minimum and maximum once per order, across all its partial fills (the stock page's
/// "Minimum per order" and "Maximum per order"; the forex minimum likewise; interactivebrokers.com, "Commissions
/// Stocks" and "Commissions Forex"). So each fill pays the schedule's charge of the order so far — its quantity and
/// trade value to date — less what the order's earlier fills paid (`CommissionCalculator.commission(…order:)`):
/// the fills of an order add up to the one charge of its total, and one 100-share order at the Fixed schedule pays
/// 1.00 whether it fills at once or in ten parts (the first part pays the minimum, the others nothing more).
///
/// IBKR bills a modified order, and one that persists overnight, as a new order (its notes: "Modified orders will be
/// treated as the cancellation and replacement of an existing order with a new order", which may subject them "to
/// commission minimums as if they were new orders"; "Orders that persist overnight will be considered a new order"):
/// a modification (`restart()`) and a fill on a later trading day start the count again.
public struct OrderCommission: Hashable, Sendable {
    /// Quantity filled since the order (re)started: shares, contracts or base-currency units.
    public private(set) var quantity = Quantity.zero
    /// The trade value of those fills (a future's contract value), in the instrument's currency.
    public private(set) var value = Money.zero
    /// Their per-share charge before the minimum and maximum (each fill at its Tiered band); a per-contract charge for
    /// a future; zero for a schedule charged on value.
    public private(set) var base = Money.zero
    /// What those fills paid: the schedule's charge of the order so far.
    public private(set) var paid = Money.zero
    /// The trading day of those fills (`nil` before the first).
    public private(set) var tradingDay: Int64?

    /// An order with no fill yet.
    public init() {}

    /// Starts the count again: the next fill is billed as a new order's first (IBKR bills a modified order so).
    public mutating func restart() { self = OrderCommission() }

    /// Adds a fill on trading day `day` to the order's totals (a fill on a later day starts a new order first).
    mutating func add(quantity: Quantity, value: Money, base: Money, on day: Int64) {
        if tradingDay != day {
            restart()
            tradingDay = day
        }
        self.quantity += quantity
        self.value += value
        self.base += base
    }

    /// Records the order's charge so far and returns what this fill pays of it (never negative: the charge of an
    /// order only grows with its fills).
    mutating func charge(_ due: Money) -> Money {
        let fill = due - paid
        paid = due
        return fill
    }
}

/// Computes commissions and keeps the month-to-date volume the Tiered schedule needs. One calculator serves the
/// backtest's matching engine and the gateway simulator alike (`MatchingEngine`), so both charge the same.
public struct CommissionCalculator: Hashable, Sendable {
    /// The schedule.
    public let model: CommissionModel
    private var month: Int = -1
    private var monthShares: Int64 = 0

    /// Creates a calculator.
    public init(model: CommissionModel) { self.model = model }

    /// The commission of one fill of an order, given what the order has filled and paid before (`order`, updated):
    /// the schedule's charge of the order's fills so far, minimum and maximum applied once to their total, less what
    /// its earlier fills paid. The fills of an order therefore add up to the charge of one execution of its whole
    /// quantity (Tiered: each fill's shares at the band of its time). Records the fill's volume.
    /// - Parameters:
    ///   - quantity: shares, contracts or base-currency units executed (positive).
    ///   - price: execution price.
    ///   - time: execution time: selects the month for Tiered pricing, and a fill on a later trading day than the
    ///     order's earlier ones starts a new order (`OrderCommission`).
    ///   - kind: what traded: IBKR's schedules charge a future per contract and a currency pair by trade value
    ///     (`IBKRContractRates`); `.percentage` charges the trade value (a future's contract value) for all.
    ///   - order: the order's fills and charges so far; starts as `OrderCommission()`.
    /// - Returns: the fill's commission, in the instrument's currency; zero or more.
    public mutating func commission(
        quantity: Quantity, price: Price, at time: Timestamp, kind: InstrumentKind = .stock,
        order: inout OrderCommission
    ) -> Money {
        let value = Money(price: price, quantity: quantity).times(kind.multiplier)
        let base: Money
        switch (model, kind) {
        case (.none, _), (.percentage, _), (.ibkrFixed, .forex), (.ibkrTiered, .forex):
            base = .zero
        case (.ibkrFixed, .future), (.ibkrTiered, .future):
            base = Money(units: FixedPoint.multiply(IBKRContractRates.futuresPerContract.units, quantity.units))
        case let (.ibkrFixed(s), .stock):
            base = Money(units: FixedPoint.multiply(s.perShare.units, quantity.units))
        case let (.ibkrTiered(s), .stock):
            let date = time.civilDate
            let key = date.year * 12 + date.month
            if key != month {
                month = key
                monthShares = 0
            }
            let rate = s.rate(monthToDateShares: monthShares)
            monthShares += quantity.wholeUnits
            base = Money(units: FixedPoint.multiply(rate.units, quantity.units))
        }
        order.add(quantity: quantity, value: value, base: base, on: Self.tradingDay(of: time, kind: kind))
        return order.charge(due(order, kind: kind))
    }

    /// The commission of one execution that is a whole order (`commission(…order:)` with a fresh order): a what-if
    /// preview, a futures roll's leg.
    public mutating func commission(quantity: Quantity, price: Price, at time: Timestamp, kind: InstrumentKind = .stock)
        -> Money
    {
        var order = OrderCommission()
        return commission(quantity: quantity, price: price, at: time, kind: kind, order: &order)
    }

    /// The schedule's charge of an order's fills so far: its minimum and maximum applied to their total.
    private func due(_ order: OrderCommission, kind: InstrumentKind) -> Money {
        switch (model, kind) {
        case (.none, _):
            return .zero
        case (.ibkrFixed, .future), (.ibkrTiered, .future):
            return order.base
        case (.ibkrFixed, .forex), (.ibkrTiered, .forex):
            let raw = Money(units: Int64((Double(order.value.units) * IBKRContractRates.forexBasisPoints / 10_000).rounded()))
            return max(raw, IBKRContractRates.forexMinimum)
        case let (.ibkrFixed(s), .stock):
            return Self.bounded(order.base, minimum: s.minimum, maximumPercent: s.maximumPercent, of: order.value)
        case let (.ibkrTiered(s), .stock):
            return Self.bounded(order.base, minimum: s.minimum, maximumPercent: s.maximumPercent, of: order.value)
        case let (.percentage(percent), _):
            return Self.percent(percent, of: order.value)
        }
    }

    /// The trading day a fill counts in for "orders that persist overnight": for a stock the New York date, the
    /// overnight session (from 20:00 New York) counting in the next day, whose session it trades for; for a future
    /// or a currency pair the Globex day (`FutureSpec.tradingDay`, from 18:00 New York the next one).
    static func tradingDay(of time: Timestamp, kind: InstrumentKind) -> Int64 {
        switch kind {
        case .stock: USEquityCalendar.newYorkDay(of: time + .seconds(4 * 3600))
        case .future, .forex: FutureSpec.tradingDay(of: time)
        }
    }

    private static func bounded(_ raw: Money, minimum: Money, maximumPercent: Double, of value: Money) -> Money {
        min(max(raw, minimum), percent(maximumPercent, of: value))
    }

    /// `percent` % of `value`, to the nearest unit.
    private static func percent(_ percent: Double, of value: Money) -> Money {
        Money(units: Int64((Double(value.units) * percent / 100).rounded()))
    }
}
