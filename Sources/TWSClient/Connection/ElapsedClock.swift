#if canImport(Glibc)
    import Glibc
#endif

/// A clock seen as elapsed time since the connection was created: the pure schedulers take `Duration`s, and this
/// maps them to the injected `Clock`'s instants.
struct ElapsedClock: Sendable {
    /// The time since creation.
    let now: @Sendable () -> Duration
    /// Sleeps until an elapsed time.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    /// Wraps a clock whose durations are `Duration`. The system clocks get closures specialised for them: opened
    /// from an `any Clock`, the generic closures below read the clock through witness tables and runtime metadata
    /// lookups, several times per outbound frame (the rate limiter reads `now`). On Linux their `now` reads the
    /// kernel clock the standard library reads for them (`CLOCK_BOOTTIME`, `CLOCK_MONOTONIC`) directly: even
    /// specialised, `ContinuousClock.now` and `duration(to:)` are calls into the runtime on every order.
    init(_ clock: any Clock<Duration>) {
        if let continuous = clock as? ContinuousClock {
            #if os(Linux)
                self.init(kernelClock: CLOCK_BOOTTIME, sleepingOn: continuous)
            #else
                self.init(specialized: continuous)
            #endif
        } else if let suspending = clock as? SuspendingClock {
            #if os(Linux)
                self.init(kernelClock: CLOCK_MONOTONIC, sleepingOn: suspending)
            #else
                self.init(specialized: suspending)
            #endif
        } else {
            self.init(specialized: clock)
        }
    }

    private init<C: Clock>(specialized clock: C) where C.Duration == Duration {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleepUntil = { elapsed in try await clock.sleep(until: origin.advanced(by: elapsed), tolerance: nil) }
    }

    #if os(Linux)
        /// `now` from `clock_gettime(kernelClock)`, which must be the clock `C` reads, so that sleeping until
        /// `origin + elapsed` on `C` and the elapsed time read here agree.
        private init<C: Clock>(kernelClock: clockid_t, sleepingOn clock: C) where C.Duration == Duration {
            let origin = clock.now
            let start = Self.nanoseconds(kernelClock)
            now = { .nanoseconds(Self.nanoseconds(kernelClock) &- start) }
            sleepUntil = { elapsed in try await clock.sleep(until: origin.advanced(by: elapsed), tolerance: nil) }
        }

        private static func nanoseconds(_ clock: clockid_t) -> Int64 {
            var time = timespec()
            clock_gettime(clock, &time)
            return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
        }
    #endif
}
