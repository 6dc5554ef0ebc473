import Foundation
import Indicators

/// The pure part of `ibtrader indicators`: CSV text in, CSV text out.
public enum IndicatorTable {
    /// Appends indicator columns to every row of an OHLCV CSV.
    /// - Throws: `TraderError` naming the file and line of a bad row.
    public static func compute(csv text: String, specs: [IndicatorSpec], file: String) throws -> String {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let headerLine = lines.first else { throw TraderError("\(file): the file is empty") }
        let header = headerLine.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        func column(_ name: String) throws -> Int {
            guard let index = header.firstIndex(of: name) else {
                throw TraderError("\(file):1: the header has no '\(name)' column (expected date,open,high,low,close,volume)")
            }
            return index
        }
        let (o, h, l, c, v) = (try column("open"), try column("high"), try column("low"), try column("close"), try column("volume"))
        var runner = IndicatorRunner(specs: specs)
        var row: [Double?] = []
        var output = String(headerLine) + "," + runner.columnNames.joined(separator: ",") + "\n"
        output.reserveCapacity(text.utf8.count * 3)
        for (offset, line) in lines.enumerated().dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            func number(_ index: Int, _ name: String) throws -> Double {
                guard index < fields.count else { throw TraderError("\(file):\(offset + 1): missing field '\(name)'") }
                guard let value = Double(fields[index].trimmingCharacters(in: .whitespaces)), value.isFinite else {
                    throw TraderError("\(file):\(offset + 1): '\(name)' is not a number: '\(fields[index])'")
                }
                return value
            }
            let bar = OHLCVBar(
                open: try number(o, "open"), high: try number(h, "high"), low: try number(l, "low"),
                close: try number(c, "close"), volume: try number(v, "volume"))
            runner.update(bar, into: &row)
            output += line
            for value in row {
                output += ","
                if let value { output += value.description }
            }
            output += "\n"
        }
        return output
    }
}
