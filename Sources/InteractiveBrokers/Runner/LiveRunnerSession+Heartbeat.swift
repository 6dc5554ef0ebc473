import Logging
import Synchronization
import TWSClient
import TWSProtocol

/// What the event loop has taken: every input (the watchdog's progress, `LoopWatchdog`) and those from the
/// connection (bars, quotes, broker reports, state changes: the heartbeat's evidence). One word holds both — the
/// low half counts every input, the high half inbound ones — and only the loop writes it, so marking an input is a
/// relaxed load and a relaxed store (no read-modify-write) and no clock read on the bar path. A carry out of the low
/// half (every 2^32 inputs) looks like one more inbound input to the heartbeat: harmless (a probe a little later).
/// Were a second writer ever to mark concurrently, increments could be lost but the word would still change, which
/// is all either reader asks.
final class InboundActivity: Sendable {
    private let word = Atomic<UInt64>(0)
    /// The word when the loop last parked (`park`): equal to `word` while it is not running.
    private let parkedAt = Atomic<UInt64>(0)

    /// The loop took an input (`inbound`: from the connection). Called by the loop only.
    @inline(__always)
    func mark(inbound: Bool) {
        let value = word.load(ordering: .relaxed)
        word.store(value &+ (inbound ? 0x1_0000_0001 : 1), ordering: .relaxed)
    }

    /// The loop stopped taking inputs on purpose (between connections, at stop): the watchdog waits for its next
    /// input. Called by the loop's task only.
    func park() { parkedAt.store(word.load(ordering: .relaxed), ordering: .relaxed) }

    /// Inputs from the connection so far (the heartbeat's).
    var arrivals: UInt64 { word.load(ordering: .relaxed) >> 32 }

    /// The loop's progress (any change is an input taken) and whether it is parked (the watchdog's).
    var progress: (value: UInt64, parked: Bool) {
        let value = word.load(ordering: .relaxed)
        return (value, value == parkedAt.load(ordering: .relaxed))
    }
}

extension RunnerInput {
    /// Whether this input came from the connection (the heartbeat's evidence that the gateway answers).
    var isInbound: Bool {
        switch self {
        case .broker, .market, .quotes, .connectivity, .farm: true
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
