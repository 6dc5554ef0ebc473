/// The event loop's inputs in arrival order: every producer (the feeds, the broker's events, the tick, the stop
/// request) yields here, and the loop, then the drain after stop, consume them one at a time.
final class RunnerInbox: Sendable {
    /// The inputs (one consumer: the loop, then the drain after stop).
    let stream: AsyncStream<RunnerInput>
    private let continuation: AsyncStream<RunnerInput>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: RunnerInput.self)
    }

    /// Queues an input.
    func yield(_ input: RunnerInput) { continuation.yield(input) }

    /// Ends the inputs.
    func finish() { continuation.finish() }
}
