import Backtest
import Foundation
import Testing
import TradingEngine
import TradingModel

/// The acceptance test: the peers' reference SMA 10/30 strategy on scenario S.
@Suite struct ReferenceStrategyTests {
    static let data: MarketData? = try? MarketData.load(files: [("SYM000", Fixtures.path("peers/S/SYM000.csv"))])

    @Test func scenarioSReproducesReferenceFillsExactly() throws {
        let data = try #require(Self.data)
        let result = BacktestRunner.run(strategy: MovingAverageCrossover(), data: data)
        let expected = try Fixtures.referenceFills("peers/fills_a_S.csv")
        #expect(result.barsProcessed == 100_000)
        #expect(result.fills.count == 3_815)
        #expect(expected.count == 3_815)
        var mismatches = 0
        for (fill, ref) in zip(result.fills, expected) {
            let quantity = (fill.side == .buy ? "" : "-") + fill.quantity.description
            if fill.timestamp.description != ref.time || quantity != ref.quantity
                || fill.price != Price(ref.price)
            {
                mismatches += 1
                if mismatches <= 3 { Issue.record("fill \(fill) differs from \(ref)") }
            }
        }
        #expect(mismatches == 0)
        #expect(result.finalEquity.centsDescription == "103645.88")
    }

    @Test func scenarioSFillAndTradeListsAreByteIdenticalToTheReference() throws {
        let data = try #require(Self.data)
        let result = BacktestRunner.run(strategy: MovingAverageCrossover(), data: data)
        let fills = try String(contentsOfFile: Fixtures.path("peers/fills_a_S.csv"), encoding: .utf8)
        let trades = try String(contentsOfFile: Fixtures.path("peers/trades_a_S.csv"), encoding: .utf8)
        #expect(result.fillsCSV == fills)
        #expect(result.tradesCSV == trades)
    }

    @Test func scenarioSRoundTripsMatchReferenceTrades() throws {
        let data = try #require(Self.data)
        let result = BacktestRunner.run(strategy: MovingAverageCrossover(), data: data)
        let text = try String(contentsOfFile: Fixtures.path("peers/trades_a_S.csv"), encoding: .utf8)
        let rows = text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(result.trades.count == rows.count)
        #expect(result.trades.filter(\.isOpen).count == 1)
        for (trade, row) in zip(result.trades, rows) where !trade.isOpen {
            #expect(trade.entryTime.description == String(row[1]))
            #expect(trade.exitTime?.description == String(row[3]))
            #expect(trade.direction == .long)
            #expect(abs(trade.pnl.doubleValue - (Double(row[6]) ?? .nan)) < 0.005)
        }
        // The order submitted on the last bar, if any, is never filled.
        #expect(result.orders.filter { $0.isOpen }.count <= 1)
    }
}
