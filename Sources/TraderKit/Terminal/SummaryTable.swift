import Analytics
import BundledData
import Foundation

/// Renders the headline metrics as a small aligned table for the terminal.
public enum SummaryTable {
    private enum Format { case percent, ratio, money, integer, text, days }

    private static let rows: [(key: String, label: String, format: Format)] = [
        ("final_equity", "Final equity", .money), ("total_return", "Total return", .percent),
        ("cagr", "CAGR", .percent), ("annual_volatility", "Annual volatility", .percent),
        ("sharpe", "Sharpe", .ratio), ("sortino", "Sortino", .ratio), ("max_drawdown", "Max drawdown", .percent),
        ("max_drawdown_duration_days", "Max drawdown duration (days)", .integer), ("calmar", "Calmar", .ratio),
        ("annualization", "Annual figures", .text),
        ("alpha", "Alpha (annual, arithmetic)", .percent), ("beta", "Beta", .ratio),
        ("benchmark_correlation", "Correlation with benchmark", .ratio),
        ("trades", "Trades", .integer), ("win_rate", "Win rate", .percent), ("profit_factor", "Profit factor", .ratio),
        ("expectancy", "Expectancy", .money), ("average_win", "Average win", .money),
        ("average_loss", "Average loss", .money), ("exposure", "Exposure", .percent), ("turnover", "Turnover", .ratio),
    ]

    /// The metrics shown in percent (`-23.60 %`): every report that prints these keys gives them in percent too
    /// (`ResearchReports.metricText`).
    public static let percentKeys: Set<String> = Set(rows.filter { $0.format == .percent }.map(\.key))

    /// A two-column table of the metrics present in `values`, with a title line.
    public static func render(_ values: [String: JSONValue], title: String, extra: [(String, String)] = []) -> String {
        var lines: [(String, String)] = []
        let annualised: Set<String> = ["cagr", "annual_volatility", "sharpe", "sortino", "calmar"]
        let isShort = values["annualized_from_short_sample"] == .bool(true)
        for row in rows {
            guard let value = values[row.key] else { continue }
            let flag = isShort && annualised.contains(row.key) && value != .null ? "  (under 3 months: not meaningful)" : ""
            lines.append((row.label, format(value, row.format) + flag))
        }
        lines += extra
        let width = lines.map(\.0.count).max() ?? 0
        var text = title + "\n" + String(repeating: "─", count: max(title.count, width + 16)) + "\n"
        for (label, value) in lines {
            text += label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value + "\n"
        }
        return text
    }

    private static func format(_ value: JSONValue, _ format: Format) -> String {
        let number: Double
        switch value {
        case .null: return "–"
        case .integer(let int): number = Double(int)
        case .number(let double): number = double
        case .string(let string): return string
        case .bool(let bool): return bool ? "yes" : "no"
        case .array, .object: return value.serialized()
        }
        switch format {
        case .percent: return String(format: "%.2f %%", number * 100)
        case .ratio: return String(format: "%.3f", number)
        case .money: return String(format: "%.2f", number)
        case .integer, .days: return String(Int(number.rounded()))
        case .text: return value.serialized()
        }
    }
}

/// Where the default benchmark lives.
public enum BenchmarkFiles {
    /// The bundled ^GSPC daily file.
    public static func bundledPath() throws(TraderError) -> String {
        do {
            return try BundledDataSet.defaultBenchmark().path
        } catch {
            throw TraderError("\(error)")
        }
    }
}
