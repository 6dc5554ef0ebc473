import TradingModel

/// One account's money and positions. Belongs to the account, not to a connection: it survives reconnects and
/// simulated gateway restarts.
///
/// Margin follows a simplified Reg T: initial margin is 50 % of the gross position value, `AvailableFunds` is net
/// liquidation minus that margin, and `BuyingPower` is four times the available funds (IB's intraday figure).
public struct AccountBook: Sendable, Equatable {
    /// One position with its average cost (commissions included, as IB reports it).
    public struct Holding: Sendable, Equatable {
        /// Signed quantity (long > 0).
        public var quantity: Quantity
        /// Average cost per share including commissions.
        public var averageCost: Double
        /// Realized P&L booked on this instrument.
        public var realized: Double
    }

    /// The account code, e.g. `DU1234567`.
    public let accountCode: String
    /// Cash balance (settled immediately; the simulator does not model T+1).
    public private(set) var cash: Double
    /// Positions by instrument, including closed ones (quantity 0) so realized P&L stays visible.
    public private(set) var holdings: [InstrumentID: Holding] = [:]
    /// Total commissions paid.
    public private(set) var commissions: Double = 0
    /// Net liquidation at the start of the current day (for daily P&L).
    public var startOfDayValue: Double
    /// The day `startOfDayValue` belongs to.
    public var startOfDay: Int64 = .min

    /// Creates an account with starting cash.
    public init(accountCode: String, cash: Double) {
        self.accountCode = accountCode
        self.cash = cash
        self.startOfDayValue = cash
    }

    /// Books a fill; returns the realized P&L of the closing part (nil when it only opened or added).
    @discardableResult
    public mutating func apply(_ fill: Fill) -> Double? {
        let signed = fill.signedQuantity.doubleValue
        let price = fill.price.doubleValue
        let commission = fill.commission.doubleValue
        cash -= signed * price + commission
        commissions += commission
        var h = holdings[fill.instrument] ?? Holding(quantity: .zero, averageCost: 0, realized: 0)
        let old = h.quantity.doubleValue
        var realized: Double?
        if old == 0 || (old > 0) == (signed > 0) {
            let total = old + signed
            h.averageCost = (old * h.averageCost + signed * price + commission) / total
        } else {
            let closing = min(abs(signed), abs(old))
            let pnl = closing * (price - h.averageCost) * (old > 0 ? 1 : -1) - commission * closing / abs(signed)
            h.realized += pnl
            realized = pnl
            let remaining = old + signed
            if remaining != 0, (remaining > 0) != (old > 0) {
                // Flipped: the rest opens a new position at this fill's price.
                h.averageCost = price + commission * (abs(signed) - closing) / abs(signed) / abs(remaining)
            } else if remaining == 0 {
                h.averageCost = 0
            }
        }
        h.quantity = h.quantity + fill.signedQuantity
        holdings[fill.instrument] = h
        return realized
    }

    /// Account values at marks (last prices by instrument).
    public func valuation(marks: [InstrumentID: Double]) -> AccountValuation {
        var gross = 0.0, net = 0.0, unrealized = 0.0, realized = 0.0
        // In instrument order: a sum of doubles depends on its order, and a dictionary's changes from run to run.
        for (id, h) in holdings.sorted(by: { $0.key < $1.key }) {
            let q = h.quantity.doubleValue
            let mark = marks[id] ?? h.averageCost
            gross += abs(q * mark)
            net += q * mark
            unrealized += q * (mark - h.averageCost)
            realized += h.realized
        }
        let netLiquidation = cash + net
        let margin = gross * 0.5
        let available = netLiquidation - margin
        return AccountValuation(
            cash: cash, netLiquidation: netLiquidation, grossPositionValue: gross, initialMargin: margin,
            availableFunds: available, buyingPower: max(0, available * 4), unrealizedPnL: unrealized,
            realizedPnL: realized, dailyPnL: netLiquidation - startOfDayValue)
    }
}

/// An account's derived values at one moment.
public struct AccountValuation: Sendable, Equatable {
    /// Cash balance.
    public var cash: Double
    /// Cash plus the market value of all positions.
    public var netLiquidation: Double
    /// Σ |position × mark|.
    public var grossPositionValue: Double
    /// 50 % of the gross position value.
    public var initialMargin: Double
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
         ("MaintMarginReq", grossPositionValue * 0.25), ("AvailableFunds", availableFunds),
         ("ExcessLiquidity", netLiquidation - grossPositionValue * 0.25), ("Cushion", netLiquidation == 0 ? 0
            : (netLiquidation - grossPositionValue * 0.25) / netLiquidation),
         ("FullInitMarginReq", initialMargin), ("FullAvailableFunds", availableFunds),
         ("UnrealizedPnL", unrealizedPnL), ("RealizedPnL", realizedPnL), ("CashBalance", cash)]
    }
}
