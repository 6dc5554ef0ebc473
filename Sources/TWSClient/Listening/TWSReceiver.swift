import TWSProtocol

/// A consumer the connection calls as it reads, on its own isolation and in the order the messages arrived: nothing
/// (no task, no stream) between the socket's read and the consumer.
///
/// For a consumer that hands each value on at once, such as a trading session's inbox: `receive` and `end` run inside
/// the connection's handling of a message, so they must not block and cannot call the connection. The stream forms
/// (`orderEvents()`, `realTimeBars(contract:whatToShow:useRTH:)`, …) are receivers that yield into a stream.
///
/// ```swift
/// let bars = try await connection.realTimeBars(contract: aapl, into: TWSReceiver(
///     receive: { item in inbox.yield(item) }, end: { error in inbox.finish(error) }))
/// …
/// bars.cancel()   // cancelRealTimeBars
/// ```
public struct TWSReceiver<Value: Sendable>: Sendable {
    /// Takes each value.
    public let receive: @Sendable (Value) -> Void
    /// Called once when nothing more comes: `nil` when the server ended it, else why (a refusal, the connection's
    /// close; after the consumer's own `cancel()` of a subscription, `TWSRequestError.cancelled`; a cancelled
    /// `listen(_:)` is not called again).
    public let end: @Sendable ((any Error)?) -> Void

    /// Creates a receiver.
    public init(receive: @escaping @Sendable (Value) -> Void, end: @escaping @Sendable ((any Error)?) -> Void) {
        self.receive = receive
        self.end = end
    }

    /// A receiver that yields into `continuation` and finishes it.
    static func yielding(into continuation: AsyncThrowingStream<Value, any Error>.Continuation) -> TWSReceiver {
        TWSReceiver(receive: { continuation.yield($0) }, end: { continuation.finish(throwing: $0) })
    }
}

/// A subscription served into a `TWSReceiver`: `cancel()` stops it (sends its cancel message unless it already ended).
public struct TWSSubscription: Sendable {
    let stop: @Sendable () -> Void

    /// Stops the subscription; safe to call more than once, and after it ended.
    public func cancel() { stop() }
}

/// Everything a connection hears that is not the answer to a request: what a trading session listens to
/// (`TWSConnection.listen(_:)`).
public enum TWSConnectionEvent: Sendable {
    /// The first event: the connection's state and the data farms' last reports as they stand when listening began.
    case listening(TWSConnectionState, farms: [TWSFarmReport])
    /// An order event (`orderEvents()`).
    case order(TWSOrderEvent)
    /// A change of the connection's state (`stateChanges()`).
    case state(TWSConnectionState)
    /// A notice not tied to a request (`notices()`).
    case notice(TWSNotice)
}
