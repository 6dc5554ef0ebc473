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
    }

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
                if state.held > 0 {
                    state.held += 1
                    state.lastHeld = alert
                }
                return []
            }
            state.open = false
            var out = alert
            if state.held > 0 { out.text += " (\(state.held) more alerts of this kind were held back meanwhile)" }
            state.held = 0
            state.lastHeld = nil
            return [out]
        }
        guard alert.severity >= minimum || alwaysSent.contains(alert.kind) else { return [] }
        if let last = state.lastSent, now - last < cooldown {
            state.held += 1
            state.lastHeld = alert
            return []
        }
        var out = alert
        if state.held > 0 { out.text += " (and \(state.held) more of this kind since the last message)" }
        state.lastSent = now
        state.open = true
        state.held = 0
        state.lastHeld = nil
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
            state.held = 0
            state.lastHeld = nil
            kinds[kind] = state
            out.append(alert)
        }
        return out
    }
}
