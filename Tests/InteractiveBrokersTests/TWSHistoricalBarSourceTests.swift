import Foundation
import Storage
import LiveSession
import Testing
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers

struct TWSHistoricalBarSourceTests {
    @Test func errors162AreClassified() {
        func rejected(_ code: Int, _ text: String) -> TWSRequestError {
            .rejected(TWSNotice(requestID: 100_000_001, code: code, message: text))
        }
        let pacing = rejected(162, "Historical Market Data Service error message:Pacing violation")
        #expect(
            TWSHistoricalBarSource.classify(pacing)
                == .pacingViolation("Historical Market Data Service error message:Pacing violation"))
        let empty = rejected(
            162, "Historical Market Data Service error message:HMDS query returned no data: AAPL@SMART Trades")
        #expect(TWSHistoricalBarSource.classify(empty) == .noData)
        guard case .failed(let text) = TWSHistoricalBarSource.classify(rejected(200, "No security definition")) else {
            Issue.record("200 must stop the download")
            return
        }
        #expect(text.contains("200"))
    }

    @Test func barTimesAreUTC() {
        #expect(TWSHistoricalBarSource.barTime("20240301") == Timestamp(year: 2024, month: 3, day: 1))
        #expect(TWSHistoricalBarSource.barTime("1709303400") == Timestamp(seconds: 1_709_303_400))
        #expect(
            TWSHistoricalBarSource.barTime("20240301 14:30:00 UTC")
                == Timestamp(year: 2024, month: 3, day: 1, secondOfDay: 52_200))
        // Exchange-local times (older TWS, formatDate 1) are converted with the offset of their date: EST, then EDT.
        #expect(
            TWSHistoricalBarSource.barTime("20240308 09:30:00 US/Eastern")
                == Timestamp(year: 2024, month: 3, day: 8, secondOfDay: 52_200))
        #expect(
            TWSHistoricalBarSource.barTime("20240311 09:30:00 US/Eastern")
                == Timestamp(year: 2024, month: 3, day: 11, secondOfDay: 48_600))
        #expect(
            TWSHistoricalBarSource.barTime("20240311 09:30:00 America/New_York")
                == Timestamp(year: 2024, month: 3, day: 11, secondOfDay: 48_600))
        #expect(TWSHistoricalBarSource.barTime("20240301 09:30:00 Mars/Olympus") == nil)
        #expect(TWSHistoricalBarSource.barTime("20240301 25:30:00") == nil)
        #expect(TWSHistoricalBarSource.barTime("2024-03-01") == nil)
        // Outside 1970…2200 or no such day: refused (these trapped in `Timestamp(year:)` / `Timestamp(seconds:)`).
        for hostile in ["99991231", "00000101", "9223372037", "99999999999", "20250230"] {
            #expect(TWSHistoricalBarSource.barTime(hostile) == nil, "\(hostile)")
        }
        #expect(
            TWSTimeParser.utcText(Timestamp(year: 2024, month: 3, day: 1, secondOfDay: 52_205))
                == "20240301-14:30:05")
    }
}
