import Backtest
import Simulation
import Testing
import TraderConfig
import TraderKit
import TradingEngine
import TradingModel

/// `backtest.futuresPrices: unadjusted` across ES's 2013-12-13 roll, as the bot rolls: the position is carried at the
/// two legs' prices at the roll bar (December opened at 1,779.25, March at 1,773.25: −6.00), not at the previous
/// closes' gap (1,767.50 − 1,773.75 = −6.25) the strategy's history moves by; and the trade held across the roll
/// closes at December's open and a new one opens at March's, so the trades add up to the equity curve.
struct UnadjustedRollTests {
    static func run(_ prices: String) throws -> (BacktestResult, BacktestDataLoader.Loaded) {
        let resolved = try DataSourceResolver.resolve("bundled:futures", symbols: ["ES continuous"])
        var settings = BacktestSettings()
        settings.data = "bundled:futures"
        settings.futuresPrices = prices
        let loaded = try BacktestDataLoader.load(resolved, settings: settings)
        var config = BacktestConfig(
            engine: EngineConfig(initialCash: Money(1_000_000)), simulation: SimulationConfig(commission: .ibkrFixedDefault))
        config.historyRebases = loaded.historyRebases
        config.futuresMonths = loaded.futuresMonths
        let strategy = MovingAverageCrossover(config: MovingAverageCrossoverConfig(
            fastPeriod: 3, slowPeriod: 10, allowShort: true, sizing: .fixedQuantity(Quantity(1))))
        return (BacktestRunner.run(strategy: strategy, data: loaded.data, config: config), loaded)
    }

    static let rollDay = Timestamp(year: 2013, month: 12, day: 13)

    @Test func theRollIsCarriedAtTheLegsPricesAtTheRollBar() throws {
        let (traded, loaded) = try Self.run("unadjusted")
        let rebase = try #require(loaded.historyRebases.first)
        #expect(rebase.gap == Price("-6.25")!)  // the strategy's history: the closes' gap
        #expect(rebase.rollBarCarry == Price("-6")!)  // the position: the legs' opens at the roll bar
        let roll = try #require(traded.rollCharges.first)
        let held = roll.quantity.wholeUnits
        #expect(held != 0, "the sample holds a position across the roll (else the roll is not exercised)")
        #expect(roll.legs == RollCharge.Legs(closedAt: Price("1779.25")!, openedAt: Price("1773.25")!))
        // The same decisions and costs over back-adjusted prices; the money differs by the legs' own gap against the
        // closes': held × 50 × (−6.25 − −6.00).
        let (adjusted, _) = try Self.run("back-adjusted")
        #expect(adjusted.orders.map { "\($0.createdAt) \($0.side) \($0.quantity)" }
            == traded.orders.map { "\($0.createdAt) \($0.side) \($0.quantity)" })
        #expect(adjusted.rollCharges.map(\.cost) == traded.rollCharges.map(\.cost))
        #expect(adjusted.rollCharges.first?.legs == nil)
        let difference = traded.finalEquity - adjusted.finalEquity
        #expect(difference == Money("-12.5")!.times(held))
    }

    /// The trade held across the roll ends at December's open on the roll bar and the next begins there at March's,
    /// as the bot's two legs end and begin them; every trade's P&L (and the open one's at the last mark) adds up to
    /// the run's P&L before costs. Before, the one trade across the roll counted the roll's gap as P&L: 312.50 per
    /// contract against the equity curve.
    @Test func theTradesAddUpToTheEquityCurve() throws {
        for prices in ["unadjusted", "back-adjusted"] {
            let (result, _) = try Self.run(prices)
            var sum = Money.zero
            for trade in result.trades {
                if trade.isOpen {
                    let sign: Int64 = trade.direction == .long ? 1 : -1
                    sum += Money(price: Price(units: result.marks[0].units - trade.entryPrice.units), quantity: trade.quantity)
                        .times(sign * 50)
                } else {
                    sum += trade.pnl
                }
            }
            let costs = result.commissionTotal.amount
            let pnl = result.finalEquity - Money(1_000_000)
            #expect(abs((sum - pnl).doubleValue - costs) < 0.005, "\(prices): trades \(sum), equity \(pnl), costs \(costs)")
            let split = result.trades.filter { $0.exitTime == Self.rollDay || $0.entryTime == Self.rollDay }
            if prices == "unadjusted" {
                #expect(split.count == 2, "\(result.trades)")
                #expect(split.first?.exitPrice == Price("1779.25")! && split.last?.entryPrice == Price("1773.25")!)
                #expect(split.first?.direction == split.last?.direction)
            }
        }
    }
}
