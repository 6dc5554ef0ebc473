import Foundation
import Storage
import Testing
import TradingModel

/// A real `kill -9` after `recordIntent` returns: the test binary re-runs itself as a child that journals an intent,
/// says so on standard output and blocks; the parent kills it with SIGKILL and reopens the journal.
struct OrderJournalCrashTests {
    static let childVariable = "IBTRADER_JOURNAL_CRASH_CHILD"

    /// The child's part; does nothing unless the parent started this process for it.
    @Test func crashChild() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        let journal = try OrderJournal(path: path)
        try journal.recordIntent(OrderJournalTests.intent("CRASH-1"))
        FileHandle.standardOutput.write(Data("\nintent-journaled\n".utf8))
        // Block until killed: the parent sends SIGKILL, so nothing after this line ever runs.
        _ = FileHandle.standardInput.readData(ofLength: 1)
    }

    @Test func anIntentSurvivesKill9() async throws {
        #if os(Linux)
        try await withTemporaryDirectory { dir in
            let path = dir + "/journal.sqlite"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = ["--testing-library", "swift-testing", "--filter", "crashChild"]
            process.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: path]) { $1 }
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
            #expect(try recovered.unacknowledgedIntents().map(\.intent.orderRef) == ["CRASH-1"])
        }
        #endif
    }
}
