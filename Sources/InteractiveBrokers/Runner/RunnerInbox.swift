import Synchronization

/// The event loop's inputs in arrival order, and whether the loop is waiting for one.
///
/// Why the gate: a bar may be handled on arrival, on the connection's actor, by the synchronous bar path
/// (`LiveBarPath`) instead of travelling through the stream to the loop's task — one task wake-up and every actor
/// hop fewer between the bar and its order (docs/live-trading.md, Latency). That is only correct while the loop
/// waits with nothing queued: the bar is then the next input anyway, and no engine step of the loop is suspended
/// halfway (an `await` inside a step). Every producer yields through here, so the count of queued inputs is exact.
final class RunnerInbox: Sendable {
    private struct Gate {
        var queued = 0
        var waiting = false
        var claimed = false
    }

    /// The inputs (one consumer: the loop, then the drain after stop).
    let stream: AsyncStream<RunnerInput>
    private let continuation: AsyncStream<RunnerInput>.Continuation
    private let gate = Mutex(Gate())

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: RunnerInput.self)
    }

    /// Queues an input.
    func yield(_ input: RunnerInput) {
        gate.withLock { gate in
            // Counted and yielded under the lock, so `claim` never sees an input yielded but not counted.
            gate.queued += 1
            continuation.yield(input)
        }
    }

    /// Ends the inputs.
    func finish() { continuation.finish() }

    /// The next input. While waiting for it with `allowsBarPath`, bars may be handled on arrival (`claim`).
    func next(_ iterator: inout AsyncStream<RunnerInput>.Iterator, allowsBarPath: Bool) async -> RunnerInput? {
        if allowsBarPath { gate.withLock { $0.waiting = true } }
        let input = await iterator.next()
        gate.withLock { gate in
            gate.waiting = false
            if input != nil { gate.queued -= 1 }
        }
        return input
    }

    /// Takes the loop's place for one bar: only while the loop waits and nothing is queued. `release()` after.
    func claim() -> Bool {
        gate.withLock { gate in
            guard gate.waiting, gate.queued == 0, !gate.claimed else { return false }
            gate.claimed = true
            return true
        }
    }

    /// Gives the loop's place back.
    func release() { gate.withLock { $0.claimed = false } }
}
