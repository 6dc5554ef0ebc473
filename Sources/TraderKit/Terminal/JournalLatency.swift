import Foundation
import JournalModel
import Storage
import TradingModel

/// `ibtrader journal --measure-latency N`: times each journal write of N orders on this machine's disk.
public enum JournalLatency {
    /// Writes N orders (intent, submitted, accepted, fill, commission) to a scratch journal per durability mode and
    /// reports p50 / p99 / max per operation.
    public static func measure(orders count: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ibtrader-latency-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines: [String] = []
        for (name, durability) in [
            ("synchronous=FULL", OrderJournal.Durability.full),
            ("synchronous=NORMAL (ibtrader run's default)", .processCrashSafe),
        ] {
            let path = folder.appendingPathComponent("\(durability == .full ? "full" : "normal").sqlite").path
            let journal: OrderJournal
            do { journal = try OrderJournal(path: path, durability: durability) } catch { throw TraderError("\(error)") }
            var samples: [String: [Double]] = [:]
            let clock = ContinuousClock()
            func time(_ label: String, _ body: () throws -> Void) throws {
                let start = clock.now
                try body()
                samples[label, default: []].append((clock.now - start).secondsValue * 1e6)
            }
            let t0 = Timestamp(seconds: 1_700_000_000)
            do {
                for n in 0..<count {
                    let ref = ClientOrderID("L-\(n)")
                    let now = t0 + .seconds(Int64(n))
                    let request = OrderRequest.limit(InstrumentID(0), .buy, Quantity(100), at: Price("187.25")!)
                    try time("recordIntent") {
                        try journal.recordIntent(
                            JournalIntent(orderRef: ref, symbol: "AAPL", request: request, createdAt: now))
                    }
                    try time("recordSubmitted") {
                        try journal.recordSubmitted(ref, brokerOrderID: Int64(n + 1), at: now)
                    }
                    try time("recordStatus") {
                        try journal.recordStatus(JournalStatusUpdate(orderRef: ref, state: .accepted, time: now))
                    }
                    var fill = JournalFill(
                        execID: "X-\(n)", symbol: "AAPL", side: .buy, quantity: Quantity(100), price: Price("187.2")!,
                        time: now)
                    fill.orderRef = ref
                    try time("recordFill") { try journal.recordFill(fill) }
                    try time("recordCommission") {
                        try journal.recordCommission(
                            JournalCommission(execID: "X-\(n)", commission: Money(1), time: now))
                    }
                }
            } catch {
                throw TraderError("\(error)")
            }
            lines.append("\(name), \(count) orders, microseconds per write:")
            for label in ["recordIntent", "recordSubmitted", "recordStatus", "recordFill", "recordCommission"] {
                let sorted = (samples[label] ?? []).sorted()
                guard !sorted.isEmpty else { continue }
                func pct(_ p: Double) -> String {
                    String(format: "%.0f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
                }
                let name = label.padding(toLength: 17, withPad: " ", startingAt: 0)
                lines.append("  \(name) p50 \(pct(0.5))  p99 \(pct(0.99))  max \(pct(1))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
