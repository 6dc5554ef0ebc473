import TradingModel

/// An account's buying power as one fill meets it: what the matching engine checks before it books a fill that adds
/// to a position (`MatchingEngine.funds`). The backtest and the gateway simulator both fill through it, so a cut in
/// one is the same cut in the other.
///
/// The rule is IB's for the account kind, as LEAN applies it when an order fills (its `BuyingPowerModel`), not only
/// when the order is sized:
/// - `.cash` (a cash account, or a margin account run without `risk.allowLeverage`): after the fill, cash ≥ 0 and
///   gross exposure ≤ equity. A fill that breaks either is cut to the whole units that keep both, or refused when
///   that is none.
/// - `.margin(initial:)` (a margin account with leverage: Reg T's 50 % unless configured): after the fill, equity ≥
///   initial margin, the margin being `initial` × gross exposure (FINRA Rule 4210 and Regulation T §220.12).
///
/// Only the part of a fill that opens or adds to a position is checked: a fill that closes or reduces one always
/// goes through, whatever the cash (a short is covered, a long sold, even at a loss). Values are in the account's
/// currency: a fill's price and commission convert at `rate`.
public struct FundsAtFill: Sendable, Equatable {
    /// The account kind's rule.
    public enum Rule: Hashable, Sendable, Codable {
        /// Cash pays every purchase: cash ≥ 0 and gross exposure ≤ equity after the fill.
        case cash
        /// Margin: equity ≥ `initial` × gross exposure after the fill (a fraction: 0.5 for Reg T).
        case margin(initial: Double)
    }

    /// The rule checked.
    public var rule: Rule
    /// Cash, in the account currency.
    public var cash: Double
    /// Equity (net liquidation), in the account currency.
    public var equity: Double
    /// Σ |position value| (a future's contract value), in the account currency.
    public var grossExposure: Double
    /// The signed quantity held in the instrument being matched, in units (shares, contracts, base currency).
    public var held: Double
    /// Account currency per unit of the instrument's currency (1 for an instrument priced in it).
    public var rate: Double

    /// Creates a snapshot of the account before the fills of one matching call.
    public init(rule: Rule, cash: Double, equity: Double, grossExposure: Double, held: Double, rate: Double = 1) {
        self.rule = rule
        self.cash = cash
        self.equity = equity
        self.grossExposure = grossExposure
        self.held = held
        self.rate = rate
    }

    /// The account after a fill of `quantity` (positive) on `side` at `price`, paying `commission` (instrument
    /// currency), of an instrument whose price is paid (`paysNotional`) and whose contract is `multiplier` units.
    public func after(
        _ side: Side, quantity: Double, price: Double, commission: Double, multiplier: Double, paysNotional: Bool
    ) -> FundsAtFill {
        let sign: Double = side == .buy ? 1 : -1
        let value = price * multiplier * rate
        var next = self
        next.cash -= (paysNotional ? sign * quantity * value : 0) + commission * rate
        next.equity -= commission * rate
        next.grossExposure += (abs(held + sign * quantity) - abs(held)) * value
        next.held = held + sign * quantity
        return next
    }

    /// Whether the account satisfies its rule (a cent of rounding allowed).
    public var isFunded: Bool {
        switch rule {
        case .cash: cash >= -0.005 && grossExposure <= equity + 0.005
        case let .margin(initial): equity + 0.005 >= initial * grossExposure
        }
    }

    /// The quantity of a fill that only closes or reduces the position (never checked).
    public func closingPart(_ side: Side, quantity: Double) -> Double {
        let opposes = side == .buy ? held < 0 : held > 0
        return opposes ? min(quantity, abs(held)) : 0
    }

    /// The text a user reads when a fill is cut or refused: IB's reason, then the figures.
    /// - Parameters:
    ///   - asked: what the order had left to fill.
    ///   - filled: what this fill took (0 when refused).
    ///   - unit: "shares", "contracts", "units".
    public func reason(asked: Quantity, filled: Quantity, price: Price, unit: String) -> String {
        func money(_ value: Double) -> String { Money(approximately: value).centsDescription }
        let what: String
        switch rule {
        case .cash:
            what = "cash \(money(cash)) and equity \(money(equity)) pay"
        case let .margin(initial):
            what = "equity \(money(equity)) at \(Int((initial * 100).rounded())) % initial margin pays"
        }
        let taken = filled.isZero ? "refused" : "cut to \(filled) of \(asked) \(unit)"
        return "insufficient buying power: \(taken) at \(price) (\(what) for \(filled) of \(asked))"
    }
}

/// A fill the account's buying power cut or refused (`MatchingEngine.fundsCuts`).
public struct FundsCut: Sendable {
    /// The order.
    public var orderID: OrderID
    /// The instrument.
    public var instrument: InstrumentID
    /// When the fill was due.
    public var time: Timestamp
    /// What the order had left to fill.
    public var asked: Quantity
    /// What filled (zero: refused).
    public var filled: Quantity
    /// The price it was due at.
    public var price: Price
    /// Why, with the figures (`FundsAtFill.reason`).
    public var reason: String
    /// Bracket children resized to the parent's filled quantity and armed (empty when none, or nothing filled).
    public var resizedChildren: [(id: OrderID, quantity: Quantity)]

    /// Creates a record.
    public init(
        orderID: OrderID, instrument: InstrumentID, time: Timestamp, asked: Quantity, filled: Quantity, price: Price,
        reason: String, resizedChildren: [(id: OrderID, quantity: Quantity)] = []
    ) {
        self.orderID = orderID
        self.instrument = instrument
        self.time = time
        self.asked = asked
        self.filled = filled
        self.price = price
        self.reason = reason
        self.resizedChildren = resizedChildren
    }
}
