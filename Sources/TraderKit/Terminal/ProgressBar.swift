import Backtest
import Foundation

/// A backtest's progress on standard error: one redrawn line with percent, bars per second and ETA.
///
/// Off unless standard error is a terminal and `--quiet` is not given (a pipe or a log file never sees control
/// characters). Nothing is drawn during the first `delay` seconds, so short runs print nothing at all; redraws are
/// throttled to ten per second and the line is erased at the end.
public final class ProgressBar {
    /// `true` when the bar may draw.
    public let isEnabled: Bool
    private let write: (String) -> Void
    private let delay: Double
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDraw = -Double.infinity
    private var isDrawn = false

    /// Creates a bar.
    /// - Parameters:
    ///   - isTerminal: whether standard error is a terminal (default: asks the OS).
    ///   - quiet: `--quiet` was given.
    ///   - delay: seconds before the first draw.
    ///   - write: where the text goes (default: standard error).
    public init(
        isTerminal: Bool = isatty(STDERR_FILENO) == 1, quiet: Bool, delay: Double = 0.5,
        write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.isEnabled = isTerminal && !quiet
        self.delay = delay
        self.write = write
        self.started = clock.now
    }

    /// The runner hook, or `nil` when the bar is off (the runner then skips progress entirely).
    /// - Parameter interval: bars between calls.
    public func hook(interval: Int = 1 << 16) -> BacktestProgressHook? {
        guard isEnabled else { return nil }
        return BacktestProgressHook(interval: interval) { [self] progress in
            update(progress, elapsed: (clock.now - started).secondsValue)
        }
    }

    /// Draws the line for `progress` if enabled, past the delay and not drawn within the last 0.1 s.
    public func update(_ progress: BacktestProgress, elapsed: Double) {
        guard isEnabled, elapsed >= delay, elapsed - lastDraw >= 0.1 || progress.barsProcessed == progress.totalBars
        else { return }
        lastDraw = elapsed
        isDrawn = true
        write("\r\u{1B}[K" + Self.line(progress, elapsed: elapsed))
    }

    /// Erases the line (call once the run is over, before printing results).
    public func finish() {
        if isDrawn { write("\r\u{1B}[K") }
        isDrawn = false
    }

    /// `[██████░░░░]  60.0 %  12.3 M bars/s  ETA 0:02`.
    public static func line(_ progress: BacktestProgress, elapsed: Double) -> String {
        let width = 24
        let fraction = min(max(progress.fraction, 0), 1)
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let rate = elapsed > 0 ? Double(progress.barsProcessed) / elapsed : 0
        let remaining = rate > 0 ? Double(progress.totalBars - progress.barsProcessed) / rate : 0
        let percent = String(format: "%5.1f %%", fraction * 100)
        return "[\(bar)] \(percent)  \(BacktestSummaryReport.rate(rate)) bars/s  ETA \(DownloadProgressView.clockText(remaining))"
    }
}
