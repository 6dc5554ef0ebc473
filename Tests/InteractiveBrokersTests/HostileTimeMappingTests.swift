import Foundation
import TWSProtocol
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Times from TWS outside 1970…2200 are mapping errors, never traps (F3 of the reliability audit: a bar dated
/// 99991231 or at epoch 9223372037 overflowed in `TWSTimeParser`, a real-time bar at 99999999999 in `BarMapping`).
struct HostileTimeMappingTests {
    @Test(arguments: [
        "99991231", "22620412", "22010101", "00000101", "19691231", "9223372037", "99999999999", "999999999999",
        "99991231 23:59:59", "99991231-23:59:59 US/Eastern", "00010101  00:00:00",
    ])
    func timesOutsideTheSupportedYearsAreErrors(_ text: String) {
        #expect(throws: IBMappingError.timeOutOfRange(text)) { try TWSTimeParser.timestamp(text) }
    }

    @Test func impossibleDaysAreMalformed() throws {
        #expect(throws: IBMappingError.malformedTime("20250230")) { try TWSTimeParser.timestamp("20250230") }
        #expect(throws: IBMappingError.malformedTime("21000229")) { try TWSTimeParser.timestamp("21000229") }
        #expect(try TWSTimeParser.timestamp("20000229").description == "2000-02-29T00:00:00Z")
    }

    @Test func theLastSupportedDayStillParses() throws {
        #expect(try TWSTimeParser.timestamp("22001231 23:59:59 US/Eastern").description == "2201-01-01T04:59:59Z")
        #expect(try TWSTimeParser.timestamp("7289654399").description == "2200-12-31T23:59:59Z")
    }

    @Test(arguments: [Int64(99_999_999_999), 9_223_372_037, -99_999_999_999, -1, .max, .min])
    func realTimeBarsOutsideTheSupportedYearsAreErrors(time: Int64) {
        let wire = TWSRealTimeBar(time: time, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10, wap: 1, count: 1)
        #expect(throws: IBMappingError.timeOutOfRange(String(time))) { try BarMapping.bar(wire) }
    }

    @Test func historicalBarsWithAHostileDateAreErrors() {
        let wire = TWSBar(date: "99991231", open: 1, high: 2, low: 0.5, close: 1.5, volume: 10, wap: 1, barCount: 1)
        #expect(throws: IBMappingError.timeOutOfRange("99991231")) { try BarMapping.bar(wire) }
    }

    /// The decoder's range and the domain's are the same years.
    @Test func theWireAndDomainRangesAgree() {
        #expect(TWSValueRange.epochSeconds == Timestamp.supportedSeconds)
    }
}

/// The manual commands' conversions of TWS quantities: a share count that does not fit is `nil` (an error naming
/// the order or symbol), never a trap in `Int64(shares * 1e8)`.
struct ManualWireNumberTests {
    @Test func shareCountsThatDoNotFitAreRefused() {
        #expect(ManualTrading.shareQuantity(100) == Quantity(100))
        #expect(ManualTrading.shareQuantity(1e40) == nil)
        #expect(ManualTrading.shareQuantity(-.infinity) == nil)
        #expect(ManualTrading.shareQuantity(.nan) == nil)
    }
}
