/// A plain aligned text table for listings (`ibtrader data list`, `ibtrader journal`).
public enum TextTable {
    /// Renders a header, a rule and rows; columns in `rightAligned` are right-aligned.
    public static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let padding = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return rightAligned.contains(i) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        var lines = [line(header), widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")]
        lines += rows.map(line)
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
