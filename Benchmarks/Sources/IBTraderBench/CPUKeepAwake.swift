import Foundation
import Synchronization

/// `BENCH_LATENCY_KEEP_AWAKE=N`: N busy-loop threads at the lowest priority (nice 19) for the duration of the latency
/// rows, so the vCPUs never enter an idle state. On a VM, waking an idle vCPU costs tens of microseconds and
/// dominates the tick-to-order path (docs/live-trading.md, *Latency*); this imitates a host tuned for latency
/// (C-states off or `idle=poll`) on one that is not. The spinners take every spare cycle; being threads of the
/// benchmark, they end with it whatever happens.
final class CPUKeepAwake: Sendable {
    private let running = Atomic<Bool>(true)
    /// How many spinners run.
    let count: Int

    /// Starts the spinners (none when the variable is unset or 0).
    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        count = max(Int(environment["BENCH_LATENCY_KEEP_AWAKE"] ?? "") ?? 0, 0)
        for _ in 0..<count {
            let thread = Thread { [self] in
                // Linux keeps a nice value per thread: `who` 0 is the calling thread only, not the benchmark.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
                while running.load(ordering: .relaxed) {}
            }
            thread.start()
        }
    }

    /// Stops the spinners.
    func stop() { running.store(false, ordering: .relaxed) }
}
