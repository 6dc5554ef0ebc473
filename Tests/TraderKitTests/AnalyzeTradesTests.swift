import Analytics
import Foundation
import Testing
import TraderKit

/// `ibtrader analyze` on a backtest's `equity.csv` reads the `trades.csv` beside it, so its trade figures are the
/// backtest's; an equity curve alone reports them as unknown (`null`, "–"), not as "Trades 0" and "Turnover 0.000".
struct AnalyzeTradesTests {
    static let tradeKeys = [
        "trades", "winning_trades", "losing_trades", "win_rate", "profit_factor", "expectancy", "average_win",
        "average_loss", "largest_win", "largest_loss", "net_profit", "total_commission", "average_holding_days",
        "turnover",
    ]

    func backtest(folder: String) async throws -> WrittenBacktest {
        try await WrittenBacktest(
            [
                "backtest.data": "bundled:stocks", "universe.symbols": "[GOOG]", "strategy.name": "sma-cross",
                "backtest.benchmark": "none", "backtest.commission": "percent:0.1",
            ], folder: folder)
    }

    @Test func theBacktestsOwnTradesGiveItsTradeFigures() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await backtest(folder: folder)
            let analysis = try EquityAnalysis(equityFile: backtest.out + "/equity.csv", benchmark: nil, periodsPerYear: nil)
            #expect(analysis.tradesFile == backtest.out + "/trades.csv")
            let out = folder + "/analysis"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try analysis.write(to: out)
            let analyzed = try WrittenBacktest.summary(at: out + "/summary.json")
            let summary = try backtest.summary()
            #expect((summary["trades"] as? Int ?? 0) > 10)
            let count = try #require(summary["trades"] as? Int)
            // trades.csv prints P&L and commission to the cent (half a cent each at most) and prices to 8 places; the
            // counts, win rate and holding time are exact.
            let tolerance: [String: Double] = [
                "net_profit": 0.01 * Double(count), "total_commission": 0.005 * Double(count), "expectancy": 0.01,
                "average_win": 0.01, "average_loss": 0.01, "largest_win": 0.01, "largest_loss": 0.01,
            ]
            for key in Self.tradeKeys + ["exposure"] {
                let expected = try #require(summary[key] as? Double, "\(key) in the backtest's summary.json")
                let actual = try #require(analyzed[key] as? Double, "\(key) in analyze's summary.json")
                let bound = tolerance[key] ?? 1e-6 * max(1, abs(expected))
                #expect(abs(actual - expected) <= bound, "\(key): analyze \(actual), backtest \(expected)")
            }
            let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
            #expect(html.contains("<table class=\"trades\">"))
        }
    }

    @Test func anEquityCurveAloneHasUnknownTradeFigures() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await backtest(folder: folder)
            let analysis = try EquityAnalysis(
                equityFile: backtest.out + "/equity.csv", benchmark: nil, trades: "none", periodsPerYear: nil)
            #expect(analysis.tradesFile == nil)
            let values = analysis.report.metricValues
            for key in Self.tradeKeys { #expect(values[key] == JSONValue.null, "\(key)") }
            let exposure = try #require(try backtest.summary()["exposure"] as? Double)
            guard case let .number(analyzed) = values["exposure"] else { Issue.record("no exposure"); return }
            #expect(abs(analyzed - exposure) < 1e-12, "exposure still comes from the curve")
            let table = SummaryTable.render(values, title: "t")
            let lines = table.split(separator: "\n")
            for label in ["Trades ", "Turnover ", "Win rate "] {
                let line = try #require(lines.first { $0.hasPrefix(label) }, "\(label)in\n\(table)")
                #expect(line.hasSuffix("  –"), "\(line)")
            }
            let out = folder + "/analysis"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try analysis.write(to: out)
            let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
            #expect(html.contains("The trades are not known"))
            #expect(!html.contains("No closed trades."))
        }
    }

    /// trades.csv lists positions still open at the end with no exit: they are not closed trades. Its P&L is gross
    /// of commission, a record's net.
    @Test func openPositionsAreNotClosedTrades() throws {
        let text = """
            symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission
            AMD,LONG,1361,2009-12-02,7.21,2010-03-02,8.62506245,1925.90,1.50
            GENZ,LONG,137,2010-08-03,70.08,,,0.00,0.00

            """
        let trades = try CSVReader.trades(from: text)
        #expect(trades == [
            TradeRecord(
                symbol: "AMD", side: .long, quantity: 1361, entryTime: 1_259_712_000, entryPrice: 7.21,
                exitTime: 1_267_488_000, exitPrice: 8.62506245, pnl: 1925.90 - 1.50, commission: 1.50),
        ])
    }

    @Test func aBadTradesFileNamesItsLineAndColumn() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await backtest(folder: folder)
            let bad = folder + "/bad.csv"
            try "symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission\nGOOG,UP,1,2010-01-04,1,2010-01-05,2,1,0\n"
                .write(toFile: bad, atomically: true, encoding: .utf8)
            #expect(throws: TraderError("\(bad): line 2: 'UP' in column 'side' is not allowed: use LONG or SHORT")) {
                try EquityAnalysis(equityFile: backtest.out + "/equity.csv", benchmark: nil, trades: bad, periodsPerYear: nil)
            }
            try "symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl\n".write(toFile: bad, atomically: true, encoding: .utf8)
            #expect(throws: TraderError("\(bad): the header has no 'commission' column")) {
                try EquityAnalysis(equityFile: backtest.out + "/equity.csv", benchmark: nil, trades: bad, periodsPerYear: nil)
            }
        }
    }
}
