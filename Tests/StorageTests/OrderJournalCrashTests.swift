import Foundation
import Testing
import TradingModel

@testable import Storage

/// A real `kill -9` after `recordIntent` (or the intent log's append) returns: the test binary re-runs itself as a
/// child that journals intents, says so on standard output and blocks; the parent kills it with SIGKILL and reopens
/// the journal. With manual checkpoints (the live runner's journal) the child never checkpoints, so everything is
/// still in the WAL; in `log` mode the intents are only in the intent log, which the child owns until it dies.
struct OrderJournalCrashTests {
    static let childVariable = "IBTRADER_JOURNAL_CRASH_CHILD"
    static let modeVariable = "IBTRADER_JOURNAL_CRASH_MODE"

    /// The child's part; does nothing unless the parent started this process for it.
    @Test func crashChild() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        let mode = ProcessInfo.processInfo.environment[Self.modeVariable]
        let journal = try OrderJournal(path: path, checkpoints: mode == "automatic" ? .automatic : .manual)
        switch mode {
        case "manual":
            for n in 2...300 { try journal.recordIntent(OrderJournalTests.intent(ClientOrderID("CRASH-\(n)"))) }
            try journal.recordIntent(OrderJournalTests.intent("CRASH-1"))
        case "log":
            try journal.appendIntents([OrderJournalTests.intent("CRASH-1"), OrderJournalTests.intent("CRASH-2")])
        default:
            try journal.recordIntent(OrderJournalTests.intent("CRASH-1"))
        }
        FileHandle.standardOutput.write(Data("\nintent-journaled\n".utf8))
        // Block until killed, the journal open (it owns the intent log until the process dies): the parent sends
        // SIGKILL, so nothing after this line ever runs.
        withExtendedLifetime(journal) { _ = FileHandle.standardInput.readData(ofLength: 1) }
    }

    @Test(arguments: ["automatic", "manual"])
    func anIntentSurvivesKill9(mode: String) async throws {
        #if os(Linux)
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            try Self.runChildUntilKilled(path: path, mode: mode)
            let recovered = try OrderJournal(path: path, createIfMissing: false)
            let refs = try recovered.unacknowledgedIntents().map(\.intent.orderRef)
            #expect(refs.last == "CRASH-1")
            #expect(refs.count == (mode == "manual" ? 300 : 1))
        }
        #endif
    }

    /// The bot's pre-send append, then `kill -9`: while the child lives, another process's journal (`ibtrader
    /// journal`, a manual `order`) neither drains nor truncates the log it owns; after the kill, opening the journal
    /// moves the intents into `intents`.
    @Test func anIntentOnlyInTheLogSurvivesKill9AndAnotherProcessLeavesTheLogAlone() async throws {
        #if os(Linux)
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            var logged = IntentLogContents()
            try Self.runChildUntilKilled(path: path, mode: "log") {
                logged = IntentLogJournalTests.logged(path)
                #expect(IntentLogJournalTests.refs(logged) == [["CRASH-1", "CRASH-2"]])
                let tool = try OrderJournal(path: path, createIfMissing: false)
                let runner = try OrderJournal(path: path, checkpoints: .manual)
                #expect(!tool.ownsIntentLog && !runner.ownsIntentLog)
                try runner.checkpoint()
                #expect(!runner.ownsIntentLog)
                #expect(try tool.unacknowledgedIntents().isEmpty)  // not in SQLite yet: only the owner drains
                #expect(IntentLogJournalTests.logged(path) == logged)
            }
            #expect(IntentLogJournalTests.logged(path) == logged)
            let recovered = try OrderJournal(path: path, createIfMissing: false)
            let pending = try recovered.unacknowledgedIntents()
            #expect(pending.map(\.intent.orderRef) == ["CRASH-1", "CRASH-2"])
            #expect(pending.allSatisfy { $0.state == .pendingSubmit })
            #expect(IntentLogJournalTests.logged(path).groups.isEmpty)
        }
        #endif
    }

    #if os(Linux)
    /// Starts the child in `mode`, waits until it journaled, runs `whileAlive`, then kills it with SIGKILL.
    static func runChildUntilKilled(path: String, mode: String, whileAlive: () throws -> Void = {}) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", "crashChild"]
        let variables = [Self.childVariable: path, Self.modeVariable: mode]
        process.environment = ProcessInfo.processInfo.environment.merging(variables) { $1 }
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        var seen = ""
        while !seen.contains("intent-journaled") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        var killed = false
        defer {
            if !killed {  // `whileAlive` threw
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        #expect(seen.contains("intent-journaled"))
        try whileAlive()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        killed = true
        #expect(process.terminationReason == .uncaughtSignal)
    }
    #endif
}
