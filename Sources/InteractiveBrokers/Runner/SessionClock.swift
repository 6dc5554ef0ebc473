import Foundation
import TradingModel

/// The one clock of a live session: what its timers sleep on (the tick, wake-ups, timeouts, back-off, `--duration`,
/// the connection's rate limiter) and the time stamped on its inputs. In production the wall clock; in tests and
/// `ibtrader sandbox` a `VirtualLoop`'s clock, whose time moves only when the session waits.
public struct SessionClock: Sendable {
    /// What the session's waits sleep on.
    public let sleeper: any Clock<Duration>
    /// The time now (inputs, journal rows, the reset window, the grace period).
    public let now: @Sendable () -> Timestamp

    /// A clock whose timestamps start at `start` and move with `clock`.
    /// - Parameters:
    ///   - clock: what the session sleeps on.
    ///   - start: the time stamped at `clock`'s present instant.
    public init<C: Clock>(_ clock: C, startingAt start: Timestamp) where C.Duration == Duration {
        let origin = clock.now
        sleeper = clock
        now = { start + TimeSpan(origin.duration(to: clock.now)) }
    }

    /// A clock of explicit parts (tests that freeze or script the time stamped on inputs).
    public init(sleeper: any Clock<Duration>, now: @escaping @Sendable () -> Timestamp) {
        self.sleeper = sleeper
        self.now = now
    }

    /// The wall clock: `ContinuousClock` for waits, the system's UTC time for timestamps.
    public static var wall: SessionClock {
        SessionClock(sleeper: ContinuousClock(), now: { Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9)) })
    }

    /// Sleeps for `duration` on the session's clock.
    public func sleep(for duration: Duration) async throws {
        try await sleeper.sleep(for: duration)
    }
}
