import Testing
@testable import Analytics

@Suite struct TradeStatisticsTests {
    static func trade(_ pnl: Double, days: Int64 = 2, quantity: Double = 10) -> TradeRecord {
        TradeRecord(
            symbol: "AAPL", side: .long, quantity: quantity, entryTime: 0, entryPrice: 100,
            exitTime: days * 86_400, exitPrice: 100 + pnl / quantity, pnl: pnl, commission: 1)
    }

    @Test func winsLossesAndRatios() {
        let trades = [Self.trade(300), Self.trade(-100), Self.trade(100, days: 4), Self.trade(0), Self.trade(-200)]
        let equity = [
            EquityPoint(time: 0, equity: 10_000, grossExposure: 0),
            EquityPoint(time: 86_400, equity: 10_000, grossExposure: 1000),
            EquityPoint(time: 172_800, equity: 10_000, grossExposure: 1000),
            EquityPoint(time: 259_200, equity: 10_000, grossExposure: 0),
        ]
        let s = TradeStatistics.compute(trades: trades, equity: equity)
        #expect(s.trades == 5 && s.winningTrades == 2 && s.losingTrades == 2)
        #expect(s.winRate == 0.4)
        #expect(s.profitFactor == 400.0 / 300.0)
        #expect(s.expectancy == 100.0 / 5)
        #expect(s.averageWin == 200 && s.averageLoss == -150)
        #expect(s.largestWin == 300 && s.largestLoss == -200)
        #expect(s.totalCommission == 5 && s.netProfit == 100)
        #expect(s.averageHoldingDays == 2.4)
        #expect(s.exposure == 0.5)
        let notional = trades.reduce(0.0) { $0 + $1.quantity * ($1.entryPrice + $1.exitPrice) }
        #expect(s.turnover == notional / 10_000)
    }

    @Test func noTradesAndNoLosses() {
        let none = TradeStatistics.compute(trades: [])
        #expect(none.winRate == nil && none.expectancy == nil && none.profitFactor == nil && none.exposure == nil)
        let onlyWins = TradeStatistics.compute(trades: [Self.trade(5)])
        #expect(onlyWins.profitFactor == nil && onlyWins.winRate == 1 && onlyWins.averageLoss == nil)
    }
}
