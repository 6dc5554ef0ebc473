import TWSProtocol

/// A clock seen as elapsed time since the connection was created: the pure schedulers take `Duration`s, and this
/// maps them to the injected `Clock`'s instants.
struct ElapsedClock: Sendable {
    /// The time since creation.
    let now: @Sendable () -> Duration
    /// Sleeps until an elapsed time.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Wraps a clock whose durations are `Duration`.
    init(_ clock: any Clock<Duration>) {
        self.init(opened: clock)
    }

    private init<C: Clock>(opened clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleepUntil = { elapsed in try await clock.sleep(until: origin.advanced(by: elapsed), tolerance: nil) }
    }
}
