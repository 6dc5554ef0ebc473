/// Statistics over closed trades plus exposure and turnover of the equity curve.
///
/// A trade wins when its net `pnl > 0` and loses when `pnl < 0`; a `pnl` of exactly 0 counts in
/// ``trades`` and ``expectancy`` but is neither. Ratios with an empty denominator are `nil`.
public struct TradeStatistics: Sendable, Equatable {
    /// Number of closed trades.
    public var trades: Int
    /// Trades with `pnl > 0`.
    public var winningTrades: Int
    /// Trades with `pnl < 0`.
    public var losingTrades: Int
    /// `winningTrades / trades`.
    public var winRate: Double?
    /// Sum of winning P&L divided by the absolute sum of losing P&L (`nil` without losses).
    public var profitFactor: Double?
    /// Mean P&L per trade.
    public var expectancy: Double?
    /// Mean P&L of the winners.
    public var averageWin: Double?
    /// Mean P&L of the losers (negative).
    public var averageLoss: Double?
    /// The best trade's P&L among winners.
    public var largestWin: Double?
    /// The worst trade's P&L among losers (negative).
    public var largestLoss: Double?
    /// Sum of all trades' P&L.
    public var netProfit: Double
    /// Sum of all commissions.
    public var totalCommission: Double
    /// Mean of `exitTime - entryTime`, in seconds.
    public var averageHoldingSeconds: Double?
    /// Fraction of equity points with `grossExposure > 0`, among the points that report an exposure
    /// (`nil` when none does).
    public var exposure: Double?
    /// Traded notional (`quantity × (entryPrice + exitPrice)` summed over trades) divided by the
    /// mean equity of the curve (`nil` without a positive mean equity, or when the trades are not known).
    public var turnover: Double?
    /// `false` when the trades are not known (an equity curve analysed on its own): then every trade figure is
    /// unknown, not zero, and only ``exposure`` (from the curve) is meaningful.
    public var tradesKnown = true

    /// Mean holding time in days (`averageHoldingSeconds / 86400`).
    public var averageHoldingDays: Double? { averageHoldingSeconds.map { $0 / 86_400 } }

    /// Computes the statistics.
    /// - Parameters:
    ///   - trades: closed trades, in any order.
    ///   - equity: the equity curve, used for exposure and turnover (may be empty).
    public static func compute(trades: [TradeRecord], equity: [EquityPoint] = []) -> TradeStatistics {
        compute(trades: trades, equity: EquitySeries(equity))
    }

    /// Computes the statistics over a series (see ``compute(trades:equity:)-([TradeRecord],[EquityPoint])``).
    /// `nil` trades are unknown (an equity curve alone): then ``tradesKnown`` is `false`, the trade counts are 0 and
    /// ``turnover`` is `nil`; ``exposure`` still comes from the curve.
    public static func compute(trades known: [TradeRecord]?, equity: EquitySeries) -> TradeStatistics {
        let trades = known ?? []
        var stats = TradeStatistics(
            trades: trades.count, winningTrades: 0, losingTrades: 0, netProfit: 0, totalCommission: 0)
        stats.tradesKnown = known != nil
        var grossProfit = 0.0
        var grossLoss = 0.0
        var holding = 0.0
        var notional = 0.0
        for trade in trades {
            stats.netProfit += trade.pnl
            stats.totalCommission += trade.commission
            holding += Double(trade.exitTime) - Double(trade.entryTime)  // no Int64 overflow trap
            notional += abs(trade.quantity) * (abs(trade.entryPrice) + abs(trade.exitPrice))
            if trade.pnl > 0 {
                stats.winningTrades += 1
                grossProfit += trade.pnl
                stats.largestWin = max(stats.largestWin ?? trade.pnl, trade.pnl)
            } else if trade.pnl < 0 {
                stats.losingTrades += 1
                grossLoss += trade.pnl
                stats.largestLoss = min(stats.largestLoss ?? trade.pnl, trade.pnl)
            }
        }
        if !trades.isEmpty {
            let count = Double(trades.count)
            stats.winRate = Double(stats.winningTrades) / count
            stats.expectancy = finiteOrNil(stats.netProfit / count)
            stats.averageHoldingSeconds = holding / count
        }
        if stats.winningTrades > 0 { stats.averageWin = finiteOrNil(grossProfit / Double(stats.winningTrades)) }
        if stats.losingTrades > 0 {
            stats.averageLoss = finiteOrNil(grossLoss / Double(stats.losingTrades))
            stats.profitFactor = finiteOrNil(grossProfit / abs(grossLoss))
        }
        var reported = 0
        var exposed = 0
        var equitySum = 0.0
        for index in 0..<equity.count {
            if let exposure = equity.grossExposure(index) {
                reported += 1
                if exposure > 0 { exposed += 1 }
            }
            equitySum += equity.equity(index)
        }
        if reported > 0 { stats.exposure = Double(exposed) / Double(reported) }
        if !equity.isEmpty, stats.tradesKnown {
            let meanEquity = equitySum / Double(equity.count)
            if meanEquity > 0 { stats.turnover = finiteOrNil(notional / meanEquity) }
        }
        return stats
    }

    private init(trades: Int, winningTrades: Int, losingTrades: Int, netProfit: Double, totalCommission: Double) {
        self.trades = trades
        self.winningTrades = winningTrades
        self.losingTrades = losingTrades
        self.netProfit = netProfit
        self.totalCommission = totalCommission
    }
}
