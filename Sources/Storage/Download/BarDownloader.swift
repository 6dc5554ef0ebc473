import TradingModel

/// Downloads historical bars chunk by chunk into a `BarStore`, skipping chunks already done and surviving pacing
/// violations by waiting and retrying.
///
/// Chunks are fetched one at a time (IB paces historical requests per connection anyway) and each chunk's bars are
/// stored and marked done in one transaction, so a download interrupted at any point resumes where it stopped.
///
/// ```swift
/// let downloader = BarDownloader(store: store, source: source, sleep: { try await Task.sleep(for: $0) })
/// let report = try await downloader.run(plan) { event in print(event) }
/// ```
public struct BarDownloader: Sendable {
    /// The destination.
    public let store: BarStore
    /// Where bars come from.
    public let source: any HistoricalBarSource
    /// How to wait after a pacing violation (injected: tests record instead of sleeping).
    public let sleep: @Sendable (Duration) async throws -> Void

    /// Creates a downloader.
    public init(
        store: BarStore, source: any HistoricalBarSource, sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.store = store
        self.source = source
        self.sleep = sleep
    }

    /// The chunks a plan needs for one series, oldest first.
    public static func chunks(for series: DownloadSeries, plan: BarDownloadPlan) -> [DownloadChunk] {
        let end = min(plan.range.upperBound, plan.now)
        guard plan.range.lowerBound < end else { return [] }
        return ChunkPolicy(barSize: series.barSize).chunks(covering: plan.range.lowerBound..<end)
    }

    /// Runs a plan.
    /// - Parameters:
    ///   - plan: series, range and now.
    ///   - progress: called for each event, in order.
    /// - Returns: what was done.
    /// - Throws: `BarDownloadError`.
    public func run(
        _ plan: BarDownloadPlan, progress: (BarDownloadEvent) -> Void = { _ in }
    ) async throws(BarDownloadError) -> BarDownloadReport {
        var report = BarDownloadReport()
        var work: [(DownloadSeries, DownloadChunk)] = []
        for series in plan.series {
            let done: Set<DownloadChunk>
            do throws(BarStoreError) { done = try store.completedChunks(series) } catch { throw .store(error) }
            for chunk in Self.chunks(for: series, plan: plan) {
                report.plannedChunks += 1
                if done.contains(chunk) {
                    report.skippedChunks += 1
                } else {
                    work.append((series, chunk))
                }
            }
        }
        progress(.planned(total: report.plannedChunks, alreadyDone: report.skippedChunks))
        // The range's end limits the last chunk as `now` does: fetched up to it, not marked done (a later download
        // that reaches further fetches the chunk whole), so no bar after the end asked for is stored.
        let limit = min(plan.range.upperBound, plan.now)
        for (index, (series, chunk)) in work.enumerated() {
            let request = HistoricalChunkRequest(
                series: series, chunk: chunk, end: min(chunk.end, limit),
                duration: ChunkPolicy(barSize: series.barSize).requestDuration)
            let bars = try await fetch(request, plan: plan, report: &report, progress: progress)
                .filter { $0.timestamp < limit }
            let record = StoredChunk(series: series, chunk: chunk, isComplete: chunk.end <= limit, storedAt: plan.now)
            do throws(BarStoreError) { try store.storeChunk(bars, record) } catch { throw .store(error) }
            report.fetchedChunks += 1
            report.barsStored += bars.count
            if bars.isEmpty { report.emptyChunks += 1 }
            progress(.chunkStored(series, chunk, bars: bars.count, completed: index + 1, toFetch: work.count))
        }
        return report
    }

    private func fetch(
        _ request: HistoricalChunkRequest, plan: BarDownloadPlan, report: inout BarDownloadReport,
        progress: (BarDownloadEvent) -> Void
    ) async throws(BarDownloadError) -> [Bar] {
        var attempt = 0
        while true {
            if Task.isCancelled { throw .cancelled }
            report.requests.append(request)
            let failure: HistoricalSourceError
            do throws(HistoricalSourceError) {
                return try await source.bars(for: request)
            } catch {
                failure = error
            }
            switch failure {
            case .noData:
                return []
            case .failed(let message):
                throw .source(series: "\(request.series)", chunk: "\(request.chunk)", message: message)
            case .pacingViolation:
                guard attempt < plan.pacingRetryDelays.count else {
                    throw .pacingPersisted(
                        series: "\(request.series)", chunk: "\(request.chunk)", attempts: attempt + 1)
                }
                let delay = plan.pacingRetryDelays[attempt]
                attempt += 1
                report.pacingRetries += 1
                progress(.pacingWait(request.series, request.chunk, delay: delay, attempt: attempt))
                do { try await sleep(delay) } catch { throw .cancelled }
            }
        }
    }
}
