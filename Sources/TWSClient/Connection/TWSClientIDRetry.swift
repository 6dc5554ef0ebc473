import TWSProtocol

/// The pauses between connects while TWS answers 326 (client id in use) before the session is ready: 25 ms, doubling
/// to at most 400 ms, until their sum would pass `limit` (`TWSConnectionConfiguration.clientIDInUseRetry`).
public struct TWSClientIDRetry: Sendable, Equatable {
    /// The longest time the pauses add up to.
    public let limit: Duration
    /// The pauses taken so far, added up.
    public private(set) var waited: Duration = .zero
    private var next: Duration = .milliseconds(25)

    /// - Parameter limit: the longest total of pauses; zero or less for none.
    public init(limit: Duration) {
        self.limit = limit
    }

    /// The pause before the next connect, or `nil` when the next pause would pass the limit (then refuse).
    public mutating func nextPause() -> Duration? {
        guard waited < limit else { return nil }
        let pause = min(next, limit - waited)
        waited += pause
        next = min(next * 2, .milliseconds(400))
        return pause
    }
}
