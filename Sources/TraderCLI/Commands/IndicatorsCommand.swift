import ArgumentParser
import Foundation
import Indicators
import TraderKit

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

    @Argument(help: "A CSV file with the header date,open,high,low,close,volume.") var file: String

    @Option(name: .long, help: "Comma-separated indicator specs, e.g. sma:10,ema:12,rsi:14,bbands:20:2.")
    var indicators: String = "sma:10,sma:30,ema:12,ema:26,rsi:14,atr:14,bbands:20:2,macd:12:26:9"

    @Option(name: .long, help: "Write the CSV to this file instead of standard output.") var out: String?

    func run() throws {
        let specs: [IndicatorSpec]
        do {
            specs = try IndicatorSpec.parse(indicators)
        } catch {
            throw CLIError("--indicators: \(error)")
        }
        let text = try TextFiles.read(file)
        let csv = try IndicatorTable.compute(csv: text, specs: specs, file: file)
        if let out {
            try TextFiles.write(csv, to: out)
        } else {
            FileHandle.standardOutput.write(Data(csv.utf8))
        }
    }
}
