import Foundation
import Testing
@testable import Storage

@Suite struct SweepResultStoreTests {
    @Test func rowsRoundTripAndARerunReplacesThem() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sweeps.sqlite").path
        let run = SweepResultStore.Run(
            fingerprint: "abc", strategy: "sma-cross", objective: "sharpe max", shard: "0/1",
            columns: ["config", "fast", "slow", "sharpe", "note"])
        let store = try SweepResultStore(path: path)
        #expect(try store.save(run, rows: [["0", "5", "20", "1.25", "a,b"], ["1", "10", "20", "", "x"]]) == 2)
        var rows = try store.rows(fingerprint: "abc", shard: "0/1")
        #expect(rows.count == 2)
        #expect(rows[0]["fast"] == "5" && rows[0]["sharpe"] == "1.25" && rows[0]["note"] == "a,b")
        #expect(rows[1]["sharpe"] == "")
        try store.save(run, rows: [["2", "15", "30", "0.5", ""]])
        rows = try SweepResultStore(path: path).rows(fingerprint: "abc", shard: "0/1")
        #expect(rows.map { $0["config"] } == ["2"])
    }

    @Test func aRowOfTheWrongWidthIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SweepResultStore(path: directory.appendingPathComponent("s.sqlite").path)
        let run = SweepResultStore.Run(fingerprint: "f", strategy: "s", objective: "o", shard: "0/1", columns: ["config", "a"])
        #expect(throws: BarStoreError.self) { try store.save(run, rows: [["0"]]) }
    }
}
