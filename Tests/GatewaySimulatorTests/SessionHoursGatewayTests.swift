import Foundation
import GatewayCore
import GatewaySimulator
import TWSProtocol
import Testing
import TradingModel

/// On intraday data with extended hours the simulator keeps IB's sessions: `useRTH` bars come from regular hours
/// only, an order outside its sessions is PreSubmitted and rests until one opens, and `outsideRth` on an order type
/// that cannot use it gets TWS's warning 2109.
@Suite struct SessionHoursGatewayTests {
    /// New York time on Monday 2024-01-08 (EST, UTC−5).
    static func ny(_ hour: Int, _ minute: Int = 0) -> Timestamp {
        Timestamp(year: 2024, month: 1, day: 8) + .seconds(Int64((hour + 5) * 3600 + minute * 60))
    }

    /// SYN000: one-minute bars from 07:00 to 11:00 New York, pre-market and regular, rising a cent a minute from 100.
    static let data: MarketDataSet = {
        var bars: [Bar] = []
        for minute in 0..<240 {
            let price = Price(units: 10_000_000_000 + Int64(minute) * 1_000_000)
            bars.append(Bar(timestamp: ny(7, minute), open: price, high: price, low: price, close: price,
                            volume: Quantity(100_000)))
        }
        return MarketDataSet(series: ["SYN000": InstrumentSeries(bars: bars, resolution: .minutes(1))], name: "hours")
    }()

    /// A daily bar trades over its date's regular session in New York time, as IB serves it: 13:30–20:00 UTC in
    /// summer, 14:30–21:00 in winter, 14:30–18:00 on the early close after Thanksgiving; a bar on a day without a US
    /// session (a currency pair's on a holiday) at 14:30–21:00 UTC. (It was 14:30–21:00 UTC all year.)
    @Test func aDailyBarTradesOverItsDatesNewYorkSession() {
        func window(_ year: Int, _ month: Int, _ day: Int) -> (String, String)? {
            let date = Timestamp(year: year, month: month, day: day)
            let price = Price(100)
            let bar = Bar(timestamp: date, open: price, high: price, low: price, close: price, volume: Quantity(1_000))
            guard let session = InstrumentSeries(bars: [bar], resolution: .days(1)).session(onDay: date.dayNumber) else {
                return nil
            }
            return (session.open.description, session.close.description)
        }
        #expect(window(2005, 8, 22)! == ("2005-08-22T13:30:00Z", "2005-08-22T20:00:00Z"))
        #expect(window(2005, 1, 10)! == ("2005-01-10T14:30:00Z", "2005-01-10T21:00:00Z"))
        #expect(window(2005, 11, 25)! == ("2005-11-25T14:30:00Z", "2005-11-25T18:00:00Z"))
        #expect(window(2005, 12, 26)! == ("2005-12-26T14:30:00Z", "2005-12-26T21:00:00Z"))  // Christmas observed
    }

    func connected(at time: Timestamp) -> GatewayState {
        var state = GatewayState(data: Self.data, configuration: GatewayConfiguration(), start: time)
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    func place(_ state: inout GatewayState, _ id: Int, _ order: TWSOrder) -> [TWSResponse] {
        sent(state.handle(.placeOrder(orderID: id, contract: stock("SYN000"), order: order), from: 1, wallTime: 0))
    }

    static func statuses(_ responses: [TWSResponse]) -> [String] {
        responses.compactMap { if case .orderStatus(let s) = $0 { s.status } else { nil } }
    }

    @Test func aMarketOrderBeforeTheOpenIsPreSubmittedAndFillsOnlyOnceTheRegularSessionOpens() {
        var state = connected(at: Self.ny(8, 0))
        let placed = place(&state, 1, wireOrder("BUY", 10))
        #expect(Self.statuses(placed) == ["PreSubmitted"])
        #expect(!names(placed).contains("execDetails"))
        #expect(!names(sent(state.advance(to: Self.ny(9, 29)))).contains("execDetails"))
        let open = sent(state.advance(to: Self.ny(9, 31)))
        let fills = open.compactMap { if case .executionDetails(_, _, let e) = $0 { e } else { nil } }
        #expect(fills.count == 1)
        // At the open's price (101.50: a cent a minute since 07:00), not the 08:00 price it was placed at (100.60).
        #expect(fills.first.map { $0.price >= 101.49 && $0.price < 101.60 } == true, "\(fills)")
        #expect(Self.statuses(open).last == "Filled")
    }

    @Test func outsideRthLetsALimitOrderFillBeforeTheOpenAndIsIgnoredWithWarning2109OnAMarketOrder() {
        var state = connected(at: Self.ny(8, 0))
        var limit = wireOrder("BUY", 10, "LMT", limit: 101)
        limit.outsideRTH = true
        let limitPlaced = place(&state, 1, limit)
        #expect(!errorCodes(limitPlaced).contains(2109))
        #expect(names(limitPlaced).contains("execDetails"), "a marketable outside-RTH limit fills pre-market")
        var market = wireOrder("BUY", 10)
        market.outsideRTH = true
        let marketPlaced = place(&state, 2, market)
        #expect(errorCodes(marketPlaced) == [2109])
        #expect(Self.statuses(marketPlaced) == ["PreSubmitted"])
        #expect(!names(marketPlaced).contains("execDetails"))
    }

    @Test func realTimeBarsWithUseRTHStartAtTheOpenAndWithoutItComeAllMorning() {
        var state = connected(at: Self.ny(9, 20))
        for (id, useRTH) in [(20, true), (21, false)] {
            _ = state.handle(.realTimeBars(TWSRealTimeBarsRequest(
                requestID: id, contract: stock("SYN000"), barSize: 5, whatToShow: "TRADES", useRTH: useRTH)),
                from: 1, wallTime: 0)
        }
        let bars = sent(state.advance(to: Self.ny(9, 35))).compactMap { response -> (Int, Int64)? in
            if case .realTimeBar(let id, let bar) = response { (id, bar.time) } else { nil }
        }
        let open = Self.ny(9, 30).nanoseconds / 1_000_000_000
        let regular = bars.filter { $0.0 == 20 }.map(\.1), all = bars.filter { $0.0 == 21 }.map(\.1)
        #expect(regular.count == 60 && regular.min() == open, "five minutes of 5-second bars from 09:30")
        #expect(all.count == 180 && all.min() == open - 600, "fifteen minutes from 09:20")
    }

    @Test func historicalBarsWithUseRTHLeaveOutThePreMarket() throws {
        var state = connected(at: Self.ny(10, 0))
        func firstBar(useRTH: Bool, id: Int) throws -> (String, Int) {
            let answer = sent(state.handle(.historicalData(TWSHistoricalDataRequest(
                requestID: id, contract: stock("SYN000"), endDateTime: "", durationString: "10800 S",
                barSizeSetting: "1 min", whatToShow: "TRADES", useRTH: useRTH, formatDate: 2)), from: 1, wallTime: 0))
            var bars: [TWSBar] = []
            for response in answer { if case .historicalData(_, _, _, let some) = response { bars += some } }
            return (try #require(bars.first).date, bars.count)
        }
        let open = Self.ny(9, 30).nanoseconds / 1_000_000_000
        #expect(try firstBar(useRTH: true, id: 30) == (String(open), 30))
        #expect(try firstBar(useRTH: false, id: 31) == (String(open - 9_000), 180))
    }
}
