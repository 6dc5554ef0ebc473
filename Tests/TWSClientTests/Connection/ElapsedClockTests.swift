import Testing

@testable import TWSClient

/// `ElapsedClock` over the system clocks: elapsed time starts
/// at zero, agrees with the clock's own measure, and `sleepUntil` wakes no earlier than asked.
@Suite struct ElapsedClockTests {
    @Test(arguments: [0, 1])
    func elapsedTimeAgreesWithTheClock(kind: Int) async throws {
        let clock: any Clock<Duration> = kind == 0 ? ContinuousClock() : SuspendingClock()
        let reference = ContinuousClock.now
        let elapsed = ElapsedClock(clock)
        let first = elapsed.now()
        #expect(first >= .zero && first < .milliseconds(50))
        try await Task.sleep(for: .milliseconds(20))  // the system clocks are what this test is about
        let second = elapsed.now()
        let measured = ContinuousClock.now - reference
        #expect(second >= .milliseconds(20) && second <= measured, "\(second) against \(measured)")
        let target = second + .milliseconds(10)
        try await elapsed.sleepUntil(target)
        #expect(elapsed.now() >= target)
    }

    /// A clock that is neither system clock goes through the generic path and is still read, not the wall.
    @Test func aTestClockIsReadThroughItsInstants() {
        let manual = StepClock()
        let elapsed = ElapsedClock(manual)
        #expect(elapsed.now() == .zero)
        manual.advance(.seconds(3))
        #expect(elapsed.now() == .seconds(3))
    }
}

/// A clock that moves only when told (no sleeping needed here).
private final class StepClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private var current = Instant(offset: .zero)
    var now: Instant { current }
    var minimumResolution: Duration { .nanoseconds(1) }
    func advance(_ duration: Duration) { current = current.advanced(by: duration) }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}
