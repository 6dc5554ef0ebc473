/// A clock seen as elapsed time since the connection was created: the pure schedulers take `Duration`s, and this
/// maps them to the injected `Clock`'s instants.
struct ElapsedClock: Sendable {
    /// The time since creation.
    let now: @Sendable () -> Duration
    /// Sleeps until an elapsed time.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Wraps a clock whose durations are `Duration`. The system clocks get closures specialised for them: opened
    /// from an `any Clock`, the generic closures below read the clock through witness tables and runtime metadata
    /// lookups, several times per outbound frame (the rate limiter reads `now`).
    init(_ clock: any Clock<Duration>) {
        if let continuous = clock as? ContinuousClock {
            self.init(specialized: continuous)
        } else if let suspending = clock as? SuspendingClock {
            self.init(specialized: suspending)
        } else {
            self.init(specialized: clock)
        }
    }

    private init<C: Clock>(specialized clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleepUntil = { elapsed in try await clock.sleep(until: origin.advanced(by: elapsed), tolerance: nil) }
    }
}
