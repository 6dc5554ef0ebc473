import TWSProtocol

/// What the pacing planner needs to know about one historical-data request.
///
/// The planner does not look at wire types: the caller derives the keys from the request, so the rules stay pure
/// and testable. Two requests are *identical* when their `signature`s are equal (contract, end date, duration, bar
/// size, what to show, RTH flag, …), and they count against the same 2-second budget when their `seriesKey`s
/// (contract, exchange, tick type) are equal.
public struct HistoricalPacingRequest: Sendable, Hashable {
    /// Everything that makes two requests identical.
    public var signature: String
    /// Contract, exchange and tick type (`whatToShow`).
    public var seriesKey: String
    /// `whatToShow == BID_ASK`: the request counts double.
    public var isBidAsk: Bool

    /// Creates a pacing description of a request.
    public init(signature: String, seriesKey: String, isBidAsk: Bool) {
        self.signature = signature
        self.seriesKey = seriesKey
        self.isBidAsk = isBidAsk
    }

    /// The weight in the counting rules: BID_ASK counts double.
    var weight: Int { isBidAsk ? 2 : 1 }
}

/// The limits of PROTOCOL.md §8.2. The defaults are IB's documented numbers.
public struct HistoricalPacingLimits: Sendable, Equatable {
    /// No identical request within this interval (15 s).
    public var identicalInterval: Duration = .seconds(15)
    /// Window of the same-series rule (2 s).
    public var seriesWindow: Duration = .seconds(2)
    /// At most this weight per series in `seriesWindow` (six or more is a violation: 5).
    public var seriesLimit: Int = 5
    /// Window of the global rule (10 minutes).
    public var globalWindow: Duration = .seconds(600)
    /// At most this weight in `globalWindow` (more than 60 is a violation: 60).
    public var globalLimit: Int = 60
    /// At most this many open requests at once (50).
    public var maximumOpenRequests: Int = 50
    /// Added to every interval so clock skew between us and TWS never earns a violation.
    public var safetyMargin: Duration = .milliseconds(100)

    /// The documented limits with a 100 ms margin.
    public init() {}
}

/// The planner's answer for one request.
public enum HistoricalPacingDecision: Sendable, Equatable {
    /// The request may be sent now.
    case sendNow
    /// The request may be sent at this time (same time base as `now`), not before.
    case sendAt(Duration)
    /// 50 requests are open: wait until one finishes (`finished(_:)`), then ask again.
    case waitForOpenSlot
}

/// A pure planner for historical-data pacing: it says when a request may be sent so the client never earns a
/// pacing violation (errMsg 162). The caller records each send and each finish.
///
/// ```swift
/// var pacing = HistoricalPacing()
/// if case .sendNow = pacing.decision(for: request, now: now) {
///     pacing.recordSent(request, requestID: 7, at: now)
/// }
/// // … on historicalDataEnd or an error for request 7:
/// pacing.finished(requestID: 7)
/// ```
public struct HistoricalPacing: Sendable {
    private struct Sent: Sendable {
        var request: HistoricalPacingRequest
        var time: Duration
    }

    /// The limits in force.
    public let limits: HistoricalPacingLimits
    /// Sends within the global window, oldest first.
    private var history: [Sent] = []
    /// Requests sent and not yet finished.
    private var open: Set<Int> = []

    /// Creates a planner with no history.
    public init(limits: HistoricalPacingLimits = HistoricalPacingLimits()) {
        self.limits = limits
    }

    /// The number of requests sent and not finished.
    public var openRequestCount: Int { open.count }

    /// The weight sent within the global window before `now` (what rule 3 counts against `limits.globalLimit`).
    public func weightInGlobalWindow(now: Duration) -> Int {
        history.filter { $0.time >= now - limits.globalWindow }.reduce(0) { $0 + $1.request.weight }
    }

    /// Whether and when `request` may be sent.
    public func decision(for request: HistoricalPacingRequest, now: Duration) -> HistoricalPacingDecision {
        if open.count >= limits.maximumOpenRequests { return .waitForOpenSlot }
        let earliest = earliestSendTime(for: request, now: now)
        return earliest <= now ? .sendNow : .sendAt(earliest)
    }

    /// The earliest time `request` may be sent by the time rules (the open-request cap aside).
    public func earliestSendTime(for request: HistoricalPacingRequest, now: Duration) -> Duration {
        var earliest = now
        // Rule 1: no identical request within 15 s.
        if let last = history.last(where: { $0.request.signature == request.signature }) {
            earliest = max(earliest, last.time + limits.identicalInterval + limits.safetyMargin)
        }
        // Rule 2: fewer than six per contract, exchange and tick type within 2 s.
        let series = history.filter { $0.request.seriesKey == request.seriesKey }
        earliest = max(
            earliest,
            Self.earliestTime(
                in: series, window: limits.seriesWindow + limits.safetyMargin,
                limit: limits.seriesLimit, weight: request.weight, now: now
            ))
        // Rule 3: at most 60 within 10 minutes.
        earliest = max(
            earliest,
            Self.earliestTime(
                in: history, window: limits.globalWindow + limits.safetyMargin,
                limit: limits.globalLimit, weight: request.weight, now: now
            ))
        return earliest
    }

    /// Records that `request` went out at `time` with the given request id.
    public mutating func recordSent(_ request: HistoricalPacingRequest, requestID: Int, at time: Duration) {
        history.append(Sent(request: request, time: time))
        open.insert(requestID)
        prune(now: time)
    }

    /// Records that a request finished (all bars received, an error, or a cancel), freeing its open slot.
    public mutating func finished(requestID: Int) {
        open.remove(requestID)
    }

    /// Drops sends older than every window.
    private mutating func prune(now: Duration) {
        let horizon = max(limits.globalWindow, limits.identicalInterval, limits.seriesWindow) + limits.safetyMargin
        history.removeAll { $0.time + horizon < now }
    }

    /// The earliest `t >= now` at which the weight sent in the closed window `[t − window, t]` plus `weight` stays
    /// within `limit`.
    private static func earliestTime(
        in sends: [Sent], window: Duration, limit: Int, weight: Int, now: Duration
    ) -> Duration {
        // Only sends still inside the window at `now` count; drop the oldest until the new one fits.
        let live = sends.filter { $0.time >= now - window }
        var total = live.reduce(0) { $0 + $1.request.weight }
        var earliest = now
        for sent in live where total + weight > limit {
            total -= sent.request.weight
            earliest = max(earliest, sent.time + window + .nanoseconds(1))
        }
        return earliest
    }
}
