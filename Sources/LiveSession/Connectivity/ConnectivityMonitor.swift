import Logging
import TradingModel

/// Debounces TWS's connectivity codes and decides what a running bot does about them. Pure: time is a parameter
/// (the runner passes its wall clock; tests a fixed one).
///
/// - 1100 (TWS lost IB) starts an *interruption*. Restored (1101/1102) within `gracePeriod` it is a blip: logged
///   at info/notice, nothing paused. Longer, it escalates once: a warning-level alert (outside the reset window)
///   and a *connectivity pause* — no new entries until restored.
/// - Repeated 1100s while interrupted (storms) are absorbed.
/// - Inside the reset window (`ResetSchedule`) every loss is expected: logged as such, never as an alert; the
///   pause still applies after the grace period (nothing can trade then anyway).
/// - Every restoration asks for a resynchronization (executions, open orders); 1101 (data lost) also for a
///   resubscription of market data.
///
/// ```swift
/// var monitor = ConnectivityMonitor(gracePeriod: .seconds(30), schedule: .northAmerica)
/// for action in monitor.lost(at: now) { carryOut(action) }
/// for action in monitor.tick(at: now + .seconds(31)) { carryOut(action) }  // alert + pause
/// ```
public struct ConnectivityMonitor: Sendable {
    /// Where the connection to IB stands.
    public enum Phase: Sendable, Equatable {
        /// Connected to IB.
        case connected
        /// Interrupted since a time; `expected` inside the reset window; `escalated` once the grace period passed.
        case interrupted(since: Timestamp, expected: Bool, escalated: Bool)
    }

    /// How long an interruption may last before it is an alert and entries pause.
    public let gracePeriod: TimeSpan
    /// IB's reset window (`nil`: none known, every loss is unexpected).
    public let schedule: ResetSchedule?
    /// The current phase.
    public private(set) var phase: Phase = .connected

    /// Creates a monitor, connected.
    public init(gracePeriod: TimeSpan, schedule: ResetSchedule?) {
        self.gracePeriod = gracePeriod
        self.schedule = schedule
    }

    /// Whether new entries are paused (an interruption outlasted the grace period and is not over).
    public var isPaused: Bool {
        if case .interrupted(_, _, true) = phase { return true }
        return false
    }

    /// Whether an instant lies in the reset window.
    public func isExpected(at now: Timestamp) -> Bool { schedule?.contains(now) ?? false }

    /// 1100: TWS lost its connection to IB (the socket to TWS is still up).
    public mutating func lost(at now: Timestamp) -> [ConnectivityAction] {
        if case .interrupted = phase { return [.log(.debug, "1100 again while interrupted (ignored)")] }
        let expected = isExpected(at: now)
        phase = .interrupted(since: now, expected: expected, escalated: false)
        let why = expected ? " during IB's reset window (expected)" : ""
        return [
            .log(expected ? .info : .notice,
                 "TWS lost its connection to IB (1100)\(why); waiting up to \(Self.text(gracePeriod)) before pausing")
        ]
    }

    /// The socket to TWS closed (the runner reconnects).
    public mutating func socketLost(reason: String, at now: Timestamp) -> [ConnectivityAction] {
        let expected = isExpected(at: now)
        if case .interrupted(let since, let wasExpected, let escalated) = phase {
            phase = .interrupted(since: since, expected: wasExpected || expected, escalated: escalated)
        } else {
            phase = .interrupted(since: now, expected: expected, escalated: false)
        }
        if expected { return [.log(.notice, "connection to TWS closed during IB's reset window (expected): \(reason)")] }
        return [.log(.error, "connection lost: \(reason)")]
    }

    /// 1101 (`dataLost`) or 1102; also after the socket was re-established (`socket: true`).
    public mutating func restored(dataLost: Bool, at now: Timestamp, socket: Bool = false) -> [ConnectivityAction] {
        let code = socket ? "reconnected" : dataLost ? "1101, market data lost" : "1102, data maintained"
        var out: [ConnectivityAction] = []
        switch phase {
        case .connected:
            out.append(.log(.notice, "TWS reports its connection to IB restored (\(code)) without a loss seen"))
        case .interrupted(let since, let expected, let escalated):
            let span = Self.text(now - since)
            if escalated {
                out.append(.resumeEntries)
                out.append(
                    .log(expected ? .notice : .warning,
                         "connection to IB restored after \(span) (\(code)); entries resumed"))
            } else {
                out.append(.log(expected ? .info : .notice, "connection to IB restored after \(span) (\(code))"))
            }
        }
        phase = .connected
        out.append(.resynchronize)
        if dataLost { out.append(.resubscribe) }
        return out
    }

    /// Time passed: escalates an interruption that outlasted the grace period (once).
    public mutating func tick(at now: Timestamp) -> [ConnectivityAction] {
        guard case .interrupted(let since, let wasExpected, false) = phase, now - since >= gracePeriod else { return [] }
        let expected = wasExpected || isExpected(at: now)
        phase = .interrupted(since: since, expected: expected, escalated: true)
        let span = Self.text(now - since)
        if expected {
            return [
                .pauseEntries,
                .log(.notice, "connection to IB still down after \(span), inside IB's reset window (expected); new entries paused"),
            ]
        }
        return [
            .pauseEntries,
            .log(.warning, "ALERT: connection to IB down for \(span) (over the \(Self.text(gracePeriod)) grace period); new entries paused until it is restored"),
        ]
    }

    static func text(_ span: TimeSpan) -> String {
        let milliseconds = span.nanoseconds / 1_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}

/// What the runner does after a connectivity input, in order.
public enum ConnectivityAction: Sendable, Equatable {
    /// Log at this level.
    case log(Logger.Level, String)
    /// Stop new entries (the connectivity pause); open orders stay working.
    case pauseEntries
    /// End the connectivity pause.
    case resumeEntries
    /// Re-request executions and open orders; apply missed fills once.
    case resynchronize
    /// Market data subscriptions were lost: subscribe again (and back-fill the bars missed).
    case resubscribe
}
