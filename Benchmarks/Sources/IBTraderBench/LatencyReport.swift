import Foundation
import InteractiveBrokers
import Storage

/// The rows of `ibtrader-bench latency`: the loopback baseline, then the bot without its order journal, with it at
/// `ibtrader run`'s default durability (`NORMAL`: no fsync per commit, crash-safe at once, synced by the 1-second
/// checkpoint) and at `FULL` (an fsync per commit). The journal writes each intent before the order is sent, by
/// design.
/// `BENCH_LATENCY_CPU_WAKE=N` holds the CPU wake-up latency at N µs (`CPUWakeLatencyRequest`, root only).
/// `BENCH_LATENCY_SAMPLES` (default 10 000) sets the samples per configuration, after 500 warm-up bars;
/// `BENCH_LATENCY_ONLY=TEXT` runs only the rows whose label contains TEXT; `BENCH_LATENCY_KEEP_AWAKE=N` runs N
/// lowest-priority busy loops meanwhile (`CPUKeepAwake`). `BENCH_LATENCY_BUSY_CPU=N` pins the busy-polling thread
/// to CPU N (run the bench under `taskset -c` with the other CPUs). `BENCH_LATENCY_BURST=N` sends the bars in bursts
/// of N, 1 ms apart, and adds rows for each burst's first bar (cold) and the others (warm). The first bot row queues every bar for the
/// runner's loop (`handlesBarsOnArrival = false`, the third session's path), the second runs on the shared thread
/// pools (`usesSessionThread = false`); the others handle bars on arrival on the session thread, as `ibtrader run`.
enum LatencyReport {
    static func table() async throws -> BenchTable {
        var table = BenchTable()
        let samples = Int(ProcessInfo.processInfo.environment["BENCH_LATENCY_SAMPLES"] ?? "") ?? 10_000
        let warmup = 500
        let awake = CPUKeepAwake()
        defer { awake.stop() }
        // BENCH_LATENCY_CPU_WAKE=N: hold /dev/cpu_dma_latency at N µs for the whole run, as `ibtrader run` does with
        // `latency.cpuWakeLatency: N` (needs root).
        var wake: CPUWakeLatencyRequest?
        if let text = ProcessInfo.processInfo.environment["BENCH_LATENCY_CPU_WAKE"], let value = Int32(text) {
            do {
                wake = try CPUWakeLatencyRequest(microseconds: value)
                table.add(
                    "CPU wake-up latency held", "≤ \(value) µs",
                    "BENCH_LATENCY_CPU_WAKE: /dev/cpu_dma_latency (latency.cpuWakeLatency), idle CPUs poll")
            } catch {
                table.add("CPU wake-up latency held", "no", "BENCH_LATENCY_CPU_WAKE: \(error)")
            }
        }
        defer { wake?.release() }
        if awake.count > 0 {
            table.add(
                "CPUs kept awake", "\(awake.count) spinner(s)",
                "BENCH_LATENCY_KEEP_AWAKE: busy loops at nice 19 keep the vCPUs out of idle states (a tuned host)")
        }
        let baseline = LatencyDistribution(
            nanoseconds: try LoopbackBaseline.roundTrips(count: samples + warmup).dropFirst(warmup).map { Int64($0) })
        table.add(
            "loopback TCP round trip, 2 threads (µs)", baseline.text,
            "p50 / p90 / p99 / p99.9 / max of \(baseline.count): 120-byte frame there and back, blocking sockets, "
                + "TCP_NODELAY: the kernel's share of the two hops below")
        let delivery = LatencyDistribution(nanoseconds: Array(try KernelDelivery.samples(count: 3_100).dropFirst(100)))
        table.add(
            "loopback delivery: kernel receive stamp → recvmsg return (µs)", delivery.text,
            "p50 / p90 / p99 / p99.9 / max of \(delivery.count) frames 1 ms apart, read by a thread polling recvmsg "
                + "without blocking (KernelDelivery): the kernel's part of the stamped rows' wait in the socket")
        let stallSeconds = Double(ProcessInfo.processInfo.environment["BENCH_LATENCY_STALL_SECONDS"] ?? "") ?? 3
        let stalls = await HostStalls.measure(seconds: max(stallSeconds, 0.1))
        table.add(
            "host stalls ≥ 10 µs seen by a spinning thread", stalls.text(span: 35),
            "HostStalls: a thread reading the clock for \(stallSeconds) s; on a VM mostly the guest's timer tick and its "
                + "exits. A floor under the p99 of any span that long, whatever the bot does")
        /// journal, session thread, bars on arrival, busy-poll, kept warm, label
        let journals: [(OrderJournal.Durability?, Bool, Bool, Bool, Bool, String)] = [
            (nil, true, false, false, false, "journal off, bars queued for the loop (third session's path)"),
            (nil, false, true, false, false, "journal off, shared thread pools"),
            (nil, true, true, false, false, "journal off"),
            (.processCrashSafe, true, true, false, false, "journal on (NORMAL, ibtrader run's default)"),
            (.full, true, true, false, false, "journal on (FULL, an fsync per order group)"),
            (nil, true, true, true, false, "journal off, busy-poll"),
            (.processCrashSafe, true, true, true, false, "journal on (NORMAL), busy-poll"),
            (.full, true, true, true, false, "journal on (FULL), busy-poll"),
            (nil, true, true, true, true, "journal off, busy-poll, kept warm"),
            (.processCrashSafe, true, true, true, true, "journal on (NORMAL), busy-poll, kept warm"),
        ]
        let only = ProcessInfo.processInfo.environment["BENCH_LATENCY_ONLY"]
        let burst = max(Int(ProcessInfo.processInfo.environment["BENCH_LATENCY_BURST"] ?? "") ?? 0, 0)
        for (journal, sessionThread, barsOnArrival, busyPoll, keepWarm, label) in journals
        where only.map({ label.contains($0) }) ?? true {
            let run = try await LatencyBenchmark.run(
                samples: samples, warmup: warmup, journal: journal, sessionThread: sessionThread,
                barsOnArrival: barsOnArrival, busyPoll: busyPoll, keepWarm: keepWarm, burst: burst)
            table.add(
                "bar frame out → placeOrder frame in, \(label) (µs)", run.total.text,
                "p50 / p90 / p99 / p99.9 / max of \(run.total.count) bars (\(run.missing) unmatched), after \(warmup) "
                    + "warm-up bars; simulator → proxy → bot over loopback, \(String(format: "%.0f", run.wallSeconds)) s; "
                    + "\(run.barsOnArrival) of \(run.botBars) bars handled on arrival"
                    + (keepWarm ? ", \(run.rehearsals) rehearsals" : ""))
            table.add(
                "  bar frame out → strategy sees the bar (µs)", run.inbound.text,
                "kernel hop, NIO read, TWSClient decode and routing, feed (and the runner's input stream when queued)")
            table.add(
                "  strategy → placeOrder frame in (µs)", run.outbound.text,
                "engine, risk, IBBroker\(journal == nil ? "" : ", journal write"), encode, NIO write, kernel hop")
            table.add(
                "  in the bot ≈ total − loopback p50 (µs)",
                String(format: "p50 %.1f, p99 %.1f", run.total.p50 - baseline.p50, run.total.p99 - baseline.p50),
                "estimate: the two kernel hops (one loopback round trip, p50) taken out; goal p99 < 50 µs")
            table.add(
                "  in the bot, stamped by the bot (µs)", run.tickToOrder.detailedText(goal: 50),
                "LiveRunSummary.tickToOrder: the bar's bytes received (busy-poll: the kernel's SO_TIMESTAMPNS; "
                    + "otherwise NIO's read) → its placeOrder frame handed to the kernel (just before send(2)), "
                    + "warm-up bars included; goal p99 < 50 µs")
            if run.readToOrder != run.tickToOrder {
                table.add(
                    "  in the bot, from the bot's read (µs)", run.readToOrder.detailedText(goal: 50),
                    "LiveRunSummary.readToOrder: the same bars from recv(2)'s return "
                        + "(without their wait in the socket)")
            }
            if run.socketWait.count > 0 {
                table.add(
                    "  the same bars' wait in the socket (µs)", run.socketWait.detailedText(goal: 50),
                    "LiveRunSummary.socketWait: kernel receive stamp → the bot's read; compare the loopback delivery "
                        + "row (the kernel alone): the rest is the bot's own delay in reading")
            }
            if run.pollDelay.count > 0 {
                table.add(
                    "  the bot's share of that wait, at most (µs)", run.pollDelay.detailedText(goal: 50),
                    "LiveRunSummary.pollDelay: the start of the bot's last empty read → the return of the read that "
                        + "took the bar (that recvmsg included: one that returns data takes 4–6 µs on this VM); the "
                        + "bytes became readable in between")
            }
            if let first = run.burstFirst, let rest = run.burstRest {
                table.add(
                    "  first bar of a burst, after 1.2 s quiet (µs)", first.text,
                    "bursts of \(burst) bars 1 ms apart: the path with cold caches")
                table.add(
                    "  bars 1 ms after the one before (µs)", rest.text,
                    "the same path with its code and data still cached; in the bot: "
                        + String(format: "p50 %.1f, p99 %.1f", rest.p50 - baseline.p50, rest.p99 - baseline.p50))
            }
        }
        return table
    }
}
