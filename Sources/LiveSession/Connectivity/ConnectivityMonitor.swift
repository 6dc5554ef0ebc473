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
/// - An interruption is never silent for long: once it is an ALERT it is repeated 15 minutes, 1 hour and 4 hours
///   in, then every 4 hours. One that began in the reset window and outlasts it (the weekly restart that needs a
///   login, a 2FA prompt nobody answered) is an ALERT a grace period after the window ends.
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
    /// IB's desupport warning for the gateway's build (2172): when IB will stop taking this gateway's connections,
    /// kept here with the connection's other long-running states (`DesupportWatch`).
    public var desupport = DesupportWatch()
    /// What is down: TWS's link to IB (1100) or the socket to TWS / IB Gateway.
    private var socketDown = false
    /// The last tick inside the reset window during the interruption.
    private var lastInWindow: Timestamp?
    /// ALERTs given for this interruption, and when the next reminder is due.
    private var alerts = 0
    private var nextReminder: Timestamp?

    /// The reminders after an interruption's first ALERT, by time since it began; then every 4 hours.
    static let reminders: [TimeSpan] = [.minutes(15), .hours(1), .hours(4)]

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
        socketDown = false
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
        socketDown = true
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
        socketDown = false
        lastInWindow = nil
        alerts = 0
        nextReminder = nil
        out.append(.resynchronize)
        if dataLost { out.append(.resubscribe) }
        return out
    }

    /// Time passed: escalates an interruption that outlasted the grace period (once), then keeps it from going
    /// silent: an ALERT when it outlasts the reset window it began in, and reminders.
    public mutating func tick(at now: Timestamp) -> [ConnectivityAction] {
        guard case .interrupted(let since, let wasExpected, let escalated) = phase else { return [] }
        let inWindow = isExpected(at: now)
        if inWindow { lastInWindow = now }
        var out: [ConnectivityAction] = []
        if !escalated, now - since >= gracePeriod {
            let expected = wasExpected || inWindow
            phase = .interrupted(since: since, expected: expected, escalated: true)
            let span = Self.text(now - since)
            if expected {
                out += [
                    .pauseEntries,
                    .log(.notice, "connection to IB still down after \(span), inside IB's reset window (expected); new entries paused"),
                ]
            } else {
                out += [
                    .pauseEntries,
                    .log(.warning, "ALERT: connection to IB down for \(span) (over the \(Self.text(gracePeriod)) grace period); new entries paused until it is restored"),
                ]
                alerts = 1
                nextReminder = reminder(after: since, at: now)
            }
            return out
        }
        guard escalated, !inWindow else { return out }
        if alerts == 0 {
            // Began (or went on) in the reset window: an ALERT once it outlasts the window by the grace period.
            guard now - max(since, lastInWindow ?? since) >= gracePeriod else { return out }
            alerts = 1
            nextReminder = reminder(after: since, at: now)
            out.append(.log(.warning, "ALERT: " + stillDown(since: since, at: now, afterWindow: lastInWindow != nil)))
        } else if let due = nextReminder, now >= due {
            alerts += 1
            nextReminder = reminder(after: since, at: now)
            out.append(.log(.warning, "ALERT: " + stillDown(since: since, at: now, afterWindow: false)))
        }
        return out
    }

    /// The first reminder time after `now` on the schedule counted from `since`.
    private func reminder(after since: Timestamp, at now: Timestamp) -> Timestamp {
        for step in Self.reminders where since + step > now { return since + step }
        let every = TimeSpan.hours(4)
        let past = (now - since).nanoseconds / every.nanoseconds
        return since + TimeSpan(nanoseconds: (past + 1) * every.nanoseconds)
    }

    /// The words of a long interruption: what is down, for how long, what may be going on.
    private func stillDown(since: Timestamp, at now: Timestamp, afterWindow: Bool) -> String {
        let span = Self.human(now - since)
        let window = afterWindow ? ", past the end of IB's reset window" : ""
        if socketDown {
            return "connection to IB down for \(span)\(window): TWS / IB Gateway is unreachable since \(since); after "
                + "IB's weekly restart or a crash the gateway waits for its login (and a 2FA approval) before it takes "
                + "connections. The bot keeps trying; new entries stay paused until it is back"
        }
        return "connection to IB down for \(span)\(window): TWS has reported no connection to IB since \(since) "
            + "(1100); a competing session or a login that IB asks again (2FA) can hold it. New entries stay paused "
            + "until it is restored"
    }

    /// A span in words: 45 s, 12 min, 1 h 5 min, 2 d 3 h.
    static func human(_ span: TimeSpan) -> String {
        let seconds = max(0, span.nanoseconds / 1_000_000_000)
        if seconds < 60 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 24 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
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
