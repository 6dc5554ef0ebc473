import Logging

/// The health probe of a connection that holds its socket but may have stopped answering (a hung gateway, a
/// half-open TCP path). Pure: the silence and the reset window are parameters.
///
/// Once nothing has arrived for `interval`, the runner sends reqCurrentTime; no answer within `timeout` means the
/// connection is treated as lost and goes through the reconnect path (which resynchronizes orders and
/// executions). Like the 1100 debounce, inside IB's reset window this is logged as expected, never as an ALERT.
///
/// ```swift
/// let heartbeat = Heartbeat(interval: .seconds(30), timeout: .seconds(10))
/// heartbeat.wait(afterSilence: .seconds(12))   // .seconds(18): look again then
/// heartbeat.wait(afterSilence: .seconds(30))   // nil: probe now
/// ```
public struct Heartbeat: Sendable, Equatable, Codable {
    /// Silence before a probe; `.zero` turns the heartbeat off.
    public var interval: Duration
    /// How long the probe may wait for its answer.
    public var timeout: Duration

    /// Creates a heartbeat: a probe after 30 s of silence, answered within 10 s, by default.
    public init(interval: Duration = .seconds(30), timeout: Duration = .seconds(10)) {
        self.interval = interval
        self.timeout = timeout
    }

    /// How often the silence is looked at: a quarter of the interval, at most a second (a probe goes out at most
    /// this late).
    public var pollStep: Duration { min(interval / 4, .seconds(1)) }

    /// Whether probes are sent at all.
    public var isEnabled: Bool { interval > .zero && timeout > .zero }

    /// How long to wait before looking again after `silence` without input; `nil`: probe now.
    public func wait(afterSilence silence: Duration) -> Duration? {
        silence >= interval ? nil : interval - silence
    }

    /// Why the connection is treated as lost after an unanswered probe.
    public func reason(silence: Duration) -> String {
        "no answer to the heartbeat (reqCurrentTime) within \(Self.text(timeout)) after \(Self.text(silence)) of silence"
    }

    /// The log line of an unanswered probe: an ALERT outside the reset window, expected inside it.
    public func unanswered(silence: Duration, expected: Bool) -> (Logger.Level, String) {
        let why = reason(silence: silence)
        if expected {
            return (.notice, "gateway silent during IB's reset window (expected): \(why); reconnecting")
        }
        return (.warning, "ALERT: the gateway holds the connection but stopped answering: \(why); treating it as lost and reconnecting")
    }

    /// `30 s`, `1.5 s`: a span in seconds, to the millisecond.
    package static func text(_ span: Duration) -> String {
        let milliseconds = span.components.seconds * 1000 + span.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }
}
