import Foundation
import Testing
import TWSTestSupport
import TradingModel

@testable import Storage

/// A real `kill -9` after `recordIntent` or `recordIntents` returns: the test binary re-runs itself as a child that
/// journals intents, says so on standard output and blocks; the parent kills it with SIGKILL and reopens the journal.
/// With manual checkpoints (the live runner's journal) the child never checkpoints, so everything is still in the WAL.
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
        case "group":
            let group = [OrderJournalTests.intent("CRASH-1"), OrderJournalTests.intent("CRASH-2")]
            try journal.recordIntents(group, submittedAs: [], at: group[0].createdAt)
        default:
            try journal.recordIntent(OrderJournalTests.intent("CRASH-1"))
        }
        FileHandle.standardOutput.write(Data("\nintent-journaled\n".utf8))
        // Block until killed, the journal open (it holds the journal's lock until the process dies): the parent
        // sends SIGKILL, so nothing after this line ever runs.
        withExtendedLifetime(journal) { _ = FileHandle.standardInput.readData(ofLength: 1) }
    }

    @Test(arguments: ["automatic", "manual"])
    func anIntentSurvivesKill9(mode: String) async throws {
        #if os(Linux)
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            try await Self.runChildUntilKilled(path: path, mode: mode)
            let recovered = try OrderJournal(path: path, createIfMissing: false)
            let refs = try recovered.unacknowledgedIntents().map(\.intent.orderRef)
            #expect(refs.last == "CRASH-1")
            #expect(refs.count == (mode == "manual" ? 300 : 1))
        }
        #endif
    }

    /// The bot's pre-send group write, then `kill -9`: while the child lives, its lock says a bot runs (with its pid)
    /// and another process's journal reads the intents; after the kill the lock is free and the intents are there.
    @Test func aGroupSurvivesKill9AndTheLockSaysWhoRuns() async throws {
        #if os(Linux)
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            #expect(try OrderJournal.holder(journalPath: path) == .none)  // no lock file yet
            try await Self.runChildUntilKilled(path: path, mode: "group") {
                guard case .held(let pid) = try OrderJournal.holder(journalPath: path) else {
                    Issue.record("the child's journal holds no lock")
                    return
                }
                #expect(pid != nil && pid != getpid())
                let tool = try OrderJournal(path: path, createIfMissing: false)
                #expect(try tool.unacknowledgedIntents().map(\.intent.orderRef) == ["CRASH-1", "CRASH-2"])
                let second = try OrderJournal(path: path, checkpoints: .manual)
                #expect(!second.lock.isHeld)  // the child holds it
            }
            #expect(try OrderJournal.holder(journalPath: path) == .none)
            let recovered = try OrderJournal(path: path, createIfMissing: false)
            let pending = try recovered.unacknowledgedIntents()
            #expect(pending.map(\.intent.orderRef) == ["CRASH-1", "CRASH-2"])
            #expect(pending.allSatisfy { $0.state == .pendingSubmit })
        }
        #endif
    }

    #if os(Linux)
    /// Starts the child in `mode`, waits until it journaled, runs `whileAlive`, then kills it with SIGKILL.
    static func runChildUntilKilled(path: String, mode: String, whileAlive: () throws -> Void = {}) async throws {
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
        let seen = await output.fileHandleForReading.text(until: "intent-journaled")
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
        await process.exited()
        killed = true
        #expect(process.terminationReason == .uncaughtSignal)
    }
    #endif
}
