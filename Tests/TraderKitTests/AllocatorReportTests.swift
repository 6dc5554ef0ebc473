import Foundation
import Testing
import TraderKit
import TradingModel

/// Issue 22, "Reports": the report of a performance-allocator run has the stacked-area chart of the weights and each
/// symbol's sub-strategy P&L, with values checked against allocations.csv and against the fills.
struct AllocatorReportTests {
    static let names = ["AAA", "BBB", "CCC", "DDD", "EEE"]
    static let bars = CentBars(
        specs: [.init(beta: 1, drift: 3), .init(beta: 1, drift: -2), .init(beta: 2, drift: 1), .init(beta: -1),
                .init(beta: 1, drift: 4)],
        days: 220)

    /// The text between `start` and the next `end` after it.
    static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex)
        else { return nil }
        return String(text[from.upperBound..<to.lowerBound])
    }

    /// The value of each attribute `name="…"` in order.
    static func attributes(_ name: String, in text: String) -> [Double] {
        text.components(separatedBy: " \(name)=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
    }

    @Test func theReportStacksTheWeightsAndSplitsThePnLBySymbol() async throws {
        try await withTemporaryDirectory { folder in
            let data = folder + "/data"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            try Self.bars.write(to: data, names: Self.names)
            let backtest = try await WrittenBacktest(
                [
                    "backtest.data": data, "universe.symbols": "[AAA, BBB, CCC, DDD, EEE]", "strategy.allocator": "performance",
                    "strategy.name": "sma-cross", "strategy.parameters.fastPeriod": "5", "strategy.parameters.slowPeriod": "15",
                    "strategy.allocation.window": "20", "strategy.allocation.reallocation": "weekly",
                    "strategy.allocation.topCount": "3", "strategy.allocation.maxWeight": "0.5",
                    "strategy.allocation.step": "0.5", "backtest.commission": "ibkr-fixed", "backtest.benchmark": "none",
                ], folder: folder)
            let result = backtest.run.summary.result

            // allocations.csv: at each reallocation the weights are in [0, maxWeight] and sum to at most 1.
            var sums: [(time: String, sum: Double)] = []
            for line in try backtest.text("allocations.csv").split(separator: "\n").dropFirst() {
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                let weight = try #require(Double(f[7]))
                #expect(weight >= 0 && weight <= 0.5 + 1e-12, "\(line)")
                if sums.last?.time == String(f[0]) { sums[sums.count - 1].sum += weight } else { sums.append((String(f[0]), weight)) }
            }
            #expect(sums.count > 20 && sums.allSatisfy { $0.sum <= 1 + 1e-12 })
            #expect(sums.contains { $0.sum > 0.5 }, "money is allocated")

            // The chart: one band per symbol, stacked; its top edge, read back through the value axis, is the sum.
            let html = try backtest.text("report.html")
            let section = try #require(Self.between(html, "<h2>Allocation</h2>", "</section>"))
            let svg = try #require(Self.between(section, "aria-label=\"Weights (the rest is cash)\"", "</svg>"))
            let bands = svg.components(separatedBy: "fill-opacity=\"0.85\"").count - 1
            #expect(bands == Self.names.count)
            let axis = try #require(Self.between(svg, "<g class=\"y-axis\"", "</g>"))
            let tickY = Self.attributes("y1", in: axis)
            let tickValues = axis.components(separatedBy: "text-anchor=\"end\">").dropFirst()
                .compactMap { Double($0.prefix { $0 != "%" }.filter { $0 != "," }) }.map { $0 / 100 }
            #expect(tickY.count == tickValues.count && tickY.count >= 2)
            let scale = (tickValues[1] - tickValues[0]) / (tickY[1] - tickY[0])
            let top = try #require(svg.components(separatedBy: "<path d=\"M").last)
            let edge = top.prefix { $0 != "Z" }.split(separator: " ").compactMap { Double($0.filter { $0 != "L" }) }
            try #require(bands == Self.names.count && edge.count >= 2 * sums.count, "a stacked band has x, y per reallocation")
            let drawn = stride(from: 1, to: 2 * sums.count, by: 2).map { tickValues[0] + (edge[$0] - tickY[0]) * scale }
            // 0.1 px of 220 px over the axis range: within 1e-3 of the sum.
            #expect(zip(drawn, sums).allSatisfy { abs($0 - $1.sum) < 1e-3 }, "\(drawn.prefix(5)) vs \(sums.prefix(5))")

            // The P&L table: each symbol's total is what its fills made (cash flows, commission, the position at its
            // last close), and the totals add up to the strategy's P&L.
            let table = try #require(Self.between(html, "<h2>Sub-strategy P&amp;L by symbol</h2>", "</section>"))
            let rows = table.components(separatedBy: "<tr><td>").dropFirst().map {
                $0.components(separatedBy: "</td>").map { $0.replacingOccurrences(of: "<td>", with: "") }
            }
            let lastCents = Self.bars.closes().map { $0.last?.cents ?? 0 }
            var total = 0.0
            for row in rows {
                let k = try #require(Self.names.firstIndex(of: row[0]))
                let fills = result.fills.filter { $0.instrument.index == k }
                let held = fills.reduce(0.0) { $0 + Double($1.side.sign) * $1.quantity.doubleValue }
                let flows = fills.reduce(0.0) { $0 - Double($1.side.sign) * $1.quantity.doubleValue * $1.price.doubleValue }
                let made = flows - fills.reduce(0.0) { $0 + $1.commission.doubleValue } + held * Double(lastCents[k]) / 100
                let (realized, unrealized, sum) = (Double(row[2]) ?? .nan, Double(row[3]) ?? .nan, Double(row[4]) ?? .nan)
                #expect(abs(sum - made) < 0.006, "\(row[0]): total \(sum), its fills made \(made)")
                #expect(abs(realized + unrealized - sum) < 0.011, "\(row[0])")
                total += sum
            }
            #expect(rows.count >= 3)
            let summary = try backtest.summary()
            let cash = try #require((summary["parameters"] as? [String: Any])?["cash"] as? Double)
            let pnl = (summary["final_equity"] as? Double ?? .nan) - cash
            #expect(abs(total - pnl) < 0.006 * Double(rows.count), "the symbols' P&L \(total), the strategy's \(pnl)")
        }
    }
}
