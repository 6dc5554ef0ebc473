import FaultSoak
import Foundation
import Logging

/// `ibtrader-bench soak --minutes 60` (or `--days N` trading days): the bot against the simulator through the
/// standard fault cycle for that long (then 15 s without faults); `--month`: 21 trading days of the field cycle (every
/// fault of docs/field-faults.md the simulator plays); nights, weekends and holidays passed in
/// one step each with the gateway's nightly restart, printing a progress line a minute on standard error and the
/// figures at the end: lost fills, duplicate orders, position differences and the longest one unalerted. Exit status 1
/// when it failed its bar (`SoakReport.passed`). The CI runs 90 s of the same, a night, and one field cycle
/// (`FaultSoakTests`).
enum SoakBenchmark {
    static func main(_ arguments: [String]) async -> Int32 {
        var settings = SoakSettings()
        settings.duration = .seconds(60 * 60)
        settings.progressEvery = .seconds(60)
        var botLog: Logger.Level?
        if arguments.contains("--month") {
            // About a month of trading days (from 2023-11-13: Thanksgiving and its early close included), every fault
            // of the field catalogue once every 180 s of the bot's time (2.5 hours of market time, about three times
            // a day), a decision every 5 minutes per symbol, one order in three resting and modified.
            settings.duration = settings.pace * (21 * 4_680)
            settings.script = SoakSchedule.fieldScript
            settings.cycle = SoakSchedule.fieldCycle
            settings.period = 60
            settings.restEvery = 3
        }
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--minutes":
                guard let text = rest.popFirst(), let minutes = Double(text), minutes > 0 else {
                    return usage("--minutes needs a number of minutes")
                }
                settings.duration = .milliseconds(Int64(minutes * 60_000))
            case "--days":
                // A trading day's regular session (6.5 hours, 4,680 replay steps of 5 s) at the soak's pace; nights,
                // weekends and holidays pass in one step each (`SoakSettings.skipNights`).
                guard let text = rest.popFirst(), let days = Double(text), days > 0 else {
                    return usage("--days needs a number of trading days (21 is about a month)")
                }
                settings.duration = settings.pace * (days * 4_680)
            case "--bot-log":
                guard let text = rest.popFirst(), let level = Logger.Level(rawValue: text) else {
                    return usage("--bot-log needs a level (trace, debug, info, notice, warning, error, critical)")
                }
                botLog = level
            case "--faults":
                guard let path = rest.popFirst() else {
                    return usage("--faults needs a fault script file (the `ibtrader gateway --faults` syntax)")
                }
                do {
                    settings.script = try String(contentsOfFile: path, encoding: .utf8)
                } catch {
                    return usage("--faults: cannot read \(path) (\((error as NSError).localizedDescription))")
                }
            case "--cycle":
                guard let text = rest.popFirst(), let seconds = Double(text), seconds > 0 else {
                    return usage("--cycle needs the fault cycle's length in seconds")
                }
                settings.cycle = seconds
            case "--month":
                break  // applied before the other flags, which may change any of it
            case "--rest-every":
                guard let text = rest.popFirst(), let every = Int(text), every >= 0 else {
                    return usage("--rest-every needs N: every Nth order rests as a limit and is modified (0: none)")
                }
                settings.restEvery = every
            case "--period":
                guard let text = rest.popFirst(), let bars = Int(text), bars > 0 else {
                    return usage("--period needs the strategy's bars between decisions per symbol")
                }
                settings.period = bars
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
        FileHandle.standardError.write(Data("ibtrader-bench soak: \(problem)\nusage: ibtrader-bench soak [--minutes N | --days N | --month] [--period BARS] [--rest-every N] [--faults FILE] [--cycle SECONDS] [--bot-log LEVEL] [--journal-dir DIR]\n".utf8))
        return 2
    }
}
