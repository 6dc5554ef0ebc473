import Logging
import Synchronization
import TWSClient

/// How many inputs the event loop has taken from the connection (bars, quotes, broker reports, state changes).
/// The loop counts, the heartbeat task watches the count change: one relaxed atomic increment per input and no
/// clock read on the bar path.
final class InboundActivity: Sendable {
    private let count = Atomic<UInt64>(0)

    /// Something arrived.
    func mark() { count.wrappingAdd(1, ordering: .relaxed) }

    /// Inputs so far.
    var arrivals: UInt64 { count.load(ordering: .relaxed) }
}

extension RunnerInput {
    /// Whether this input came from the connection (the heartbeat's evidence that the gateway answers).
    var isInbound: Bool {
        switch self {
        case .broker, .market, .quotes, .connectivity: true
        case .tick, .stop, .ended, .drained, .feedEnded, .executionsSynced: false
        }
    }
}

// The health probe (`Heartbeat`): a connection that holds its socket but stops answering is noticed.
extension Session {
    /// Starts the heartbeat of one connection's stretch (when `connection.heartbeat` is on). After `interval` of
    /// silence it sends reqCurrentTime; no answer within `timeout` logs an ALERT (expected inside IB's reset window)
    /// and ends the stretch as a lost connection (`.ended`), so the reconnect path (resynchronization, back-fill)
    /// takes over. It ends quietly once the connection is closed (someone else reports that) or the task is
    /// cancelled.
    func startHeartbeat(
        _ connection: TWSConnection, generation: Int, input: RunnerInbox,
        group: inout ThrowingTaskGroup<Void, any Error>
    ) {
        let heartbeat = configuration.resilience.heartbeat
        guard heartbeat.isEnabled else { return }
        let activity = self.activity
        let logger = self.logger
        let resilience = configuration.resilience
        group.addTask {
            // Silence is measured from when the count was last seen to change (at most `pollStep` late); the new
            // connection's handshake counts as heard.
            var seen = activity.arrivals
            var heard = ContinuousClock.now
            // A closed connection ends the task at its next wake-up (a reconnect's new connection has its own).
            while !Task.isCancelled, await connection.session != nil {
                let now = ContinuousClock.now
                if activity.arrivals != seen {
                    seen = activity.arrivals
                    heard = now
                }
                let silence = heard.duration(to: now)
                if let wait = heartbeat.wait(afterSilence: silence) {
                    try? await Task.sleep(for: min(wait, heartbeat.pollStep))
                    continue
                }
                if await HeartbeatProbe.answers(connection, within: heartbeat.timeout) {
                    seen = activity.arrivals
                    heard = .now
                    logger.debug("heartbeat answered after \(silence) of silence")
                    resilience.observer?(.heartbeatAnswered)
                    continue
                }
                // Closed meanwhile (a disconnect, a stop): the socket's end is reported by its own path.
                guard !Task.isCancelled, await connection.session != nil else { return }
                let expected = resilience.resetSchedule?.contains(resilience.clock()) ?? false
                let (level, text) = heartbeat.unanswered(silence: silence, expected: expected)
                logger.log(level: level, "\(text)")
                resilience.observer?(.heartbeatUnanswered(expected: expected))
                input.yield(.ended(generation, heartbeat.reason(silence: silence)))
                return
            }
        }
    }
}

/// The heartbeat's probe.
enum HeartbeatProbe {
    /// reqCurrentTime with a timeout: `true` when answered in time (an error answer is an answer too: the gateway
    /// is alive).
    static func answers(_ connection: TWSConnection, within timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { probe in
            probe.addTask {
                do throws(TWSRequestError) {
                    _ = try await connection.currentTime()
                    return true
                } catch {
                    // A timeout of the client's own or a closed connection is no answer; a TWS error is one.
                    switch error {
                    case .timedOut, .cancelled, .notConnected, .connectionClosed: return false
                    default: return true
                    }
                }
            }
            probe.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let answered = await probe.next() ?? false
            probe.cancelAll()
            return answered
        }
    }
}
