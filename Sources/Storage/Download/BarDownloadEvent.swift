import TradingModel
/// Progress of a download, for a progress bar or a log.
public enum BarDownloadEvent: Hashable, Sendable {
    /// The chunks were planned: `total` in all, of which `alreadyDone` are skipped.
    case planned(total: Int, alreadyDone: Int)
    /// A chunk was stored (`completed` of the `toFetch` chunks this run fetches).
    case chunkStored(DownloadSeries, DownloadChunk, bars: Int, completed: Int, toFetch: Int)
    /// IB reported a pacing violation; the downloader waits `delay` before asking again.
    case pacingWait(DownloadSeries, DownloadChunk, delay: Duration, attempt: Int)
}
