import Analytics
import ArgumentParser
import TraderKit
import Foundation
import Indicators

/// `ibtrader indicators FILE --indicators sma:10,rsi:14,...`: the input bars plus one column per indicator.
struct IndicatorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "indicators",
        abstract: "Compute technical indicators (TA-Lib compatible) over a CSV of bars.",
        discussion: """
            Writes the input rows followed by one column per indicator, empty while an indicator warms up.
            Indicators: sma:N ema:N wma:N rsi:N atr:N trange bbands:N:K stddev:N macd:F:S:G roc:N mom:N \
            stoch:K:D:SD willr:N cci:N obv mfi:N max:N min:N. Column names follow the golden files, e.g. \
            sma_10, bb_upper_20_2, macd_signal_12_26_9.
            """
    )

    @Argument(help: "A CSV file with the header date,open,high,low,close,volume.")
    var file: String

    @Option(name: .long, help: "Comma-separated indicator specs, e.g. sma:10,ema:12,rsi:14,bbands:20:2.")
    var indicators: String = "sma:10,sma:30,ema:12,ema:26,rsi:14,atr:14,bbands:20:2,macd:12:26:9"

    @Option(name: .long, help: "Write the CSV to this file instead of standard output.")
    var out: String?

    func run() throws {
        let specs: [IndicatorSpec]
        do {
            specs = try IndicatorSpec.parse(indicators)
        } catch {
            throw CLIError("--indicators: \(error)")
        }
        let text = try readTextFile(file)
        let csv = try IndicatorTable.compute(csv: text, specs: specs, file: file)
        if let out {
            try writeTextFile(csv, to: out)
        } else {
            FileHandle.standardOutput.write(Data(csv.utf8))
        }
    }
}

/// The pure part of `ibtrader indicators`: CSV text in, CSV text out.
enum IndicatorTable {
    /// Appends indicator columns to every row of an OHLCV CSV.
    /// - Throws: `CLIError` naming the file and line of a bad row.
    static func compute(csv text: String, specs: [IndicatorSpec], file: String) throws -> String {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let headerLine = lines.first else { throw CLIError("\(file): the file is empty") }
        let header = headerLine.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        func column(_ name: String) throws -> Int {
            guard let index = header.firstIndex(of: name) else {
                throw CLIError("\(file):1: the header has no '\(name)' column (expected date,open,high,low,close,volume)")
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
                guard index < fields.count else { throw CLIError("\(file):\(offset + 1): missing field '\(name)'") }
                guard let value = Double(fields[index].trimmingCharacters(in: .whitespaces)), value.isFinite else {
                    throw CLIError("\(file):\(offset + 1): '\(name)' is not a number: '\(fields[index])'")
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
