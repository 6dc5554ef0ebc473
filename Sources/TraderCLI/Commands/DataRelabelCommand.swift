import ArgumentParser
import TraderKit

/// `ibtrader data relabel FILE --out FILE`.
struct DataRelabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relabel",
        abstract: "Rewrite a bar-end-labelled CSV to bar start (each time one bar earlier), the label every reader here uses."
    )

    @Argument(help: "The end-labelled bar file.") var file: String
    @Option(name: .long, help: "Where to write the start-labelled file.") var out: String

    func run() throws {
        let done: BarRelabel.Outcome
        do { done = try BarRelabel.endToStart(input: file, output: out) } catch { throw CLIError("\(error)") }
        print("wrote \(out): \(done.rows) \(done.barLength) bars, each one bar earlier (\(done.first) … \(done.last))")
    }
}
