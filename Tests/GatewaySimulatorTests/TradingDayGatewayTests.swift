import BundledData
import Foundation
import GatewayCore
import Simulation
import TWSProtocol
import Testing
import TradingModel

/// Issue 80: the simulator's daily bars of a currency pair or a future are IB's trading days, 17:00 to 17:00 New
/// York, named by the date they close on, with the weekend in Monday's: derived from hourly data (EUR.USD), from
/// daily data with the Sunday-evening rows of the Globex open (ES), the quote line's "today", and the contract's
/// trading hours the bot builds its bars on.
@Suite struct TradingDayGatewayTests {
    func connected(_ set: BundledDataSet, at start: Timestamp) throws -> GatewayState {
        var state = GatewayState(data: try MarketDataSet.bundled(set), configuration: GatewayConfiguration(), start: start)
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    let euro = TWSContract(symbol: "EUR", securityType: "CASH", exchange: "IDEALPRO", currency: "USD")

    func history(_ state: inout GatewayState, _ contract: TWSContract, _ duration: String, _ size: String, _ show: String) -> [TWSBar] {
        let request = TWSHistoricalDataRequest(
            requestID: 5, contract: contract, endDateTime: "", durationString: duration, barSizeSetting: size,
            whatToShow: show, useRTH: false, formatDate: 2)
        for case .historicalData(_, _, _, let bars) in sent(state.handle(.historicalData(request), from: 1, wallTime: 0)) {
            return bars
        }
        return []
    }

    /// EUR.USD's daily bars from its hourly data: each the hours from 17:00 New York the day before to 17:00 on the
    /// day (grouped here by Foundation's New York time), Sunday evening's in Monday's, no Saturday or Sunday bar.
    @Test func aPairsDailyBarsAreItsHourlyBarsFrom17To17NewYork() throws {
        // Wednesday 2017-11-15 15:00 UTC; the last three weeks reach back across the change of the clock (Nov 5).
        var state = try connected(.fx, at: Timestamp(year: 2017, month: 11, day: 15, secondOfDay: 15 * 3600))
        let daily = history(&state, euro, "3 W", "1 day", "MIDPOINT")
        let hourly = history(&state, euro, "4 W", "1 hour", "MIDPOINT")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "America/New_York"))
        func day(_ bar: TWSBar) -> String {
            let date = Date(timeIntervalSince1970: TimeInterval(Int(bar.date)!))
            var local = calendar.dateComponents([.year, .month, .day, .hour], from: date)
            var noon = calendar.date(from: DateComponents(year: local.year, month: local.month, day: local.day, hour: 12))!
            if local.hour! >= 17 { noon = calendar.date(byAdding: .day, value: 1, to: noon)! }
            while calendar.component(.weekday, from: noon) == 1 || calendar.component(.weekday, from: noon) == 7 {
                noon = calendar.date(byAdding: .day, value: 1, to: noon)!
            }
            local = calendar.dateComponents([.year, .month, .day], from: noon)
            return String(format: "%04d%02d%02d", local.year!, local.month!, local.day!)
        }
        let groups = Dictionary(grouping: hourly, by: day)
        #expect(daily.count == 16, "\(daily.map(\.date))")
        #expect(daily.first?.date == "20171025" && daily.last?.date == "20171115")
        for bar in daily {
            let hours = try #require(groups[bar.date], "\(bar.date)")
            #expect(bar.open == hours.first?.open && bar.close == hours.last?.close, "\(bar.date)")
            #expect(bar.high == hours.map(\.high).max() && bar.low == hours.map(\.low).min(), "\(bar.date)")
            let date = Timestamp(
                year: Int(bar.date.prefix(4))!, month: Int(bar.date.dropFirst(4).prefix(2))!, day: Int(bar.date.suffix(2))!)
            #expect(date.weekday < 5, "\(bar.date): no Saturday or Sunday bar")
        }
        // Monday 2017-11-06's bar opens with Sunday's 22:00 UTC hour (17:00 EST), after the clock went back.
        let monday = try #require(daily.first { $0.date == "20171106" })
        let sunday = try #require(hourly.first { $0.date == "\(Timestamp(year: 2017, month: 11, day: 5, secondOfDay: 22 * 3600).nanoseconds / 1_000_000_000)" })
        #expect(monday.open == sunday.open)
    }

    /// ES's daily file has the Sunday-evening session as a row of its own (Lean's data); IB's daily bar of Monday
    /// starts at Sunday's open. The simulator serves Monday's bar with Sunday's row in it, and no Sunday bar.
    @Test func aFuturesSundayEveningIsInMondaysDailyBar() throws {
        var state = try connected(.futures, at: Timestamp(year: 2013, month: 12, day: 17, secondOfDay: 15 * 3600))
        var december = TWSContract(symbol: "ES", securityType: "FUT", exchange: "CME", currency: "USD")
        december.lastTradeDateOrContractMonth = "201312"
        let bars = history(&state, december, "5 D", "1 day", "TRADES")
        #expect(!bars.map(\.date).contains("20131215"), "\(bars.map(\.date))")
        // Sunday 2013-12-15: 1774.75 1776.5 1774 1775.75, 1828; Monday: 1783.5 1792.5 1783.25 1785.25, 200215.
        let monday = try #require(bars.first { $0.date == "20131216" })
        #expect(monday.open == 1774.75 && monday.high == 1792.5 && monday.low == 1774 && monday.close == 1785.25)
        #expect(monday.volume == 202_043)
        #expect(bars.contains { $0.date == "20131213" })
    }

    /// The quote line's day of a pair: on Monday morning its open is Sunday evening's, not midnight UTC's.
    @Test func aPairsQuoteLineCountsTodayFromSundaysOpen() throws {
        let state = try connected(.fx, at: Timestamp(year: 2017, month: 6, day: 19, secondOfDay: 12 * 3600))
        let instrument = try #require(state.data.instrument(symbol: "EURUSD"))
        let monday = Timestamp(year: 2017, month: 6, day: 19, secondOfDay: 12 * 3600)
        let quote = try #require(QuoteModel.quote(instrument, at: monday))
        let bars = instrument.series.bars
        let sundayOpen = try #require(bars.first { $0.timestamp == Timestamp(year: 2017, month: 6, day: 18, secondOfDay: 21 * 3600) })
        let tick = instrument.minTick.units
        #expect(quote.open == Price(units: sundayOpen.open.units.rounded(toMultipleOf: tick)))
        // The hours from Sunday 21:00 UTC to Monday 11:00 UTC are complete at 12:00.
        let fromSunday = bars.filter { $0.timestamp >= sundayOpen.timestamp && $0.timestamp < monday }
        #expect(fromSunday.count == 15)
        #expect(quote.high == Price(units: fromSunday.map(\.high.units).max()!.rounded(toMultipleOf: tick)))
        #expect(quote.low == Price(units: fromSunday.map(\.low.units).min()!.rounded(toMultipleOf: tick)))
    }

    /// A pair's (or an intraday future's) trading hours are IB's: one session a trading day from 17:00 New York the
    /// evening before to 17:00 New York, listed under its opening date, Saturday closed (UTC, the simulator's zone).
    @Test func aPairsTradingHoursRunFrom17To17NewYork() throws {
        var state = try connected(.fx, at: Timestamp(year: 2017, month: 6, day: 6, secondOfDay: 15 * 3600))
        let out = sent(state.handle(.contractDetails(requestID: 3, contract: euro), from: 1, wallTime: 0))
        let details = try #require(out.compactMap { if case .contractDetails(_, let d) = $0 { d } else { nil } }.first)
        #expect(details.timeZoneID == "UTC")
        #expect(details.tradingHours == "20170605:2100-20170606:2100;20170606:2100-20170607:2100;"
            + "20170607:2100-20170608:2100;20170608:2100-20170609:2100;20170610:CLOSED;20170611:2100-20170612:2100")
        #expect(details.liquidHours == details.tradingHours)
    }
}
