import Testing
import TradingModel

/// Times from outside go through checked conversions: out of range is `nil`, never a trap.
@Suite struct TimestampCheckedTests {
    @Test func secondsWithinTheSupportedYearsConvert() {
        #expect(Timestamp(checkedSeconds: 1_736_951_400)?.description == "2025-01-15T14:30:00Z")
        #expect(Timestamp(checkedSeconds: 0) == .zero)
        #expect(Timestamp(checkedSeconds: Timestamp.supportedSeconds.upperBound)?.description == "2200-12-31T23:59:59Z")
    }

    /// Values the audit sent: each used to overflow `seconds * 1e9` (or is before 1970).
    @Test(arguments: [Int64(9_223_372_037), 99_999_999_999, 999_999_999_999, -1, -9_223_372_037, .max, .min])
    func secondsOutsideTheSupportedYearsAreRefused(seconds: Int64) {
        #expect(Timestamp(checkedSeconds: seconds) == nil)
    }

    @Test func millisecondsAreCheckedLikeSeconds() {
        #expect(Timestamp(checkedMilliseconds: 1_736_951_400_123)?.nanoseconds == 1_736_951_400_123_000_000)
        #expect(Timestamp(checkedMilliseconds: .max) == nil)
        #expect(Timestamp(checkedMilliseconds: -1) == nil)
    }

    @Test func civilDatesAreCheckedFieldByField() {
        #expect(Timestamp(checkedYear: 2024, month: 2, day: 29)?.description == "2024-02-29T00:00:00Z")
        #expect(Timestamp(checkedYear: 2025, month: 2, day: 29) == nil)
        #expect(Timestamp(checkedYear: 2025, month: 2, day: 30) == nil)
        #expect(Timestamp(checkedYear: 2025, month: 13, day: 1) == nil)
        #expect(Timestamp(checkedYear: 2025, month: 4, day: 31) == nil)
        #expect(Timestamp(checkedYear: 2025, month: 1, day: 1, secondOfDay: 86_401) == nil)
        #expect(Timestamp(checkedYear: 2025, month: 1, day: 1, secondOfDay: -1) == nil)
    }

    /// `Timestamp(year:)` traps outside 1677…2262; these years are refused first.
    @Test(arguments: [1, 1677, 1969, 2201, 2262, 9999, Int.max, Int.min])
    func yearsOutsideTheSupportedOnesAreRefused(year: Int) {
        #expect(Timestamp(checkedYear: year, month: 1, day: 1) == nil)
    }

    @Test func dataFilesMayGoBackTo1900() {
        #expect(Timestamp(checkedYear: 1928, month: 1, day: 3, years: Timestamp.dataFileYears) != nil)
        #expect(Timestamp(checkedYear: 1928, month: 1, day: 3) == nil)
        #expect(Timestamp(checkedYear: 1899, month: 12, day: 31, years: Timestamp.dataFileYears) == nil)
    }

    @Test func spansThatDoNotFitAreRefused() {
        #expect(TimeSpan.checkedSeconds(86_400) == .days(1))
        #expect(TimeSpan.checkedSeconds(9_223_372_037) == nil)
        #expect(TimeSpan.checkedSeconds(-9_223_372_037) == nil)
    }
}
