import Research
import Testing
import TraderKit

/// Issue 83: the sweep's reports give percent quantities in percent, as the backtest's do; the heatmap is white at 0
/// for a Sharpe (a positive one is never red) and hatches the runs that fail the constraints.
struct SweepReportUnitsTests {
    static func results(sharpes: [Double], drawdowns: [Double], constraint: String?) throws -> SweepResults {
        let objective = try Objective(metric: "sharpe", constraints: constraint.map { [try MetricConstraint(parsing: $0)] } ?? [])
        let header = SweepHeader(
            strategy: "sma-cross", parameterNames: ["fast", "slow"], objective: objective, configurations: sharpes.count,
            periodsPerYear: 252, shard: .whole)
        let rows = try sharpes.indices.map { k in
            var values = [Double?](repeating: nil, count: SweepMetrics.names.count)
            values[SweepMetrics.names.firstIndex(of: "sharpe")!] = sharpes[k]
            values[SweepMetrics.names.firstIndex(of: "max_drawdown")!] = drawdowns[k]
            values[SweepMetrics.names.firstIndex(of: "trades")!] = 12
            return SweepRow(
                id: k, parameters: ParameterSet([("fast", Double(5 + k)), ("slow", 30)]),
                metrics: try SweepMetrics(values: values))
        }
        return SweepResults(header: header, rows: rows)
    }

    @Test func drawdownIsPercentInTheTopTable() throws {
        let table = ResearchReports.topTable(try Self.results(sharpes: [0.3], drawdowns: [-0.0904], constraint: nil), count: 1)
        #expect(table.contains("-9.04%") && !table.contains("-0.0904"), "\(table)")
        #expect(ResearchReports.metricText("sharpe", 0.25) == "0.2500")
        #expect(ResearchReports.metricText("trades", 12) == "12")
    }

    @Test func theHeatmapIsWhiteAtZeroAndHatchesIneligibleRuns() throws {
        let results = try Self.results(sharpes: [0.2, 0.3, -0.1], drawdowns: [-0.1, -0.3, -0.05], constraint: "max_drawdown>-25%")
        let html = try #require(ResearchReports.heatmapTable(results, x: "fast", y: "slow"))
        let cells = html.components(separatedBy: "<td").dropFirst().map { String($0) }
        #expect(cells.count == 3)
        func color(_ cell: String) -> (r: Int, g: Int, b: Int)? {
            guard let range = cell.range(of: "background-color:#") else { return nil }
            let hex = cell[range.upperBound...].prefix(6)
            let v = Int(hex, radix: 16) ?? 0
            return (v >> 16, (v >> 8) & 0xFF, v & 0xFF)
        }
        // 0.2 and 0.3: green (g above r); -0.1: red (r above g); not the old min-max scale, where 0.2 was pale red.
        let colors = try cells.map { try #require(color($0)) }
        #expect(colors[0].g > colors[0].r && colors[1].g > colors[1].r, "\(colors)")
        #expect(colors[2].r > colors[2].g, "\(colors)")
        // The run with a 30 % drawdown fails the constraint: hatched, with the reason; the others are not.
        #expect(cells[1].contains("repeating-linear-gradient") && cells[1].contains("title=\"not eligible: maximize sharpe"))
        #expect(!cells[0].contains("repeating-linear-gradient") && !cells[2].contains("repeating-linear-gradient"))
        #expect(html.contains("hatched: not eligible (fails max_drawdown&gt;-0.25"), "\(html)")
        // The issue's case: every Sharpe positive (0.2 to 0.3). On a min-max scale 0.2 was deep red.
        let positive = try Self.results(sharpes: [0.2, 0.3, 0.25], drawdowns: [-0.1, -0.1, -0.1], constraint: nil)
        let greens = try #require(ResearchReports.heatmapTable(positive, x: "fast", y: "slow"))
            .components(separatedBy: "<td").dropFirst().map { try #require(color(String($0))) }
        #expect(greens.allSatisfy { $0.g > $0.r }, "\(greens)")
    }
}
