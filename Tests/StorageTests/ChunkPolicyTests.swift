import Storage
import Testing
import TradingModel

struct ChunkPolicyTests {
    @Test(
        arguments: [
            ("1 secs", 1800, "1800 S"), ("5 secs", 3600, "3600 S"), ("15 secs", 14_400, "14400 S"),
            ("30 secs", 28_800, "28800 S"), ("1 min", 86_400, "1 D"), ("2 mins", 172_800, "2 D"),
            ("5 mins", 604_800, "1 W"), ("30 mins", 2_419_200, "1 M"), ("1 hour", 2_419_200, "1 M"),
            ("1 day", 31_449_600, "1 Y"),
        ] as [(String, Int64, String)])
    func chunkTable(barSize: String, seconds: Int64, duration: String) throws {
        let policy = ChunkPolicy(barSize: try #require(BarSize(barSize)))
        #expect(policy.span == .seconds(seconds))
        #expect(policy.requestDuration == duration)
    }

    @Test func chunksLieOnAFixedUTCGrid() {
        let policy = ChunkPolicy(barSize: BarSize("1 min")!)
        let start = Timestamp(year: 2024, month: 3, day: 1, secondOfDay: 15 * 3600)
        let end = Timestamp(year: 2024, month: 3, day: 4, secondOfDay: 1)
        let chunks = policy.chunks(covering: start..<end)
        #expect(chunks.map(\.start) == (1...4).map { Timestamp(year: 2024, month: 3, day: $0) })
        #expect(chunks.last?.end == Timestamp(year: 2024, month: 3, day: 5))
        // A range ending exactly on a boundary does not pull in the next chunk.
        let exact = policy.chunks(covering: start..<Timestamp(year: 2024, month: 3, day: 4))
        #expect(exact.count == 3)
        #expect(policy.chunks(covering: start..<start).isEmpty)
    }

    @Test func durationsParse() {
        #expect(HistoricalDuration("30 D")?.span == .days(30))
        #expect(HistoricalDuration("2W")?.span == .days(14))
        #expect(HistoricalDuration("6 M")?.span == .days(180))
        #expect(HistoricalDuration("1 y")?.text == "1 Y")
        #expect(HistoricalDuration("3600 S")?.span == .seconds(3600))
        #expect(HistoricalDuration("30") == nil)
        #expect(HistoricalDuration("-1 D") == nil)
        #expect(HistoricalDuration("1 Q") == nil)
        #expect(HistoricalDuration("100 Y")?.span == .days(36_500))
        #expect(HistoricalDuration("101 Y") == nil)
        #expect(HistoricalDuration(wire: "30 D")?.span == .days(30))
        #expect(HistoricalDuration(wire: "30D") == nil && HistoricalDuration(wire: "5 m") == nil)
        #expect(HistoricalDuration(wire: "0 S") == nil && HistoricalDuration(wire: "36501 D") == nil)
        #expect(HistoricalDuration("9223372036854775807 Y") == nil)
    }
}
