import Analytics
import Backtest
import Foundation
import Simulation
import Testing
import TraderKit
import TradingEngine
import TradingModel

/// `trades.csv`, `orders.csv` and `equity.csv` are byte-identical to what the `String`-based writers produced
/// before the byte writer: the old row formatting is kept below as the reference.
struct BacktestOutputTests {
    /// Every order type, with commissions and slippage, so prices, cents and drawdowns take many shapes.
    struct EveryOrderType: Strategy {
        var step = 0
        mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
            guard case let .bar(id, bar) = event else { return [] }
            step += 1
            let price = bar.close
            let position = context.position(for: id).quantity
            if step % 9 == 0, position > .zero { return [.submit(.market(id, .sell, position))] }
            let type: OrderType
            switch step % 9 {
            case 1: type = .market
            case 2: type = .limit(price)
            case 3: type = .stop(Price(units: price.units + 50_000_000))
            case 4: type = .stopLimit(stop: Price(units: price.units + 10_000_000), limit: Price(units: price.units + 20_000_000))
            case 5: type = .trailingAmount(Price(units: 150_000_000))
            case 6: type = .trailingPercent(1.5)
            case 7: type = .trailingLimit(trail: Price(units: 100_000_000), limitOffset: Price(units: 5_000_000))
            case 8: type = .midprice(cap: step % 2 == 0 ? nil : price)
            default: return []
            }
            return [.submit(OrderRequest(instrument: id, side: .buy, quantity: Quantity(3), type: type))]
        }
    }

    static let result: BacktestResult = BacktestRunner.run(
        strategy: EveryOrderType(),
        data: SyntheticMarket.generate(SyntheticMarketConfig(symbols: 3, bars: 600, barInterval: .minutes(1), seed: 7)),
        config: BacktestConfig(simulation: SimulationConfig(
            slippage: .fixedBasisPoints(3), commission: .ibkrFixedDefault, maxVolumeParticipation: 0.02)))

    @Test(arguments: [false, true])
    func filesAreByteIdenticalToTheStringFormatting(isDaily: Bool) throws {
        let result = Self.result
        #expect(result.orders.count > 100)
        #expect(Set(result.orders.map(\.type.ibName)).count >= 7)
        #expect(result.fills.count > 50)
        let output = BacktestOutput(result: result, isDaily: isDaily)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-output-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try output.writeTradesCSV(to: folder + "/trades.csv")
        try output.writeOrdersCSV(to: folder + "/orders.csv")
        try output.writeEquityCSV(to: folder + "/equity.csv")
        let reference = StringFormatting(result: result, isDaily: isDaily)
        #expect(try String(contentsOfFile: folder + "/trades.csv", encoding: .utf8) == reference.tradesCSV())
        #expect(try String(contentsOfFile: folder + "/orders.csv", encoding: .utf8) == reference.ordersCSV())
        #expect(try String(contentsOfFile: folder + "/equity.csv", encoding: .utf8) == reference.equityCSV())
    }

    @Test func aFileLargerThanOnePieceIsWrittenWhole() throws {
        // 3 × 600 points is ~100 KB; a 40,000-point curve passes the 1 MiB piece size.
        let data = SyntheticMarket.generate(SyntheticMarketConfig(symbols: 1, bars: 40_000, barInterval: .minutes(1), seed: 3))
        let result = BacktestRunner.run(strategy: MovingAverageCrossover(), data: data)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-output-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try BacktestOutput(result: result, isDaily: false).writeEquityCSV(to: folder + "/equity.csv")
        let written = try String(contentsOfFile: folder + "/equity.csv", encoding: .utf8)
        #expect(written.utf8.count > 1 << 20)
        #expect(written == StringFormatting(result: result, isDaily: false).equityCSV())
    }

    @Test func anUnwritablePathIsAnErrorNamingIt() {
        let output = BacktestOutput(result: Self.result, isDaily: false)
        #expect(throws: TraderError.self) { try output.writeEquityCSV(to: "/proc/ibtrader-no/equity.csv") }
    }
}

/// The rows as the writers spelled them with `String` interpolation (the code before the byte writer).
private struct StringFormatting {
    let result: BacktestResult
    let isDaily: Bool

    func time(_ timestamp: Timestamp) -> String {
        let civil = CivilTime(unixSeconds: timestamp.nanoseconds / Timestamp.nanosecondsPerSecond)
        return isDaily ? civil.dateString : civil.dateTimeString
    }

    func tradesCSV() -> String {
        var text = "symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission\n"
        for trade in result.trades {
            text += "\(trade.symbol.rawValue),\(trade.direction == .long ? "LONG" : "SHORT"),\(trade.quantity),"
            text += "\(time(trade.entryTime)),\(trade.entryPrice),"
            text += "\(trade.exitTime.map(time) ?? ""),\(trade.exitPrice.map { "\($0)" } ?? ""),"
            text += "\(trade.pnl.centsDescription),\(trade.commission.centsDescription)\n"
        }
        return text
    }

    func ordersCSV() -> String {
        var text = "order_id,time,symbol,side,type,quantity,limit_price,stop_price,status,filled_quantity,avg_fill_price,commission,reason\n"
        for order in result.orders {
            var limit = "", stop = ""
            switch order.type {
            case .market: break
            case .limit(let price): limit = "\(price)"
            case .stop(let price): stop = "\(price)"
            case .stopLimit(let stopPrice, let limitPrice): stop = "\(stopPrice)"; limit = "\(limitPrice)"
            case .trailingAmount(let amount): stop = "trail \(amount)"
            case .trailingPercent(let percent): stop = "trail \(percent)%"
            case .trailingLimit(let trail, let offset): stop = "trail \(trail)"; limit = "offset \(offset)"
            case .midprice(let cap): limit = cap.map { "cap \($0)" } ?? ""
            }
            let symbol = result.universe.instruments[order.instrument.index].symbol.rawValue
            let fields = [
                "\(order.id.rawValue)", time(order.createdAt), symbol, order.side == .buy ? "BUY" : "SELL",
                order.type.ibName, "\(order.quantity)", limit, stop, "\(order.state)", "\(order.filledQuantity)",
                order.averageFillPrice.map { "\($0)" } ?? "", order.commission.centsDescription, order.reason ?? "",
            ]
            text += fields.map(BacktestOutput.escape).joined(separator: ",") + "\n"
        }
        return text
    }

    func equityCSV() -> String {
        var text = "time,equity,cash,gross_exposure,drawdown\n"
        for point in result.equityCurve {
            text += "\(time(point.time)),\(point.equity.centsDescription),\(point.cash.centsDescription),"
            text += "\(point.grossExposure.centsDescription),\(point.drawdown)\n"
        }
        return text
    }
}
