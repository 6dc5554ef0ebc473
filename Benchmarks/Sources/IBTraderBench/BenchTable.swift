/// A small result table printed at the end of a benchmark run.
struct BenchTable {
    var rows: [(String, String, String)] = []

    mutating func add(_ name: String, _ value: String, _ note: String = "") {
        rows.append((name, value, note))
    }

    func render() -> String {
        let header = ("benchmark", "result", "notes")
        let all = [header] + rows
        let w0 = all.map(\.0.count).max() ?? 0
        let w1 = all.map(\.1.count).max() ?? 0
        func line(_ r: (String, String, String)) -> String {
            "| " + r.0.padding(toLength: w0, withPad: " ", startingAt: 0) + " | "
                + String(repeating: " ", count: w1 - r.1.count) + r.1 + " | " + r.2 + " |"
        }
        var text = line(header) + "\n|" + String(repeating: "-", count: w0 + 2) + "|" + String(repeating: "-", count: w1 + 1) + ":|---|\n"
        for row in rows { text += line(row) + "\n" }
        return text
    }
}

/// Median of a non-empty list.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Formats a rate with thousands separators.
func formatRate(_ value: Double) -> String {
    let integer = Int(value.rounded())
    var digits = Array(String(integer))
    var index = digits.count - 3
    while index > 0 {
        digits.insert(",", at: index)
        index -= 3
    }
    return String(digits)
}
