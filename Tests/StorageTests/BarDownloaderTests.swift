import Storage
import Synchronization
import Testing
import TradingModel

/// A source that serves one bar per hour of every weekday and fails on cue.
final class FakeSource: HistoricalBarSource {
    private let state = Mutex<(requests: [HistoricalChunkRequest], script: [HistoricalSourceError])>(([], []))

    /// Errors thrown by the next requests, in order, before answering normally again.
    func fail(with errors: [HistoricalSourceError]) { state.withLock { $0.script = errors } }

    var requests: [HistoricalChunkRequest] { state.withLock { $0.requests } }

    func bars(for request: HistoricalChunkRequest) async throws(HistoricalSourceError) -> [Bar] {
        let failure = state.withLock { state -> HistoricalSourceError? in
            state.requests.append(request)
            return state.script.isEmpty ? nil : state.script.removeFirst()
        }
        if let failure { throw failure }
        var bars: [Bar] = []
        var t = request.chunk.start
        while t < request.end {
            if t.weekday < 5 {
                let p = Price(units: 100 * 100_000_000 + t.nanoseconds / 1_000_000_000 % 997)
                bars.append(Bar(timestamp: t, open: p, high: p, low: p, close: p, volume: Quantity(100)))
            }
            t = t + .hours(1)
        }
        if bars.isEmpty { throw .noData }
        return bars
    }
}

/// Records waits instead of sleeping.
final class SleepRecorder: Sendable {
    private let delays = Mutex<[Duration]>([])
    var recorded: [Duration] { delays.withLock { $0 } }
    var sleep: @Sendable (Duration) async throws -> Void { { d in self.delays.withLock { $0.append(d) } } }
}

struct BarDownloaderTests {
    static let hour = BarSize("1 hour")!
    static let minute = BarSize("1 min")!
    // Friday 2024-03-01 … Tuesday 2024-03-05 (exclusive), "now" on Wednesday.
    static let start = Timestamp(year: 2024, month: 3, day: 1)
    static let end = Timestamp(year: 2024, month: 3, day: 5)
    static let now = Timestamp(year: 2024, month: 3, day: 6, secondOfDay: 12 * 3600)

    @Test func downloadsEveryChunkThenResumesWithOnlyTheMissingOnes() async throws {
        try await withTemporaryDirectory { dir in
            let store = try BarStore(path: dir + "/bars.sqlite")
            let source = FakeSource()
            let downloader = BarDownloader(store: store, source: source, sleep: SleepRecorder().sleep)
            let series = [
                DownloadSeries(symbol: "AAA", barSize: Self.minute),
                DownloadSeries(symbol: "BBB", barSize: Self.minute),
            ]
            var events: [BarDownloadEvent] = []
            let first = try await downloader.run(
                BarDownloadPlan(series: series, range: Self.start..<Self.end, now: Self.now)
            ) {
                events.append($0)
            }
            #expect(first.plannedChunks == 8 && first.fetchedChunks == 8 && first.skippedChunks == 0)
            #expect(first.emptyChunks == 4)  // Saturday and Sunday of both symbols
            #expect(first.barsStored == 2 * 2 * 24)
            #expect(events.first == .planned(total: 8, alreadyDone: 0))
            #expect(source.requests.first?.duration == "1 D")
            #expect(source.requests.first?.end == Timestamp(year: 2024, month: 3, day: 2))

            // One more day and one more symbol: only those chunks are fetched.
            let more = series + [DownloadSeries(symbol: "CCC", barSize: Self.minute)]
            let longer = Self.start..<(Self.end + .days(1))
            let second = try await downloader.run(BarDownloadPlan(series: more, range: longer, now: Self.now))
            #expect(second.plannedChunks == 15 && second.skippedChunks == 8 && second.fetchedChunks == 7)
            #expect(source.requests.count == 15)
            #expect(try store.bars(symbol: "AAA", barSize: Self.minute).count == 3 * 24)
        }
    }

    @Test func theChunkHoldingNowIsFetchedButNotMarkedDone() async throws {
        try await withTemporaryDirectory { dir in
            let store = try BarStore(path: dir + "/bars.sqlite")
            let source = FakeSource()
            let downloader = BarDownloader(store: store, source: source, sleep: SleepRecorder().sleep)
            let series = DownloadSeries(symbol: "AAA", barSize: Self.minute)
            let now = Timestamp(year: 2024, month: 3, day: 5, secondOfDay: 10 * 3600)
            let plan = BarDownloadPlan(series: [series], range: Self.start..<(now + .days(30)), now: now)
            let report = try await downloader.run(plan)
            #expect(report.fetchedChunks == 5)
            #expect(source.requests.last?.end == now)
            #expect(try store.completedChunks(series).count == 4)
            let again = try await downloader.run(plan)
            #expect(again.fetchedChunks == 1 && again.skippedChunks == 4)
        }
    }

    @Test func theEndAskedForLimitsTheLastChunkLikeNow() async throws {
        try await withTemporaryDirectory { dir in
            let store = try BarStore(path: dir + "/bars.sqlite")
            let source = FakeSource()
            let downloader = BarDownloader(store: store, source: source, sleep: SleepRecorder().sleep)
            let series = DownloadSeries(symbol: "AAA", barSize: Self.hour)
            // Hour bars come in week chunks: an end on Tuesday noon lies inside one.
            let end = Timestamp(year: 2024, month: 3, day: 5, secondOfDay: 12 * 3600)
            let report = try await downloader.run(BarDownloadPlan(series: [series], range: Self.start..<end, now: Self.now))
            #expect(source.requests.last?.end == end)
            let stored = try store.bars(symbol: "AAA", barSize: Self.hour)
            // The last bar is Tuesday's 11:00, the last hour before the end; none after it.
            #expect(stored.last?.timestamp == end - .hours(1))
            let chunks = report.plannedChunks
            #expect(try store.completedChunks(series).count == chunks - 1)
            // Further on: the chunk is fetched again, whole, and done.
            let later = try await downloader.run(BarDownloadPlan(series: [series], range: Self.start..<Self.now, now: Self.now))
            #expect(later.skippedChunks == chunks - 1)
            #expect(try store.bars(symbol: "AAA", barSize: Self.hour).count > stored.count)
        }
    }

    @Test func pacingViolationsWaitAndRetry() async throws {
        try await withTemporaryDirectory { dir in
            let store = try BarStore(path: dir + "/bars.sqlite")
            let source = FakeSource()
            source.fail(with: [.pacingViolation("Pacing violation"), .pacingViolation("Pacing violation")])
            let sleeper = SleepRecorder()
            let downloader = BarDownloader(store: store, source: source, sleep: sleeper.sleep)
            let plan = BarDownloadPlan(
                series: [DownloadSeries(symbol: "AAA", barSize: Self.hour)], range: Self.start..<Self.end, now: Self.now
            )
            var waits: [Int] = []
            let report = try await downloader.run(plan) { event in
                if case .pacingWait(_, _, _, let attempt) = event { waits.append(attempt) }
            }
            #expect(report.pacingRetries == 2 && report.fetchedChunks == 1)
            #expect(sleeper.recorded == [.seconds(15), .seconds(30)])
            #expect(waits == [1, 2])
            #expect(try store.bars(symbol: "AAA", barSize: Self.hour, in: Self.start..<Self.end).count == 2 * 24)
        }
    }

    @Test func persistentPacingStopsAndKeepsWhatWasDone() async throws {
        try await withTemporaryDirectory { dir in
            let store = try BarStore(path: dir + "/bars.sqlite")
            let source = FakeSource()
            let sleeper = SleepRecorder()
            let downloader = BarDownloader(store: store, source: source, sleep: sleeper.sleep)
            let series = DownloadSeries(symbol: "AAA", barSize: Self.minute)
            var plan = BarDownloadPlan(series: [series], range: Self.start..<Self.end, now: Self.now)
            plan.pacingRetryDelays = [.seconds(1)]
            // The first chunk succeeds, the second fails twice.
            let first = try await downloader.run(
                BarDownloadPlan(series: [series], range: Self.start..<(Self.start + .days(1)), now: Self.now))
            #expect(first.fetchedChunks == 1)
            source.fail(with: [.pacingViolation("x"), .pacingViolation("x")])
            await #expect(throws: BarDownloadError.self) { try await downloader.run(plan) }
            #expect(try store.completedChunks(series).count == 1)
            source.fail(with: [.failed("no permissions")])
            do {
                _ = try await downloader.run(plan)
                Issue.record("expected a failure")
            } catch {
                #expect("\(error)".contains("no permissions"))
            }
        }
    }
}
