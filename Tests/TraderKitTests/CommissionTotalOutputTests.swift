import Analytics
import Backtest
import Foundation
import Testing
import TraderKit
import TradingModel

/// Issue 80: one backtest printed 290.18 on the terminal, 279.18 in report.html, 279.175 in summary.json, and its
/// trades.csv and orders.csv summed to 290.19 and 290.39. Now one function (`BacktestResult.commissionTotal`) gives
/// the total, open positions' fills included and labelled, every output prints it, and the CSV files' exact rows add
/// up to it.
@Suite struct CommissionTotalOutputTests {
    /// sma-cross on GOOG with 301 shares an order (1.505 each at IB's fixed 0.005 a share: half cents that a
    /// per-row rounding would carry) ends with a position open: its entry's commission is in the total and said so.
    @Test func theFiveOutputsAgreeOnOneTotal() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await WrittenBacktest(
                [
                    "backtest.data": "bundled:stocks", "universe.symbols": "[GOOG]", "strategy.name": "sma-cross",
                    "backtest.benchmark": "none", "strategy.parameters.sizing": "fixed: 301",
                    "strategy.cash": "1000000", "backtest.commission": "ibkr-fixed",
                ], folder: folder)
            let result = backtest.run.summary.result
            let total = result.commissionTotal
            #expect(result.openPositions.count == 1 && total.openPositionCents > 0, "\(total)")
            #expect(total.cents == result.commissions.roundedToCents.units / 1_000_000, "the portfolio's ledger")
            let open = String(format: "%.2f", total.openPositionAmount)
            #expect(total.text == "\(total.totalText) (of which \(open) on positions still open)")

            // The terminal.
            let line = try #require(backtest.table.split(separator: "\n").first { $0.hasPrefix("Commissions") })
            #expect(line.hasSuffix(
                "  \(total.totalText) (of which \(open) on positions still open; IB fixed: $0.005 a share, $1 minimum, 1 % cap)"),
                "\(line)")
            // summary.json.
            let summary = try backtest.summary()
            #expect(summary["total_commission"] as? Double == total.amount)
            #expect(summary["open_position_commission"] as? Double == total.openPositionAmount)
            // report.html.
            let html = try backtest.text("report.html")
            #expect(html.contains("<th scope=\"row\">Commission</th><td>\(total.text)</td>"))
            // trades.csv and orders.csv: exact rows (some with half cents), rounded once.
            for file in ["trades.csv", "orders.csv"] {
                let cells = try Self.column("commission", of: backtest.text(file))
                #expect(cells.contains { $0.hasSuffix("5") && $0.split(separator: ".").last?.count == 3 }, "\(file)")
                #expect(Self.roundedSum(cells) == total.totalText, "\(file)")
            }
            // ibtrader analyze over the files reads the same total from trades.csv.
            let analysis = try EquityAnalysis(equityFile: backtest.out + "/equity.csv", benchmark: nil, periodsPerYear: nil)
            #expect(analysis.report.commissions == CommissionTotal(cents: total.cents, openPositionCents: total.openPositionCents))
        }
    }

    /// The cells of a CSV column.
    static func column(_ name: String, of text: String) throws -> [String] {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let index = try #require(lines.first?.firstIndex { $0 == Substring(name) })
        return lines.dropFirst().map { String($0[index]) }
    }

    /// Decimal texts summed exactly and rounded once to the cent, half away from zero.
    static func roundedSum(_ cells: [String]) -> String {
        var sum = Decimal(0)
        for cell in cells { sum += Decimal(string: cell) ?? .nan }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &sum, 2, .plain)
        return String(format: "%.2f", NSDecimalNumber(decimal: rounded).doubleValue)
    }
}
