import Foundation

/// `BENCH_LATENCY_KEEP_AWAKE=N`: N busy-loop processes at the lowest priority (`nice -n 19`) for the duration of the
/// latency rows, so the vCPUs never enter an idle state. On a VM, waking an idle vCPU costs tens of microseconds and
/// dominates the tick-to-order path (docs/live-trading.md, *Latency*); this reproduces a host tuned for latency
/// (C-states off or `idle=poll`) on one that is not. The spinners take every spare cycle.
struct CPUKeepAwake {
    private var spinners: [Process] = []

    /// Starts the spinners (none when the variable is unset or 0).
    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let count = Int(environment["BENCH_LATENCY_KEEP_AWAKE"] ?? "") ?? 0
        for _ in 0..<max(count, 0) {
            let spinner = Process()
            spinner.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            spinner.arguments = ["nice", "-n", "19", "sh", "-c", "while :; do :; done"]
            try spinner.run()
            spinners.append(spinner)
        }
    }

    /// How many spinners run.
    var count: Int { spinners.count }

    /// Stops the spinners.
    func stop() {
        for spinner in spinners where spinner.isRunning { spinner.terminate() }
    }
}
