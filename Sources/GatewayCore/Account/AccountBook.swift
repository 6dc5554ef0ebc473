import TradingModel

/// One account's money and positions. Belongs to the account, not to a connection: it survives reconnects and
/// simulated gateway restarts.
///
/// Margin is a share of each position's value (`MarginRates`: Reg T's 50 % initial, 25 % maintenance for stocks;
/// less for futures and currencies), `AvailableFunds` is net liquidation minus the initial margin, and `BuyingPower`
/// is four times the available funds (IB's intraday figure).
///
/// A future's price is not paid: buying one moves cash by the commission, the position is worth its unrealized P&L
/// (`quantity × (mark − fill price) × multiplier`), and closing it moves cash by the gain or loss, as at IB.
///
/// Cash is kept by currency, as IB keeps it: the starting cash in the account's base currency, a trade's price and
/// a future's gains in the instrument's currency, commissions in dollars (as the simulator charges them). The
/// account's figures are in its base currency, each balance and position converted at the rates given.
public struct AccountBook: Sendable, Equatable {
    /// One position with its average cost (commissions included, as IB reports it).
    public struct Holding: Sendable, Equatable {
        /// Signed quantity (long > 0).
        public var quantity: Quantity
        /// Average cost per unit of price including commissions (IB reports a future's times its multiplier).
        public var averageCost: Double
        /// Realized P&L booked on this instrument.
        public var realized: Double
        /// What the instrument is (multiplier, whether its price is paid, its margin).
        public var kind: InstrumentKind = .stock
        /// Average fill price without commissions: where a future's gains and losses are counted from.
        public var fillPrice: Double = 0

        /// The instrument's multiplier.
        public var multiplier: Double { Double(kind.multiplier) }
    }

    /// The account code, e.g. `DU1234567`.
    public let accountCode: String
    /// The currency the account's figures are in (`USD` unless configured).
    public let baseCurrency: String
    /// Cash by currency (settled immediately; the simulator does not model T+1).
    public private(set) var balances: [String: Double]
    /// The cash balance in the base currency (other currencies' balances apart).
    public var cash: Double { balances[baseCurrency] ?? 0 }
    /// Positions by instrument, including closed ones (quantity 0) so realized P&L stays visible.
    public private(set) var holdings: [InstrumentID: Holding] = [:]
    /// Total commissions paid.
    public private(set) var commissions: Double = 0
    /// Net liquidation at the start of the current day (for daily P&L).
    public var startOfDayValue: Double
    /// The day `startOfDayValue` belongs to.
    public var startOfDay: Int64 = .min

    /// Creates an account with starting cash in its base currency.
    public init(accountCode: String, cash: Double, baseCurrency: String = "USD") {
        self.accountCode = accountCode
        self.baseCurrency = baseCurrency
        self.balances = [baseCurrency: cash]
        self.startOfDayValue = cash
    }

    /// The currency commissions are charged in.
    static let commissionCurrency = "USD"

    /// Books a fill of an instrument of `kind`; returns the realized P&L of the closing part (nil when it only opened
    /// or added).
    @discardableResult
    public mutating func apply(_ fill: Fill, kind: InstrumentKind = .stock) -> Double? {
        let signed = fill.signedQuantity.doubleValue
        let price = fill.price.doubleValue
        let commission = fill.commission.doubleValue
        let multiplier = Double(kind.multiplier)
        let currency = CurrencyConversion.currency(of: kind)
        balances[currency, default: 0] -= kind.paysNotional ? signed * price : 0
        balances[Self.commissionCurrency, default: 0] -= commission
        commissions += commission
        var h = holdings[fill.instrument] ?? Holding(quantity: .zero, averageCost: 0, realized: 0, kind: kind)
        h.kind = kind
        let old = h.quantity.doubleValue
        var realized: Double?
        if old == 0 || (old > 0) == (signed > 0) {
            let total = old + signed
            h.averageCost = (old * h.averageCost + signed * price + commission / multiplier) / total
            h.fillPrice = (old * h.fillPrice + signed * price) / total
        } else {
            let closing = min(abs(signed), abs(old))
            let direction: Double = old > 0 ? 1 : -1
            let pnl = closing * (price - h.averageCost) * direction * multiplier - commission * closing / abs(signed)
            h.realized += pnl
            realized = pnl
            // A future's gain or loss since its fill is paid now (the commission went above).
            if !kind.paysNotional { balances[currency, default: 0] += closing * (price - h.fillPrice) * direction * multiplier }
            let remaining = old + signed
            if remaining != 0, (remaining > 0) != (old > 0) {
                // Flipped: the rest opens a new position at this fill's price.
                h.averageCost = price + commission * (abs(signed) - closing) / abs(signed) / abs(remaining) / multiplier
                h.fillPrice = price
            } else if remaining == 0 {
                (h.averageCost, h.fillPrice) = (0, 0)
            }
        }
        h.quantity = h.quantity + fill.signedQuantity
        holdings[fill.instrument] = h
        return realized
    }

    /// Closes a position at `price` without a fill or commission (a future's cash settlement at expiry); returns its
    /// realized P&L, or `nil` when nothing was held.
    @discardableResult
    public mutating func settle(_ id: InstrumentID, at price: Double) -> Double? {
        guard var h = holdings[id], !h.quantity.isZero else { return nil }
        let q = h.quantity.doubleValue
        let pnl = q * (price - h.averageCost) * h.multiplier
        h.realized += pnl
        balances[CurrencyConversion.currency(of: h.kind), default: 0] +=
            h.kind.paysNotional ? q * price : q * (price - h.fillPrice) * h.multiplier
        (h.quantity, h.averageCost, h.fillPrice) = (.zero, 0, 0)
        holdings[id] = h
        return pnl
    }

    /// Account values at marks (last prices by instrument), in the base currency: each other currency at `rates`
    /// (the base currency per unit of it; one without a rate counts one for one).
    public func valuation(marks: [InstrumentID: Double], rates: [String: Double] = [:]) -> AccountValuation {
        func rate(_ currency: String) -> Double { currency == baseCurrency ? 1 : rates[currency] ?? 1 }
        var gross = 0.0, net = 0.0, unrealized = 0.0, realized = 0.0, initial = 0.0, maintenance = 0.0
        // In instrument order: a sum of doubles depends on its order, and a dictionary's changes from run to run.
        for (id, h) in holdings.sorted(by: { $0.key < $1.key }) {
            let q = h.quantity.doubleValue
            let mark = marks[id] ?? h.averageCost
            let r = rate(CurrencyConversion.currency(of: h.kind))
            let value = abs(q * mark * h.multiplier) * r
            let margins = MarginRates(h.kind)
            gross += value
            net += (h.kind.paysNotional ? q * mark : q * (mark - h.fillPrice) * h.multiplier) * r
            unrealized += q * (mark - h.averageCost) * h.multiplier * r
            realized += h.realized * r
            initial += value * margins.initial
            maintenance += value * margins.maintenance
        }
        let cash = balances.sorted { $0.key < $1.key }.reduce(0.0) { $0 + $1.value * rate($1.key) }
        let netLiquidation = cash + net
        let available = netLiquidation - initial
        return AccountValuation(
            cash: cash, netLiquidation: netLiquidation, grossPositionValue: gross, initialMargin: initial,
            maintenanceMargin: maintenance, availableFunds: available, buyingPower: max(0, available * 4),
            unrealizedPnL: unrealized, realizedPnL: realized, dailyPnL: netLiquidation - startOfDayValue)
    }
}

/// The share of a position's value the simulator holds as margin: Reg T for stocks (50 % initial, 25 %
/// maintenance); for a future about what CME's equity-index contracts ask (7 % and 6 % of the contract value); for
/// a currency pair IB's 3 % on the major pairs.
public struct MarginRates: Sendable, Equatable {
    /// Initial margin per unit of position value.
    public let initial: Double
    /// Maintenance margin per unit of position value.
    public let maintenance: Double

    /// The rates of an instrument kind.
    public init(_ kind: InstrumentKind) {
        switch kind {
        case .stock: (initial, maintenance) = (0.5, 0.25)
        case .future: (initial, maintenance) = (0.07, 0.06)
        case .forex: (initial, maintenance) = (0.03, 0.03)
        }
    }
}

/// An account's derived values at one moment.
public struct AccountValuation: Sendable, Equatable {
    /// Cash balance.
    public var cash: Double
    /// Cash plus the market value of all positions.
    public var netLiquidation: Double
    /// Σ |position × mark × multiplier| (a future's contract value).
    public var grossPositionValue: Double
    /// Initial margin (`MarginRates` of each position's value).
    public var initialMargin: Double
    /// Maintenance margin.
    public var maintenanceMargin: Double
    /// Net liquidation minus initial margin.
    public var availableFunds: Double
    /// Four times the available funds.
    public var buyingPower: Double
    /// Σ position × (mark − average cost).
    public var unrealizedPnL: Double
    /// Σ realized P&L.
    public var realizedPnL: Double
    /// Net liquidation change since the start of the day.
    public var dailyPnL: Double

    /// The accountSummary / updateAccountValue tags and their values.
    public var tagValues: [(tag: String, value: Double)] {
        [("NetLiquidation", netLiquidation), ("TotalCashValue", cash), ("SettledCash", cash),
         ("AccruedCash", 0), ("BuyingPower", buyingPower), ("EquityWithLoanValue", netLiquidation),
         ("GrossPositionValue", grossPositionValue), ("InitMarginReq", initialMargin),
         ("MaintMarginReq", maintenanceMargin), ("AvailableFunds", availableFunds),
         ("ExcessLiquidity", netLiquidation - maintenanceMargin), ("Cushion", netLiquidation == 0 ? 0
            : (netLiquidation - maintenanceMargin) / netLiquidation),
         ("FullInitMarginReq", initialMargin), ("FullAvailableFunds", availableFunds),
         ("UnrealizedPnL", unrealizedPnL), ("RealizedPnL", realizedPnL), ("CashBalance", cash)]
    }
}
