import LiveSession
import Synchronization
import TradingEngine
import TradingModel

/// The line between a running session and its operator (the dashboard's server, `ibtrader ctl`): the session's
/// latest `SessionStatus` and its equity over the day one way, controls (pause, resume, kill, flatten) the other.
/// The driver attaches it for the run; a control sent while no session is attached is answered at once.
///
/// ```swift
/// let link = OperatorLink()
/// configuration.operatorLink = link
/// let reply = await link.send(.pause, by: "127.0.0.1", reason: "news at 14:00")
/// link.status?.trading.state   // "entries paused"
/// ```
public final class OperatorLink: Sendable {
    /// A point of the intraday equity curve.
    public struct EquityPoint: Sendable, Equatable, Codable {
        public var time: String
        public var equity: Double
    }

    private struct State {
        var status: SessionStatus?
        var updated: ContinuousClock.Instant?
        var equity: [EquityPoint] = []
        var lastSample: Timestamp?
        /// The first equity of the current data day, and the run's highest (when the risk monitor keeps none).
        var dayStart: (day: Substring, equity: Double)?
        var peak: Double?
        var deliver: (@Sendable (SessionInput) -> Void)?
        var nextID = 0
        var waiting: [Int: CheckedContinuation<OperatorReply, Never>] = [:]
        var alertSink: (@Sendable (OperatorAlert) -> Void)?
    }

    private let state = Mutex(State())
    /// How often the equity curve takes a point, and how many it keeps (a day at 15 s is 5,760).
    private let sampleEvery: TimeSpan
    private let capacity: Int

    /// Creates a link.
    public init(sampleEvery: TimeSpan = .seconds(15), capacity: Int = 5_760) {
        self.sampleEvery = sampleEvery
        self.capacity = capacity
    }

    /// The session's latest snapshot (`nil` before the session started).
    public var status: SessionStatus? { state.withLock { $0.status } }

    /// Seconds since the session last published (`nil` before it did): a loop that stopped answering shows here.
    public var secondsSinceUpdate: Double? {
        state.withLock { state in
            state.updated.map { (ContinuousClock.now - $0).secondsValue }
        }
    }

    /// Whether a session is attached (running or stopping).
    public var isAttached: Bool { state.withLock { $0.deliver != nil } }

    /// The equity curve of the run so far (a point every `sampleEvery`, the latest `capacity`).
    public var equityCurve: [EquityPoint] { state.withLock { $0.equity } }

    /// Sends a control to the session and waits for its answer (`risk`: the limits a `reload` brings).
    /// - Returns: the session's reply; without a session, or after `timeout`, a reply that says so (`done: false`).
    public func send(
        _ action: OperatorAction, by: String, reason: String, risk: RiskConfig? = nil, timeout: Duration = .seconds(10)
    ) async -> OperatorReply {
        await withCheckedContinuation { (continuation: CheckedContinuation<OperatorReply, Never>) in
            let (id, deliver) = state.withLock { state -> (Int, (@Sendable (SessionInput) -> Void)?) in
                state.nextID += 1
                if state.deliver != nil { state.waiting[state.nextID] = continuation }
                return (state.nextID, state.deliver)
            }
            guard let deliver else {
                continuation.resume(returning: OperatorReply(id: id, done: false, message: "no session is running"))
                return
            }
            deliver(.control(OperatorControl(id: id, action: action, by: by, reason: reason, risk: risk)))
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                self?.answer(OperatorReply(id: id, done: false, message: "no answer from the session within \(timeout)"))
            }
        }
    }

    /// Sends the session's alerts (`OperatorAlert.alerts(of:…)`) to `sink` (an `AlertCenter`'s `post`).
    public func forwardAlerts(to sink: @escaping @Sendable (OperatorAlert) -> Void) {
        state.withLock { $0.alertSink = sink }
    }

    // MARK: - The driver's side

    /// A step's alerts.
    func alert(_ alerts: [OperatorAlert]) {
        guard !alerts.isEmpty, let sink = state.withLock({ $0.alertSink }) else { return }
        for alert in alerts { sink(alert) }
    }

    /// The session starts: controls go to `deliver`.
    func attach(_ deliver: @escaping @Sendable (SessionInput) -> Void) {
        state.withLock { $0.deliver = deliver }
    }

    /// The session ended: controls still waiting are answered, later ones find no session.
    func detach() {
        let waiting = state.withLock { state in
            state.deliver = nil
            defer { state.waiting = [:] }
            return state.waiting
        }
        for (id, continuation) in waiting {
            continuation.resume(returning: OperatorReply(id: id, done: false, message: "the session ended"))
        }
    }

    /// The session's answer to a control.
    func answer(_ reply: OperatorReply) {
        let continuation = state.withLock { $0.waiting.removeValue(forKey: reply.id) }
        continuation?.resume(returning: reply)
    }

    /// A new snapshot; the equity curve takes a point when one is due.
    func publish(_ status: SessionStatus, at now: Timestamp) {
        var status = status
        state.withLock { state in
            if !status.account.isEmpty { Self.fillDayFigures(&status, &state) }
            state.status = status
            state.updated = .now
            guard !status.account.isEmpty else { return }
            if let last = state.lastSample, now - last < sampleEvery { return }
            state.lastSample = now
            state.equity.append(EquityPoint(time: status.time, equity: status.money.equity))
            if state.equity.count > capacity { state.equity.removeFirst(state.equity.count - capacity) }
        }
    }

    /// Today's P&L and the drawdown from the run's own equity when the risk monitor keeps no baseline (it does only
    /// with a daily-loss or drawdown limit): the day is the data's (UTC), as the monitor's.
    private static func fillDayFigures(_ status: inout SessionStatus, _ state: inout State) {
        let equity = status.money.equity
        let day = status.dataTime.prefix(10)
        if state.dayStart?.day != day { state.dayStart = (day, equity) }
        state.peak = max(state.peak ?? equity, equity)
        if status.money.dayStartEquity == nil, let start = state.dayStart {
            status.money.dayStartEquity = start.equity
            status.money.todayPnL = equity - start.equity
        }
        if status.money.peakEquity == nil, let peak = state.peak, peak > 0 {
            status.money.peakEquity = peak
            status.money.drawdownPercent = max(0, (1 - equity / peak) * 100)
        }
    }
}
