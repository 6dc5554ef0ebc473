import TWSClient

/// Subscriptions of one feed served into `TWSReceiver`s (a bar line or a quote line per instrument): their values go
/// wherever the receivers hand them as the connection reads them; this only follows how the lines end.
///
/// ```swift
/// let lines = ReceiverLines()
/// var subscriptions: [TWSSubscription] = []
/// subscriptions.append(try await connection.realTimeBars(contract: c, into: lines.receiver { inbox.yield($0) }))
/// try await lines.wait(for: subscriptions)   // a line's failure, every line's end, or this task's cancellation
/// ```
struct ReceiverLines: Sendable {
    private let ends = AsyncStream<(any Error)?>.makeStream()

    /// A receiver whose values go to `receive` and whose end this follows.
    func receiver<Value: Sendable>(_ receive: @escaping @Sendable (Value) -> Void) -> TWSReceiver<Value> {
        let ends = self.ends.continuation
        return TWSReceiver(receive: receive, end: { ends.yield($0) })
    }

    /// Waits until a line fails, every line has ended, or the calling task is cancelled; then cancels every line (a
    /// line that already ended is not cancelled twice: its cancel does nothing).
    /// - Throws: the first failure.
    func wait(for lines: [TWSSubscription]) async throws {
        guard !lines.isEmpty else { return }
        defer { for line in lines { line.cancel() } }
        var open = lines.count
        var failure: (any Error)?
        let ends = self.ends
        await withTaskCancellationHandler {
            for await end in ends.stream {
                if let end {
                    failure = end
                    break
                }
                open -= 1
                if open <= 0 { break }
            }
        } onCancel: {
            ends.continuation.finish()
        }
        if let failure { throw failure }
    }

    /// Cancels `lines` after a failure to subscribe the rest.
    static func cancel(_ lines: [TWSSubscription]) {
        for line in lines { line.cancel() }
    }
}
