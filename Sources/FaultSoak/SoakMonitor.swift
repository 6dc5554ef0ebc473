import Foundation
import InteractiveBrokers
import LiveSession
import Logging
import Synchronization
import TradingModel

/// The soak's shared record while it runs: the current bot run's operator link and stop, the bot's milestones and
/// ALERT lines, and the sampler's differences (`MismatchTracker`). Called from the bot's observer and log handler
/// (synchronously, so times are exact), the sampler and the fault driver.
final class SoakMonitor: Sendable {
    private struct State {
        var tracker = MismatchTracker()
        var link: OperatorLink?
        var stopper: AsyncStream<String>.Continuation?
        var restarting = false
        var finished = false
        var subscribed = false
        /// The current run has subscribed its bars: its start-up (and the restart reconciliation) is over, so its
        /// engine positions are the run's books.
        var runReady = false
        var runs = 0
        var reconnects = 0
        var summaries: [LiveRunSummary] = []
        var criticalAlerts: [String: Int] = [:]
        var gapAlerts = 0
        var shorts: [String] = []
        var shortSymbols: Set<String> = []
        var samples = 0
        var botStopped = false
        var failure: String?
        /// Operator text (log lines, alerts) with a Swift type or enum in it (`OperatorText.leak`), at most 20.
        var swiftText: [String] = []
        var deadFeeds = 0
        var feedsRecovered = 0
        var scanned = 0
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Duration

    /// A monitor on the soak's clock (the venue's virtual clock).
    init<C: Clock>(clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
    }

    /// Seconds since the soak began, on its clock.
    func elapsed() -> Double { now().secondsValue }

    // MARK: - The bot's side

    /// A bot run starts with this link and stop.
    func began(link: OperatorLink, stopper: AsyncStream<String>.Continuation) {
        let finished = state.withLock { state in
            state.link = link
            state.stopper = stopper
            state.restarting = false
            state.runReady = false
            state.runs += 1
            return state.finished
        }
        if finished { stopper.yield("soak done") }
    }

    /// A bot run ended.
    func ended(_ summary: LiveRunSummary) {
        state.withLock { state in
            state.summaries.append(summary)
            state.reconnects += summary.reconnects
        }
    }

    /// A milestone of the running bot. A position-mismatch ALERT is what the soak's operator acts on: the bot is
    /// stopped and started again, which adopts the broker's positions (docs/live-trading.md).
    func milestone(_ milestone: LiveRunnerMilestone) {
        let time = elapsed()
        state.withLock { state in
            switch milestone {
            case .subscribed:
                state.subscribed = true
                state.runReady = true
            case .positionMismatch:
                state.tracker.alert(at: time)
                guard !state.restarting, !state.finished else { return }
                state.restarting = true
                state.stopper?.yield("soak operator: restart after a position-mismatch ALERT")
            default:
                break
            }
        }
    }

    /// A connectivity milestone of the running bot: dead feeds found and recovered.
    func connectivity(_ milestone: ConnectivityMilestone) {
        state.withLock { state in
            switch milestone {
            case .feedSilent(let symbols, _): state.deadFeeds += symbols.count
            case .feedRecovered: state.feedsRecovered += 1
            default: break
            }
        }
    }

    /// Symbols the bot found with a dead feed (each time), and symbols whose bars came back after one.
    var feeds: (dead: Int, recovered: Int) { state.withLock { ($0.deadFeeds, $0.feedsRecovered) } }

    /// Keeps a line an operator would read if it carries a Swift type or enum dump.
    func scanOperatorText(_ text: String) {
        let marker = OperatorText.leak(in: text)
        state.withLock { state in
            state.scanned += 1
            if let marker, state.swiftText.count < 20 { state.swiftText.append("\(marker) in: \(text)") }
        }
    }

    /// The lines `scanOperatorText` kept, and how many it looked at.
    var swiftText: (lines: [String], scanned: Int) { state.withLock { ($0.swiftText, $0.scanned) } }

    /// A critical `ALERT:` line of the bot, counted by kind.
    func alertLine(_ text: String) {
        let kind =
            text.contains("positions differ") ? "position mismatch"
            : text.contains("journal") ? "journal"
            : text.contains("execId") || text.contains("execution conflict") ? "execution conflict"
            : text.contains("connection to IB down") ? "connectivity"
            : text.contains("heartbeat") || text.contains("stopped answering") ? "connection"
            : "other"
        state.withLock { $0.criticalAlerts[kind, default: 0] += 1 }
    }

    /// A short position at the broker (the soak trades long only): the first time each symbol is seen short, with
    /// the replay time.
    func short(_ symbol: String, _ quantity: Double, at time: Timestamp) {
        state.withLock { state in
            guard state.shortSymbols.insert(symbol).inserted else { return }
            state.shorts.append("\(symbol) \(quantity) at \(time)")
        }
    }
    var shorts: [String] { state.withLock { $0.shorts } }

    /// An ALERT that a gap in the bars was too long to back-fill.
    func gapAlert() { state.withLock { $0.gapAlerts += 1 } }
    var gapAlerts: Int { state.withLock { $0.gapAlerts } }

    // MARK: - The soak's side

    var link: OperatorLink? { state.withLock { $0.link } }
    /// The current run's link once its start-up is over (`nil` before, and between runs).
    var readyLink: OperatorLink? { state.withLock { $0.runReady && !$0.finished ? $0.link : nil } }
    var isFinished: Bool { state.withLock { $0.finished } }
    var hasSubscribed: Bool { state.withLock { $0.subscribed } }

    /// One sampled comparison.
    func observe(difference: String?) {
        let time = elapsed()
        state.withLock { state in
            state.samples += 1
            state.tracker.observe(difference: difference, at: time)
        }
    }

    /// The gateway lost its state.
    func freshRestart() {
        let time = elapsed()
        state.withLock { $0.tracker.freshRestart(at: time) }
    }

    /// The bot supervisor returned (`failure`: it gave up starting the bot).
    func stoppedRunning(failure: String?) {
        state.withLock { state in
            state.botStopped = true
            state.failure = failure
        }
    }

    var botStopped: Bool { state.withLock { $0.botStopped } }
    var failure: String? { state.withLock { $0.failure } }

    /// The soak is over: the running bot stops, and no new run starts.
    func finish() {
        let stopper = state.withLock { state in
            state.finished = true
            return state.stopper
        }
        stopper?.yield("soak done")
    }

    /// What was recorded.
    var record: (tracker: MismatchTracker, runs: Int, reconnects: Int, summaries: [LiveRunSummary], alerts: [String: Int], samples: Int) {
        state.withLock { ($0.tracker, $0.runs, $0.reconnects, $0.summaries, $0.criticalAlerts, $0.samples) }
    }

    /// A logger for the bot: counts its critical ALERT lines here and, at `level` and above, writes to standard error.
    func logger(level: Logger.Level?) -> Logger {
        Logger(label: "soak.bot") { _ in AlertCountingHandler(monitor: self, echo: level) }
    }
}

/// Counts `ALERT:` lines at critical level; echoes lines at or above `echo` to standard error.
private struct AlertCountingHandler: LogHandler {
    let monitor: SoakMonitor
    let echo: Logger.Level?
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    init(monitor: SoakMonitor, echo: Logger.Level?) {
        self.monitor = monitor
        self.echo = echo
        // Every line an operator reads (info and above) is scanned for Swift type names.
        logLevel = min(echo ?? .info, .info)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let text = "\(event.message)"
        monitor.scanOperatorText(text)
        if event.level == .critical, text.hasPrefix("ALERT:") { monitor.alertLine(text) }
        if text.hasPrefix("ALERT:"), text.contains("data.maxBackfill") { monitor.gapAlert() }
        if let echo, event.level >= echo {
            FileHandle.standardError.write(Data("soak bot [\(event.level)] \(text)\n".utf8))
        }
    }
}
