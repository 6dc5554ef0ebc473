import Foundation
import Testing
import TraderKit

/// Issue 22, "Reports": the positions open at the end are in the terminal summary, in `summary.json`
/// (`open_positions`) and in report.html, each as recomputed from `orders.csv` and the data's last closes.
struct OpenPositionsOutputTests {
    /// SMA 3/8 on 40 days of `CorrelationReportTests.bars`: AAA trades and ends flat, BBB and CCC end long (no order
    /// is left working at the end: no cross on the last two bars).
    static let bars = CentBars(specs: [.init(beta: 2), .init(beta: 1), .init(beta: -1)], days: 40, missing: [2: [10]])

    /// Each symbol's position from the filled orders of orders.csv: signed quantity and average cost (adding moves the
    /// average, reducing keeps it, reversing restarts it at the fill price).
    static func positions(ordersCSV: String) -> [String: (quantity: Double, average: Double, commission: Double)] {
        var book: [String: (quantity: Double, average: Double, commission: Double)] = [:]
        for line in ordersCSV.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let filled = Double(f[9]), filled > 0, let price = Double(f[10]) else { continue }
            let delta = f[3] == "BUY" ? filled : -filled
            var (quantity, average, commission) = book[f[2]] ?? (0, 0, 0)
            commission += Double(f[11]) ?? .nan
            if quantity == 0 || (quantity > 0) == (delta > 0) {
                average = (average * quantity + price * delta) / (quantity + delta)
            } else if (quantity + delta != 0) && ((quantity + delta > 0) != (quantity > 0)) {
                average = price
            }
            quantity += delta
            book[f[2]] = (quantity, quantity == 0 ? 0 : average, commission)
        }
        return book
    }

    /// `49.7` for 49.70: a price as the report prints it (no trailing zeros).
    static func trimmed(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    @Test func openPositionsAreInTheSummaryTheJSONAndTheReport() async throws {
        try await withTemporaryDirectory { folder in
            let data = folder + "/data"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            let names = ["AAA", "BBB", "CCC"]
            try Self.bars.write(to: data, names: names)
            let backtest = try await WrittenBacktest(
                [
                    "backtest.data": data, "universe.symbols": "[AAA, BBB, CCC]", "strategy.name": "sma-cross",
                    "strategy.parameters.fastPeriod": "3", "strategy.parameters.slowPeriod": "8",
                    "backtest.benchmark": "none", "backtest.commission": "ibkr-fixed",
                ], folder: folder)
            let book = Self.positions(ordersCSV: try backtest.text("orders.csv"))
            let lastClose = Dictionary(uniqueKeysWithValues: zip(names, Self.bars.closes().map { Double($0.last?.cents ?? 0) / 100 }))
            let open = names.filter { (book[$0]?.quantity ?? 0) != 0 }
            #expect(open == ["BBB", "CCC"], "\(book)")
            #expect(book["AAA"] != nil, "AAA traded and is flat: it must not be listed")

            // The terminal summary counts them.
            let row = backtest.table.split(separator: "\n").first { $0.hasPrefix("Open positions at the end") }
            #expect(row?.hasSuffix("  2") == true, "\(backtest.table)")

            // summary.json lists each with its figures.
            let listed = try #require(try backtest.summary()["open_positions"] as? [[String: Any]])
            #expect(listed.map { $0["symbol"] as? String } == open)
            for entry in listed {
                let symbol = try #require(entry["symbol"] as? String)
                let position = try #require(book[symbol])
                let last = try #require(lastClose[symbol])
                #expect(entry["quantity"] as? Double == position.quantity, "\(symbol)")
                #expect(abs((entry["average_price"] as? Double ?? .nan) - position.average) < 1e-6, "\(symbol)")
                #expect(entry["last_price"] as? Double == last, "\(symbol)")
                let unrealized = position.quantity * (last - position.average)
                #expect(abs((entry["unrealized_pnl"] as? Double ?? .nan) - unrealized) < 1e-6, "\(symbol): \(unrealized)")
            }

            // report.html has a row for each, and no row for AAA.
            let html = try backtest.text("report.html")
            let after = try #require(html.components(separatedBy: "<h2>Open positions at the end</h2>").dropFirst().first)
            let section = try #require(after.components(separatedBy: "</section>").first)
            for symbol in open {
                let position = try #require(book[symbol])
                let last = try #require(lastClose[symbol])
                let cells = [
                    symbol, Self.trimmed(position.quantity), Self.trimmed(position.average), Self.trimmed(last),
                    String(format: "%.2f", position.quantity * last),
                    String(format: "%.2f", position.quantity * (last - position.average)),
                ]
                let expected = "<tr>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>"
                #expect(section.contains(expected), "\(expected)")
            }
            #expect(!section.contains("<td>AAA</td>"))
        }
    }

    @Test func aRunThatEndsFlatSaysSo() async throws {
        try await withTemporaryDirectory { folder in
            let data = folder + "/data"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            // 42 days: the three symbols are flat from day 41's open on (SMA 3/8 states in `CentBars.python`).
            try CentBars(specs: [.init(beta: 2), .init(beta: 1), .init(beta: -1)], days: 42, missing: [2: [10]])
                .write(to: data, names: ["AAA", "BBB", "CCC"])
            let backtest = try await WrittenBacktest(
                [
                    "backtest.data": data, "universe.symbols": "[AAA, BBB, CCC]", "strategy.name": "sma-cross",
                    "strategy.parameters.fastPeriod": "3", "strategy.parameters.slowPeriod": "8",
                    "backtest.benchmark": "none",
                ], folder: folder)
            let book = Self.positions(ordersCSV: try backtest.text("orders.csv"))
            #expect(book.count == 3 && book.values.allSatisfy { $0.quantity == 0 }, "\(book)")
            #expect((try backtest.summary()["open_positions"] as? [Any])?.isEmpty == true)
            let row = backtest.table.split(separator: "\n").first { $0.hasPrefix("Open positions at the end") }
            #expect(row?.hasSuffix("  0") == true)
            let html = try backtest.text("report.html")
            #expect(html.contains("<h2>Open positions at the end</h2>\n<p class=\"note\">No position is open at the end.</p>"))
        }
    }
}
