/// A clock seen as elapsed time since the connection was created: the pure schedulers take `Duration`s, and this
/// maps them to the injected `Clock`'s instants.
struct ElapsedClock: Sendable {
    /// The time since creation.
    let now: @Sendable () -> Duration
    /// Sleeps until an elapsed time.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Wraps any clock whose durations are `Duration` (an `any Clock<Duration>` is opened implicitly).
    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleepUntil = { elapsed in try await clock.sleep(until: origin.advanced(by: elapsed), tolerance: nil) }
    }
}
