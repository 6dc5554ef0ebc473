import CMallocCounter
import Foundation
import InteractiveBrokers
import JournalModel
import LiveSession
import Storage
import TradingModel

/// `ibtrader-bench journal`: the order journal's writes as the live runner makes them, timed per call on a scratch
/// file. Per order group, through the runner's own adapter (`OrderJournalIntents.write`): the pre-send transaction
/// (before placeOrder: the one on the bar → order path), the `sent` transaction (after placeOrder), then the broker's
/// follow-ups (accepted, fill, commission: one transaction each, timed together). With `.manual` checkpoints
/// (`ibtrader run`'s) `checkpoint()` stands in for the runner's 1-second tick every `BENCH_JOURNAL_CHECKPOINT_EVERY`
/// groups (default 10), timed on its own, then once more with nothing new. `BENCH_JOURNAL_GROUPS` (default 5,000)
/// sets the groups per row, after 200 warm-up groups.
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

    static func table() async throws -> BenchTable {
        var table = BenchTable()
        let groups = Int(ProcessInfo.processInfo.environment["BENCH_JOURNAL_GROUPS"] ?? "") ?? 5_000
        let warmup = 200
        let every = Int(ProcessInfo.processInfo.environment["BENCH_JOURNAL_CHECKPOINT_EVERY"] ?? "") ?? 10
        let tick = "checkpoint() per \(every) groups"
        let rows: [(OrderJournal.Durability, OrderJournal.Checkpoints, String, Int)] = [
            (.full, .automatic, "FULL, automatic checkpoints, 1 order", 1),
            (.full, .manual, "FULL, \(tick), 1 order", 1),
            (.processCrashSafe, .automatic, "NORMAL, automatic checkpoints, 1 order", 1),
            (.processCrashSafe, .manual, "NORMAL, \(tick), 1 order", 1),
            (.processCrashSafe, .manual, "NORMAL, \(tick), bracket of 3", 3),
        ]
        for (durability, checkpoints, label, size) in rows {
            let run = try run(
                groups: groups, warmup: warmup, journal: (durability, checkpoints, every),
                groupSize: size)
            let write = "intent transaction"
            table.add(
                "journal \(label): \(write) (µs)", run.intent.text,
                "p50 / p90 / p99 / p99.9 / max of \(run.intent.count) groups after \(warmup) warm-up; before "
                    + "placeOrder; " + String(format: "%.1f", run.allocationsPerIntentWrite) + " allocations per call")
            table.add(
                "  sent transaction (µs)", run.sent.text,
                "after placeOrder: broker order ids, state submitted")
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
        groupSize: Int
    ) throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-bench-journal-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("journal.sqlite").path
        let journal = try OrderJournal(path: path, durability: settings.0, checkpoints: settings.1)
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
            try adapter.write(intents)
            let journaled = clock.now
            if group >= warmup { allocations += ibt_allocation_count() - allocated }
            for k in intents.indices { intents[k].lastKnownState = .sent }
            try adapter.write(intents)
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
