import CMallocCounter
import Foundation
import InteractiveBrokers
import Storage
import TradingModel

/// `ibtrader-bench journal`: the order journal's writes as the live runner makes them, timed per call on a scratch
/// file. Per order group, through the runner's own adapter (`OrderJournalIntents.writeNow`): the pre-send write
/// (before placeOrder: the one on the tick-to-order path), the `sent` transaction (after placeOrder), then the
/// broker's follow-ups (accepted, fill, commission: one transaction each, timed together).
///
/// The pre-send write is an append to the intent log when the journal owns it (`.manual` checkpoints, as `ibtrader
/// run` opens it), and then the `sent` transaction also moves the log's records into SQLite. The SQLite rows
/// measure the same adapter when it does not own the log: an `.automatic` journal, or a `.manual` one whose log
/// another journal on the same file holds (what a second runner would see), i.e. the pre-send write as one SQLite
/// transaction, as it was before the log. With `.manual` checkpoints `checkpoint()` stands in for the runner's
/// 1-second tick every `BENCH_JOURNAL_CHECKPOINT_EVERY` groups (default 10), and is timed on its own, then once more
/// with nothing new. `BENCH_JOURNAL_GROUPS` (default 5,000) sets the groups per row, after 200 warm-up groups.
enum JournalBenchmark {
    struct Run {
        var intent: LatencyDistribution
        var sent: LatencyDistribution
        var followUps: LatencyDistribution
        var checkpoint: LatencyDistribution
        var idleCheckpoint: LatencyDistribution
        var largestWAL: Int
        var allocationsPerIntentWrite: Double
        var seconds: Double
    }

    /// Where the pre-send write goes.
    enum Target: Equatable {
        /// SQLite: the journal does not own the intent log.
        case sqlite
        /// The intent log (a `.manual` journal that owns it).
        case intentLog
    }

    static func table() async throws -> BenchTable {
        var table = BenchTable()
        let groups = Int(ProcessInfo.processInfo.environment["BENCH_JOURNAL_GROUPS"] ?? "") ?? 5_000
        let warmup = 200
        let every = Int(ProcessInfo.processInfo.environment["BENCH_JOURNAL_CHECKPOINT_EVERY"] ?? "") ?? 10
        let tick = "checkpoint() per \(every) groups"
        let rows: [(OrderJournal.Durability, OrderJournal.Checkpoints, Target, String, Int)] = [
            (.full, .automatic, .sqlite, "SQLite FULL, automatic checkpoints, 1 order", 1),
            (.full, .manual, .sqlite, "SQLite FULL, \(tick), 1 order", 1),
            (.processCrashSafe, .automatic, .sqlite, "SQLite NORMAL, automatic checkpoints, 1 order", 1),
            (.processCrashSafe, .manual, .sqlite, "SQLite NORMAL, \(tick), 1 order", 1),
            (.full, .manual, .intentLog, "intent log FULL, \(tick), 1 order", 1),
            (.processCrashSafe, .manual, .intentLog, "intent log NORMAL, \(tick), 1 order", 1),
            (.processCrashSafe, .manual, .sqlite, "SQLite NORMAL, \(tick), bracket of 3", 3),
            (.full, .manual, .intentLog, "intent log FULL, \(tick), bracket of 3", 3),
            (.processCrashSafe, .manual, .intentLog, "intent log NORMAL, \(tick), bracket of 3", 3),
        ]
        for (durability, checkpoints, target, label, size) in rows {
            let run = try run(
                groups: groups, warmup: warmup, journal: (durability, checkpoints, every), target: target,
                groupSize: size)
            let write = target == .intentLog ? "intent log append" : "intent transaction"
            table.add(
                "journal \(label): \(write) (µs)", run.intent.text,
                "p50 / p90 / p99 / p99.9 / max of \(run.intent.count) groups after \(warmup) warm-up; before "
                    + "placeOrder; " + String(format: "%.1f", run.allocationsPerIntentWrite) + " allocations per call")
            table.add(
                "  sent transaction (µs)", run.sent.text,
                "after placeOrder: broker order ids, state submitted"
                    + (target == .intentLog ? "; inserts the logged intents first" : ""))
            table.add(
                "  accepted + fill + commission (µs)", run.followUps.text,
                "three transactions per order, timed together; largest WAL \(run.largestWAL / 1024) KiB; "
                    + String(format: "%.1f s", run.seconds))
            if checkpoints == .manual {
                table.add(
                    "  checkpoint() on the tick (µs)", run.checkpoint.text,
                    "\(run.checkpoint.count) calls, each after \(every) groups (PASSIVE)")
                table.add("  checkpoint() with nothing new (µs)", run.idleCheckpoint.text, "right after the one above")
            }
        }
        return table
    }

    static func run(
        groups: Int, warmup: Int, journal settings: (OrderJournal.Durability, OrderJournal.Checkpoints, every: Int),
        target: Target, groupSize: Int
    ) throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-bench-journal-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        // For a `.manual` SQLite row, an idle journal on the same file holds the intent log first.
        let holder =
            target == .sqlite && settings.1 == .manual
            ? try OrderJournal(path: path, durability: settings.0, checkpoints: .manual) : nil
        let journal = try OrderJournal(path: path, durability: settings.0, checkpoints: settings.1)
        guard journal.ownsIntentLog == (target == .intentLog) else {
            throw BenchJournalError(message: "the journal's intent log ownership is not the row's")
        }
        let t0 = Timestamp(seconds: 1_700_000_000)
        let adapter = OrderJournalIntents(journal: journal, universe: Universe(symbols: ["AAPL"]), clock: { t0 })
        var intentSamples: [Int64] = []
        var sentSamples: [Int64] = []
        var followUpSamples: [Int64] = []
        var checkpointSamples: [Int64] = []
        var idleSamples: [Int64] = []
        var largestWAL = 0
        var allocations = 0
        let clock = ContinuousClock()
        let start = clock.now
        var orderID = 0
        for group in 0..<(warmup + groups) {
            var intents: [JournaledIntent] = []
            for k in 0..<groupSize {
                orderID += 1
                let request: OrderRequest =
                    k == 0
                    ? .market(InstrumentID(0), .buy, Quantity(100))
                    : .limit(InstrumentID(0), .sell, Quantity(100), at: Price(units: 1_872_500_000 + Int64(k)))
                intents.append(
                    JournaledIntent(
                        orderRef: "IBT:R1:\(orderID)", request: request, lastKnownState: .journaled,
                        brokerOrderID: orderID, parentOrderRef: k == 0 ? nil : intents[0].orderRef))
            }
            let allocated = ibt_allocation_count()
            let began = clock.now
            try adapter.writeNow(intents)
            let journaled = clock.now
            if group >= warmup { allocations += ibt_allocation_count() - allocated }
            for k in intents.indices { intents[k].lastKnownState = .sent }
            try adapter.writeNow(intents)
            let sent = clock.now
            let now = t0 + .seconds(Int64(group))
            for intent in intents {
                let ref = ClientOrderID(intent.orderRef)
                try journal.recordStatus(JournalStatusUpdate(orderRef: ref, state: .accepted, time: now))
                var fill = JournalFill(
                    execID: "X-\(intent.orderRef)", symbol: "AAPL", side: .buy, quantity: Quantity(100),
                    price: Price(units: 1_872_000_000), time: now)
                fill.orderRef = ref
                try journal.recordFill(fill)
                try journal.recordCommission(JournalCommission(execID: fill.execID, commission: Money(1), time: now))
            }
            let done = clock.now
            if group >= warmup {
                intentSamples.append(nanoseconds(journaled - began))
                sentSamples.append(nanoseconds(sent - journaled))
                followUpSamples.append(nanoseconds(done - sent))
            }
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            largestWAL = max(largestWAL, wal)
            if settings.1 == .manual, (group + 1) % settings.every == 0 {
                let before = clock.now
                try journal.checkpoint()
                let middle = clock.now
                try journal.checkpoint()
                if group >= warmup {
                    checkpointSamples.append(nanoseconds(middle - before))
                    idleSamples.append(nanoseconds(clock.now - middle))
                }
            }
        }
        try journal.close()
        try holder?.close()
        return Run(
            intent: LatencyDistribution(nanoseconds: intentSamples),
            sent: LatencyDistribution(nanoseconds: sentSamples),
            followUps: LatencyDistribution(nanoseconds: followUpSamples),
            checkpoint: LatencyDistribution(nanoseconds: checkpointSamples),
            idleCheckpoint: LatencyDistribution(nanoseconds: idleSamples), largestWAL: largestWAL,
            allocationsPerIntentWrite: Double(allocations) / Double(max(groups, 1)),
            seconds: seconds(clock.now - start))
    }

    struct BenchJournalError: Error, CustomStringConvertible {
        var message: String
        var description: String { "journal benchmark: \(message)" }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(nanoseconds(duration)) / 1e9
    }
}
