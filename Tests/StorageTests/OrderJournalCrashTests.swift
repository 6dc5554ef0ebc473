import Foundation
import Storage
import Testing
import TradingModel

/// A real `kill -9` after `recordIntent` returns: the test binary re-runs itself as a child that journals intents,
/// says so on standard output and blocks; the parent kills it with SIGKILL and reopens the journal. With manual
/// checkpoints (the live runner's journal) the child never checkpoints, so everything is still in the WAL.
struct OrderJournalCrashTests {
    static let childVariable = "IBTRADER_JOURNAL_CRASH_CHILD"
    static let manualVariable = "IBTRADER_JOURNAL_CRASH_MANUAL"

    /// The child's part; does nothing unless the parent started this process for it.
    @Test func crashChild() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        if ProcessInfo.processInfo.environment[Self.manualVariable] != nil {
            let journal = try OrderJournal(path: path, checkpoints: .manual)
            for n in 2...300 { try journal.recordIntent(OrderJournalTests.intent(ClientOrderID("CRASH-\(n)"))) }
            try journal.recordIntent(OrderJournalTests.intent("CRASH-1"))
        } else {
            let journal = try OrderJournal(path: path)
            try journal.recordIntent(OrderJournalTests.intent("CRASH-1"))
        }
        FileHandle.standardOutput.write(Data("\nintent-journaled\n".utf8))
        // Block until killed: the parent sends SIGKILL, so nothing after this line ever runs.
        _ = FileHandle.standardInput.readData(ofLength: 1)
    }

    @Test(arguments: [false, true])
    func anIntentSurvivesKill9(manualCheckpoints: Bool) async throws {
        #if os(Linux)
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = ["--testing-library", "swift-testing", "--filter", "crashChild"]
            var variables = [Self.childVariable: path]
            if manualCheckpoints { variables[Self.manualVariable] = "1" }
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
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(seen.contains("intent-journaled"))
            #expect(process.terminationReason == .uncaughtSignal)
            let recovered = try OrderJournal(path: path, createIfMissing: false)
            let refs = try recovered.unacknowledgedIntents().map(\.intent.orderRef)
            #expect(refs.last == "CRASH-1")
            #expect(refs.count == (manualCheckpoints ? 300 : 1))
        }
        #endif
    }
}
