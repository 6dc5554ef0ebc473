import ArgumentParser
import Foundation
import Testing

@testable import TraderCLI

/// `--help` of every command, compared with `Snapshots/<command>.txt` (re-record with `RECORD_SNAPSHOTS=1`). A help
/// text is the command line's interface: a renamed flag or a changed default shows up here for review.
@Suite struct HelpSnapshotTests {
    static let commands: [(name: String, type: any ParsableCommand.Type)] = [
        ("ibtrader", IBTrader.self), ("backtest", BacktestCommand.self), ("optimize-run", OptimizeRun.self),
        ("optimize-merge", OptimizeMerge.self), ("walkforward-run", WalkforwardRun.self), ("run", RunCommand.self),
        ("config-init", ConfigInit.self), ("config-check", ConfigCheck.self), ("config-show", ConfigShow.self),
        ("order", OrderCommand.self), ("modify", ModifyCommand.self), ("cancel", CancelCommand.self),
        ("orders", OrdersCommand.self), ("positions", PositionsCommand.self), ("account", AccountCommand.self),
        ("connect", ConnectCommand.self), ("contract", ContractCommand.self), ("quote", QuoteCommand.self),
        ("history", HistoryCommand.self), ("gateway", GatewayCommand.self), ("journal", JournalCommand.self),
        ("risk-status", RiskStatusCommand.self), ("risk-reset", RiskResetCommand.self),
        ("data-download", DataDownloadCommand.self), ("data-list", DataListCommand.self),
        ("data-import", DataImportCommand.self), ("data-export", DataExportCommand.self),
        ("analyze", AnalyzeCommand.self), ("indicators", IndicatorsCommand.self), ("replay", ReplayCommand.self),
        ("sandbox", SandboxCommand.self),
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    @Test(arguments: commands.map(\.name))
    func help(of name: String) throws {
        let type = try #require(Self.commands.first { $0.name == name }?.type)
        let text = IBTrader.helpMessage(for: type, columns: 120) + "\n"
        let file = Self.folder.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOf: file, encoding: .utf8)
        #expect(text == recorded, "the help of \(name) changed; re-record with RECORD_SNAPSHOTS=1 if intended")
    }

    @Test func everyCommandParsesItsOwnDefinition() {
        // ArgumentParser checks a command's definition (e.g. two options with one name) only when it parses; a
        // broken one stops the process. `--help` parses to the help command without an error.
        for (name, type) in Self.commands {
            #expect(throws: Never.self, "\(name) --help") { _ = try type.parseAsRoot(["--help"]) }
        }
    }
}

/// The command line only parses and composes: its logic lives in the library modules, and a test keeps it small.
@Suite struct CommandLineSizeTests {
    @Test func theCommandLineStaysUnderTwoThousandLines() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/TraderCLI")
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") } ?? []
        let lines = try files.reduce(0) { total, file in
            total + (try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
                .split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
        #expect(!files.isEmpty)
        #expect(lines < 2000, "Sources/TraderCLI has \(lines) lines: move logic to TraderKit or TraderConfig")
    }
}
