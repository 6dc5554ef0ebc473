import Foundation
import Storage

/// The rows of `ibtrader-bench latency`, one run: the loopback round trip (the floor both clients pay), ib_async
/// 2.1.0 (no journal), IBTrader without its journal and with it at `ibtrader run`'s default (NORMAL), each through
/// the same timestamping proxy; then the ratios issue 41's goal is stated in (journal on: ≥ 2× ib_async at p50, no
/// slower at p99; quiet p99 < 1 ms), quiet and again beside a CPU-bound process (`BENCH_LATENCY_BUSY=off`: quiet
/// only). `BENCH_LATENCY_SAMPLES` (default 2,000) bars per row, in `BENCH_LATENCY_ROUNDS` (default 4) turns with the
/// other clients, each after 100 warm-up bars; the Python is
/// `IBTRADER_PYTHON`, else the repository's `.venv` (`scripts/setup-python.sh`).
enum LatencyReport {
    static func table(root: URL) async throws -> BenchTable {
        var table = BenchTable()
        let samples = Int(ProcessInfo.processInfo.environment["BENCH_LATENCY_SAMPLES"] ?? "") ?? 2_000
        let warmup = 100
        let baseline = LatencyDistribution(
            nanoseconds: try LoopbackBaseline.roundTrips(count: samples + warmup).dropFirst(warmup).map { Int64($0) })
        table.add(
            "loopback TCP round trip (µs)", baseline.text,
            "p50 / p90 / p99 / p99.9 / max of \(baseline.count): 120-byte frame there and back, TCP_NODELAY: the "
                + "kernel's share, paid by both clients")
        let python =
            ProcessInfo.processInfo.environment["IBTRADER_PYTHON"] ?? root.appendingPathComponent(".venv/bin/python").path
        // "quiet": only the quiet rows; otherwise each client runs quiet, then beside a CPU-bound process.
        let conditions: [Condition] =
            ProcessInfo.processInfo.environment["BENCH_LATENCY_BUSY"] == "off" ? [.quiet] : [.quiet, .busy]
        for condition in conditions {
            let hog = condition == .busy ? try CPUHog.start() : nil
            defer { hog?.stop() }
            try await rows(condition, samples: samples, warmup: warmup, python: python, into: &table)
        }
        return table
    }

    /// Whether another process keeps a core busy while a client runs.
    enum Condition {
        case quiet
        case busy

        var label: String {
            switch self {
            case .quiet: ""
            case .busy: ", a CPU-bound process beside"
            }
        }
    }

    /// One condition's rows: ib_async, IBTrader without and with its journal, the ratios. The clients take turns in
    /// `BENCH_LATENCY_ROUNDS` rounds (4 by default) of `samples / rounds` bars each, and each client's rounds are
    /// pooled: this VM's speed drifts by a factor of two over minutes (the same row measured 161 and 349 µs at the
    /// median in two runs of one session), and a client measured only at the start or only at the end of a run would
    /// carry that drift into the ratio.
    private static func rows(
        _ condition: Condition, samples: Int, warmup: Int, python: String, into table: inout BenchTable
    ) async throws {
        let label = condition.label
        // "ibtrader": skip the Python row; "off" or "on": only that IBTrader row (for a profile).
        let only = ProcessInfo.processInfo.environment["BENCH_LATENCY_ONLY"]
        let rounds = max(1, Int(ProcessInfo.processInfo.environment["BENCH_LATENCY_ROUNDS"] ?? "") ?? 4)
        var clients: [LatencyBenchmark.Client] = []
        if only == nil, FileManager.default.isExecutableFile(atPath: python) {
            clients.append(.ibAsync(python: python))
        } else if only == nil {
            table.add("ib_async 2.1.0, bar → order (µs)", "n/a", "no Python at \(python): run scripts/setup-python.sh")
        }
        if only != "on" { clients.append(.ibtrader(journal: nil)) }
        if only != "off" { clients.append(.ibtrader(journal: .processCrashSafe)) }
        var runs = Array(repeating: [LatencyBenchmark.Result](), count: clients.count)
        for round in 0..<rounds {
            let share = samples / rounds + (round < samples % rounds ? 1 : 0)
            for (k, client) in clients.enumerated() {
                runs[k].append(try await LatencyBenchmark.run(samples: share, warmup: warmup, client: client))
            }
        }
        var ibAsync: LatencyDistribution?
        var off: LatencyBenchmark.Result?
        var on: LatencyBenchmark.Result?
        for (k, client) in clients.enumerated() {
            guard let run = LatencyBenchmark.Result.pooled(runs[k]) else { continue }
            switch client {
            case .ibAsync:
                ibAsync = run.latency
                table.add("ib_async 2.1.0\(label), bar → order (µs)", run.latency.text, detail(run, rounds: rounds))
            case .ibtrader(nil):
                table.add("IBTrader, journal off\(label), bar → order (µs)", run.latency.text, detail(run, rounds: rounds))
                addInside(run, to: &table)
                off = run
            case .ibtrader:
                table.add(
                    "IBTrader, journal on (NORMAL)\(label), bar → order (µs)", run.latency.text, detail(run, rounds: rounds))
                addInside(run, to: &table)
                on = run
            }
        }
        if let ibAsync, let off, let on {
            table.add(
                "  ib_async ÷ IBTrader journal off\(label), p50 / p99",
                String(format: "%.1f× / %.1f×", ibAsync.p50 / off.latency.p50, ibAsync.p99 / off.latency.p99),
                "for reference (issue 20's old goal was ≥ 3× here)")
            table.add(
                "  ib_async ÷ IBTrader journal on\(label), p50 / p99",
                String(format: "%.1f× / %.1f×", ibAsync.p50 / on.latency.p50, ibAsync.p99 / on.latency.p99),
                "issue 41's goal: ≥ 2× at p50, ≥ 1× at p99 (the journal writes each intent before its order is sent)")
        }
    }

    /// The bot's own share: from the bar leaving its inbox to the order handed to the connection.
    private static func addInside(_ run: LatencyBenchmark.Result, to table: inout BenchTable) {
        guard let inside = run.inside else { return }
        table.add(
            "  of which inbox → order handed to the socket (µs)", inside.text,
            "the bot's own stamps (`SessionStatus.latency.barToOrder`): the core, the journal's intent, the send")
        if let writes = run.journalWrites {
            table.add(
                "  journal writes, each (µs)", writes.text,
                "\(writes.count) SQLite transactions in the run (intents, sent, fills, order states), "
                    + "\(writes.count / max(1, run.bars)) a bar")
        }
    }

    private static func detail(_ run: LatencyBenchmark.Result, rounds: Int) -> String {
        "p50 / p90 / p99 / p99.9 / max of \(run.latency.count) bars in \(rounds) rounds taking turns with the other "
            + "clients" + (run.missing > 0 ? ", \(run.missing) without an order" : "") + "; 25 ms apart"
    }
}

/// A process that keeps one core busy (a shell's empty loop) while a condition's rows run: the machine of a bot that
/// shares its host with other work.
struct CPUHog {
    private let process: Process

    static func start() throws -> CPUHog {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "while :; do :; done"]
        try process.run()
        return CPUHog(process: process)
    }

    func stop() {
        // SIGKILL: the child may have inherited a mask that blocks SIGTERM (it did here: `terminate()` left it running).
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
