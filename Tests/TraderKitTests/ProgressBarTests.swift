import Backtest
import Testing

@testable import TraderKit

/// The backtest progress bar: silent when standard error is not a terminal or with `--quiet`, throttled and
/// erased at the end on a terminal.
struct ProgressBarTests {
    final class Sink {
        var text = ""
    }

    @Test func offWhenNotATerminalOrQuiet() {
        let sink = Sink()
        for (isTerminal, quiet) in [(false, false), (true, true), (false, true)] {
            let bar = ProgressBar(isTerminal: isTerminal, quiet: quiet, delay: 0) { sink.text += $0 }
            #expect(!bar.isEnabled)
            #expect(bar.hook() == nil)
            bar.update(BacktestProgress(barsProcessed: 5, totalBars: 10), elapsed: 1)
            bar.finish()
        }
        #expect(sink.text.isEmpty)
    }

    @Test func drawsOnATerminalAfterTheDelayThrottledAndErasesAtTheEnd() {
        let sink = Sink()
        let bar = ProgressBar(isTerminal: true, quiet: false, delay: 0.5) { sink.text += $0 }
        #expect(bar.isEnabled)
        #expect(bar.hook(interval: 1000)?.interval == 1000)
        bar.update(BacktestProgress(barsProcessed: 100, totalBars: 1000), elapsed: 0.2)
        #expect(sink.text.isEmpty)  // inside the delay: short runs print nothing
        bar.update(BacktestProgress(barsProcessed: 500, totalBars: 1000), elapsed: 1.0)
        bar.update(BacktestProgress(barsProcessed: 510, totalBars: 1000), elapsed: 1.05)  // throttled
        #expect(sink.text == "\r\u{1B}[K" + ProgressBar.line(BacktestProgress(barsProcessed: 500, totalBars: 1000), elapsed: 1.0))
        bar.finish()
        #expect(sink.text.hasSuffix("\r\u{1B}[K"))
    }

    @Test func lineShowsPercentRateAndETA() {
        let line = ProgressBar.line(BacktestProgress(barsProcessed: 600_000, totalBars: 1_000_000), elapsed: 0.05)
        #expect(line.contains(" 60.0 %"))
        #expect(line.contains("12.0 M bars/s"))
        #expect(line.contains("ETA 0:00"))
        #expect(line.hasPrefix("[" + String(repeating: "█", count: 14) + String(repeating: "░", count: 10) + "]"))
    }
}
