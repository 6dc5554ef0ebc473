import Foundation
import JournalModel
import Storage
import Testing
import TradingModel

/// A long session log is read in pages (the drift report of a week's sandbox run): the pages, joined, are the log,
/// and another session's steps never appear in them.
struct SessionLogPagingTests {
    @Test func pagesJoinToTheWholeLogOfOneSession() async throws {
        try await withTemporaryDirectory { dir in
            let journal = try OrderJournal(path: dir + "/journal.sqlite")
            let t0 = Timestamp(nanoseconds: 1_295_364_600_000_000_000)
            let first = try journal.beginSession(at: t0, settings: Data("{}".utf8), strategy: nil)
            let second = try journal.beginSession(at: t0, settings: Data("{}".utf8), strategy: nil)
            func steps(_ count: Int64, tag: UInt8) -> [JournalSessionStep] {
                (1...count).map { (n: Int64) -> JournalSessionStep in
                    let time = Timestamp(nanoseconds: t0.nanoseconds + n * 1_000_000_000)
                    return JournalSessionStep(
                        sequence: n, time: time, input: Data([tag, UInt8(truncatingIfNeeded: n)]), actions: Data("[]".utf8))
                }
            }
            try journal.recordSessionSteps(session: first, steps(10, tag: 1))
            try journal.recordSessionSteps(session: second, steps(4, tag: 2))

            let whole = try journal.sessionSteps(session: first)
            #expect(whole == steps(10, tag: 1))
            var paged: [JournalSessionStep] = []
            var after = Int64.min
            while true {
                let page = try journal.sessionSteps(session: first, after: after, limit: 3)
                #expect(page.count <= 3)
                paged += page
                guard let last = page.last else { break }
                after = last.sequence
            }
            #expect(paged == whole)
            #expect(try journal.sessionSteps(session: first, after: 10, limit: 3).isEmpty)
            #expect(try journal.sessionSteps(session: second, after: 2).map(\.sequence) == [3, 4])
        }
    }
}
