import Foundation
import Storage

/// Shows a download's progress on standard error: a redrawn bar with an ETA on a terminal, plain lines otherwise.
public final class DownloadProgressView {
    private let isTerminal: Bool
    private let clock = ContinuousClock()
    private var started: ContinuousClock.Instant
    private var hasBar = false

    /// Creates a view; `isTerminal` defaults to whether standard error is a terminal.
    public init(isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.isTerminal = isTerminal
        self.started = clock.now
    }

    public func handle(_ event: BarDownloadEvent) {
        switch event {
        case .planned(let total, let done):
            started = clock.now
            line(
                "\(total) chunk\(total == 1 ? "" : "s") planned, \(done) already in the store, \(total - done) to fetch"
            )
        case .chunkStored(let series, let chunk, let bars, let completed, let toFetch):
            let what = "\(series) \(chunk.start): \(bars) bar\(bars == 1 ? "" : "s")"
            if isTerminal {
                draw(completed: completed, total: toFetch, label: what)
                if completed == toFetch { finishBar() }
            } else {
                line("[\(completed)/\(toFetch)] \(what)")
            }
        case .pacingWait(let series, _, let delay, let attempt):
            line("\(series): IB pacing violation, waiting \(delay.components.seconds) s (attempt \(attempt))")
        }
    }

    private func draw(completed: Int, total: Int, label: String) {
        let width = 30
        let filled = total == 0 ? width : width * completed / total
        let elapsed = (clock.now - started).secondsValue
        let eta = completed == 0 ? 0 : elapsed / Double(completed) * Double(total - completed)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let text = "\r\u{1B}[K[\(bar)] \(completed)/\(total)  ETA \(Self.clockText(eta))  \(label)"
        FileHandle.standardError.write(Data(text.utf8))
        hasBar = true
    }

    private func finishBar() {
        if hasBar { FileHandle.standardError.write(Data("\n".utf8)) }
        hasBar = false
    }

    private func line(_ text: String) {
        if hasBar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// `m:ss` or `h:mm:ss`.
    public static func clockText(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let h = total / 3600
        let m = total / 60 % 60
        let s = total % 60
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)" }
        return "\(m):\(ss)"
    }
}
