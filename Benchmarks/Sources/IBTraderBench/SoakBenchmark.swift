import FaultSoak
import Foundation
import Logging

/// `ibtrader-bench soak --minutes 60`: the bot against the simulator through the standard fault cycle for that long
/// (then 15 s without faults), printing a progress line a minute on standard error and the figures at the end: lost
/// fills, duplicate orders, position differences and the longest one unalerted. Exit status 1 when it failed its bar
/// (`SoakReport.passed`). The CI runs 90 s of the same (`FaultSoakTests`).
enum SoakBenchmark {
    static func main(_ arguments: [String]) async -> Int32 {
        var settings = SoakSettings()
        settings.duration = .seconds(60 * 60)
        settings.progressEvery = .seconds(60)
        var botLog: Logger.Level?
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--minutes":
                // At 10 replay steps a second an hour of soak is 50 hours of replay; the data is one working week
                // from Monday (its contracts are closed at weekends), so two hours is the most.
                guard let text = rest.popFirst(), let minutes = Double(text), minutes > 0, minutes <= 120 else {
                    return usage("--minutes needs a number of minutes (up to 120)")
                }
                settings.duration = .milliseconds(Int64(minutes * 60_000))
            case "--bot-log":
                guard let text = rest.popFirst(), let level = Logger.Level(rawValue: text) else {
                    return usage("--bot-log needs a level (trace, debug, info, notice, warning, error, critical)")
                }
                botLog = level
            case "--journal-dir":
                guard let path = rest.popFirst() else { return usage("--journal-dir needs a directory") }
                settings.directory = path
            default:
                return usage("unknown option \(flag)")
            }
        }
        FileHandle.standardError.write(Data("soak: \(settings.duration) of faults (cycle of \(Int(settings.cycle)) s), then \(settings.settle) to settle\n".utf8))
        do {
            let report = try await FaultSoak.run(settings, botLog: botLog) { line in
                FileHandle.standardError.write(Data("soak: \(line)\n".utf8))
            }
            print(report.lines.joined(separator: "\n"))
            print(report.passed ? "PASSED" : "FAILED")
            return report.passed ? 0 : 1
        } catch {
            FileHandle.standardError.write(Data("ibtrader-bench soak: \(error)\n".utf8))
            return 1
        }
    }

    static func usage(_ problem: String) -> Int32 {
        FileHandle.standardError.write(Data("ibtrader-bench soak: \(problem)\nusage: ibtrader-bench soak [--minutes N] [--bot-log LEVEL] [--journal-dir DIR]\n".utf8))
        return 2
    }
}
