import Foundation

/// How often this machine takes the CPU away from a thread that never blocks: a thread reads the monotonic clock in
/// a tight loop for a few seconds (`BENCH_LATENCY_STALL_SECONDS`, default 3) and counts the gaps between two reads
/// of 10 µs or more. On a VM these are mostly the guest's timer tick (250 Hz here) and the exits it causes. A
/// stretch of D µs of work meets one with a probability of about rate × D, which sets a floor under the p99 of any
/// span that long: it is the host's share, not the bot's.
struct HostStalls: Sendable {
    /// Gaps of 10–20 µs, 20–50 µs and 50 µs or more, per second.
    var perSecond: (small: Double, medium: Double, large: Double)
    /// The share of the time the thread lost in gaps of 10 µs or more.
    var lostFraction: Double

    var total: Double { perSecond.small + perSecond.medium + perSecond.large }

    /// Measures on a thread of its own (not a task's: it never yields).
    static func measure(seconds: Double) async -> HostStalls {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: spin(seconds: seconds))
            }.start()
        }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func spin(seconds: Double) -> HostStalls {
        let start = now()
        let end = start + UInt64(seconds * 1e9)
        var previous = start
        var counts = (0, 0, 0)
        var lost: UInt64 = 0
        while previous < end {
            let time = now()
            let gap = time - previous
            if gap >= 10_000 {
                lost += gap
                if gap < 20_000 { counts.0 += 1 } else if gap < 50_000 { counts.1 += 1 } else { counts.2 += 1 }
            }
            previous = time
        }
        let elapsed = Double(previous - start) / 1e9
        return HostStalls(
            perSecond: (Double(counts.0) / elapsed, Double(counts.1) / elapsed, Double(counts.2) / elapsed),
            lostFraction: Double(lost) / 1e9 / elapsed)
    }

    /// "412/s (276 of 10–20 µs, 130 of 20–50, 6 of 50+), 0.9 % of the time; a 35 µs span meets one 1.4 % of the time"
    func text(span microseconds: Double) -> String {
        let hit = total * microseconds / 1e6
        return String(
            format: "%.0f/s (%.0f of 10–20 µs, %.0f of 20–50, %.0f of 50+), %.2f %% of the time; "
                + "a %.0f µs span meets one %.1f %% of the time",
            total, perSecond.small, perSecond.medium, perSecond.large, lostFraction * 100, microseconds, hit * 100)
    }
}
