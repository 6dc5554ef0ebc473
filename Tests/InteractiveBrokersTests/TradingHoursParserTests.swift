import Testing
import TradingEngine
import TradingModel

@testable import LiveSession

/// A contract's liquid hours as TWS writes them become the sessions the strategy's bars are cut by.
@Suite("Trading hours parser")
struct TradingHoursParserTests {
    @Test("TWS's hours in the contract's zone, daylight saving included; closed days and junk skipped")
    func liquidHours() throws {
        let hours = "20240102:0930-20240102:1600;20240106:CLOSED;20240708:0930-20240708:1600;garbage;20240709:0930-1600"
        let sessions = TradingHoursParser.sessions(hours, zoneID: "US/Eastern")
        let winter = try #require(sessions[Timestamp(year: 2024, month: 1, day: 2).dayNumber])
        #expect(winter.open == Timestamp(seconds: 1_704_205_800))  // 14:30 UTC (EST)
        #expect(winter.close == winter.open + .minutes(390))
        let summer = try #require(sessions[Timestamp(year: 2024, month: 7, day: 8).dayNumber])
        #expect(summer.open == Timestamp(year: 2024, month: 7, day: 8) + .minutes(13 * 60 + 30))  // 13:30 UTC (EDT)
        // The older form without the date after the dash.
        let short = try #require(sessions[Timestamp(year: 2024, month: 7, day: 9).dayNumber])
        #expect(short.close == Timestamp(year: 2024, month: 7, day: 9) + .hours(20))
        #expect(sessions[Timestamp(year: 2024, month: 1, day: 6).dayNumber] == nil)
    }

    @Test("the simulator's hours are in UTC")
    func utc() throws {
        let sessions = TradingHoursParser.sessions("20110104:1430-20110104:2100", zoneID: "UTC")
        let day = try #require(sessions[Timestamp(year: 2011, month: 1, day: 4).dayNumber])
        #expect(day.open == Timestamp(year: 2011, month: 1, day: 4) + .minutes(14 * 60 + 30))
    }
}
