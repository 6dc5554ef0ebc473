import LiveSession
import TradingModel

/// Which alerts go out, pure: a storm of one kind (an 1100 flood, a connection flapping) is one alert, then at most
/// one per `cooldown` carrying the count held back and the last one's text; a resolving alert (restored, agree
/// again) goes out when the operator was told of an open alert of its kind, and is counted like the rest when that
/// alert itself was held back. Below `minimum` nothing goes out, resolutions of sent alerts and the kinds named in
/// `alwaysSent` excepted.
public struct AlertCoalescer: Sendable {
    public let minimum: OperatorAlert.Severity
    public let cooldown: TimeSpan
    /// Kinds sent whatever their severity (named in `alerts.routes`).
    public let alwaysSent: Set<String>
    private var kinds: [String: KindState] = [:]

    private struct KindState: Sendable {
        var lastSent: Timestamp?
        var open = false
        var held = 0
        var lastHeld: OperatorAlert?
        /// The first held alerts themselves (`stopLimit` + 1 at most), sent one by one at the stop.
        var heldAlerts: [OperatorAlert] = []

        mutating func hold(_ alert: OperatorAlert) {
            held += 1
            lastHeld = alert
            if heldAlerts.count <= AlertCoalescer.stopLimit { heldAlerts.append(alert) }
        }

        mutating func clearHeld() {
            held = 0
            lastHeld = nil
            heldAlerts = []
        }
    }

    /// At the stop, up to this many held alerts of a kind go out one by one (four fills are four messages); more
    /// are one summary.
    public static let stopLimit = 5

    /// Creates a coalescer.
    public init(minimum: OperatorAlert.Severity, cooldown: TimeSpan, alwaysSent: Set<String> = []) {
        self.minimum = minimum
        self.cooldown = cooldown
        self.alwaysSent = alwaysSent
    }

    /// What to send for `alert`, arriving at `now`.
    public mutating func admit(_ alert: OperatorAlert, at now: Timestamp) -> [OperatorAlert] {
        var state = kinds[alert.kind] ?? KindState()
        defer { kinds[alert.kind] = state }
        if alert.resolves {
            guard state.open else {
                if state.held > 0 { state.hold(alert) }
                return []
            }
            state.open = false
            var out = alert
            if state.held > 0 { out.text += " (\(state.held) more alerts of this kind were held back meanwhile)" }
            state.clearHeld()
            return [out]
        }
        guard alert.severity >= minimum || alwaysSent.contains(alert.kind) else { return [] }
        if let last = state.lastSent, now - last < cooldown {
            state.hold(alert)
            return []
        }
        var out = alert
        if state.held > 0 { out.text += " (and \(state.held) more of this kind since the last message)" }
        state.lastSent = now
        state.open = true
        state.clearHeld()
        return [out]
    }

    /// Alerts held back whose cooldown ended with nothing new: one summary each, so nothing is lost silently.
    public mutating func flush(at now: Timestamp) -> [OperatorAlert] {
        var out: [OperatorAlert] = []
        for (kind, var state) in kinds.sorted(by: { $0.key < $1.key }) {
            guard state.held > 0, let last = state.lastSent, now - last >= cooldown, var alert = state.lastHeld else { continue }
            alert.text = "\(state.held) more \(kind) alerts; the last: \(alert.text)"
            state.open = !alert.resolves
            state.lastSent = now
            state.clearHeld()
            kinds[kind] = state
            out.append(alert)
        }
        return out
    }

    /// Everything still held back, whatever the cooldown, for the bot's stop (nothing is sent after it): a kind's
    /// held alerts one by one up to `stopLimit`, else one summary with the count and the last.
    public mutating func flushAll() -> [OperatorAlert] {
        var out: [OperatorAlert] = []
        for (kind, var state) in kinds.sorted(by: { $0.key < $1.key }) {
            guard state.held > 0, let last = state.lastHeld else { continue }
            if state.held <= Self.stopLimit, state.heldAlerts.count == state.held {
                out += state.heldAlerts.map { alert in
                    var alert = alert
                    alert.text += " (held back by the cooldown, sent at the stop)"
                    return alert
                }
            } else {
                var summary = last
                summary.text = "\(state.held) more \(kind) alerts held back by the cooldown; the last: \(last.text)"
                out.append(summary)
            }
            state.clearHeld()
            kinds[kind] = state
        }
        return out
    }
}
