import Testing
import TradingModel

@testable import GatewayCore

/// The simulator reads the times clients send (`endDateTime`, execution filters) as TWS does: New York's zone with
/// its daylight saving time on that date (ib_async and the official client send `US/Eastern` by default).
@Suite struct TWSTimeTextTests {
    @Test(arguments: [
        ("20240115 09:30:00 US/Eastern", Timestamp(year: 2024, month: 1, day: 15, secondOfDay: 14 * 3600 + 1800)),
        ("20240311 09:30:00 US/Eastern", Timestamp(year: 2024, month: 3, day: 11, secondOfDay: 13 * 3600 + 1800)),
        ("20240701 16:00:00 America/New_York", Timestamp(year: 2024, month: 7, day: 1, secondOfDay: 20 * 3600)),
        ("20241104 09:30:00 US/Eastern", Timestamp(year: 2024, month: 11, day: 4, secondOfDay: 14 * 3600 + 1800)),
        ("20240701 16:00:00 EST", Timestamp(year: 2024, month: 7, day: 1, secondOfDay: 21 * 3600)),
        ("20240115 16:00:00 EDT", Timestamp(year: 2024, month: 1, day: 15, secondOfDay: 20 * 3600)),
        ("20240701 16:00:00 UTC", Timestamp(year: 2024, month: 7, day: 1, secondOfDay: 16 * 3600)),
        ("20240701-16:00:00", Timestamp(year: 2024, month: 7, day: 1, secondOfDay: 16 * 3600)),
    ])
    func newYorkTimesFollowDaylightSavingTime(text: String, expected: Timestamp) {
        #expect(TWSTimeText.parse(text) == expected)
    }

    @Test func unknownZonesAreRefused() {
        #expect(TWSTimeText.parse("20240701 16:00:00 Mars/Olympus") == nil)
    }
}
