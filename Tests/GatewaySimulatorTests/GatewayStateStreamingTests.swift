import Foundation
import GatewayCore
import GatewaySimulator
import TWSProtocol
import Testing
import TWSTestSupport
import TradingModel

/// Orders and data that need the replay clock to move: partial fills, OCA, trailing stops, DAY expiry,
/// keepUpToDate, delayed data.
@Suite(.ownThread) struct GatewayStateStreamingTests {
    func connected(_ configuration: GatewayConfiguration = GatewayConfiguration()) -> GatewayState {
        var state = GatewayState(data: testData, configuration: configuration)
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    func statuses(_ responses: [TWSResponse], _ orderID: Int) -> [String] {
        responses.compactMap { if case .orderStatus(let s) = $0, s.orderID == orderID { return s.status } else {
            return nil } }
    }

    /// The bundled 1-minute stocks at 18:30 on 2011-01-05, a client connected: IBM and its quote.
    static func ibmAt1830() throws -> (GatewayState, SimulatedInstrument, TopOfBook) {
        let data = try MarketDataSet.bundled(.stocks1min)
        let at = Timestamp(year: 2011, month: 1, day: 5, secondOfDay: 18 * 3600 + 30 * 60)
        var state = GatewayState(data: data, configuration: GatewayConfiguration(), start: at)
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        let ibm = try #require(data.instruments.first { $0.symbol == "IBM" })
        return (state, ibm, try #require(QuoteModel.top(ibm, at: state.now)))
    }

    /// A market order larger than one quote can fill (the displayed size, or the volume of the data's bar under way
    /// when larger: a market order sweeps past the round lots on display) fills that much now, the rest on the next
    /// quote. IBM at 18:30 on 2011-01-05: 2,381 shares traded in the minute; a buy of 2,881 fills 2,381, then 500.
    @Test func largeOrderFillsPartiallyAgainstWhatAQuoteCanFillThenCompletes() throws {
        let (opened, ibm, top) = try Self.ibmAt1830()
        var state = opened
        #expect(top.liquidity == Quantity(2381) && top.size == Quantity(100))
        let first = sent(state.handle(.placeOrder(orderID: 1, contract: stock("IBM"), order: wireOrder("BUY", 2881)),
                                      from: 1, wallTime: 0))
        #expect(statuses(first, 1).last == "Submitted")
        let fills = first.compactMap { if case .executionDetails(_, _, let e) = $0 { return e.shares } else {
            return nil } }
        #expect(fills == [2381])
        let later = sent(state.advance(to: state.now + .seconds(10)))
        let rest: [Decimal] = later.compactMap { if case .executionDetails(_, _, let e) = $0 { return e.shares } else { return nil } }
        #expect(rest == [500])
        #expect(statuses(later, 1).last == "Filled")
        #expect(state.account.holdings[ibm.id]?.quantity == Quantity(2881))
    }

    /// The sandbox's drift from 2011-01-04 (issue 80): at 18:30 on 2011-01-05, IBM shows 100 shares at the ask, in
    /// a minute that trades 2,381. A market buy of 168 fills at once at the ask, as the backtest fills it; it used to
    /// fill 100 now and 68 on the next quote at another price.
    @Test func aMarketOrderSweepsPastTheDisplayedSizeUpToTheBarsVolume() throws {
        let (opened, _, top) = try Self.ibmAt1830()
        var state = opened
        #expect(top.size == Quantity(100) && top.liquidity == Quantity(2381), "\(top)")
        let placed = sent(state.handle(.placeOrder(orderID: 1, contract: stock("IBM"), order: wireOrder("BUY", 168)),
                                       from: 1, wallTime: 0))
        let fills = placed.compactMap { if case .executionDetails(_, _, let e) = $0 { return e.shares } else { return nil } }
        #expect(fills == [168])
        #expect(statuses(placed, 1).last == "Filled")
    }

    @Test func ocaGroupCancelsTheSiblingWhenOneFills() {
        var state = connected()
        var resting = wireOrder("BUY", 10, "LMT", limit: 1)
        resting.ocaGroup = "g1"
        var market = wireOrder("BUY", 10)
        market.ocaGroup = "g1"
        _ = state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: resting), from: 1, wallTime: 0)
        let out = sent(state.handle(.placeOrder(orderID: 2, contract: stock("SYN000"), order: market), from: 1,
                                    wallTime: 0))
        #expect(statuses(out, 2).last == "Filled")
        #expect(statuses(out, 1) == ["Cancelled"])
    }

    @Test func trailingStopFollowsThePathAndFires() {
        var state = connected()
        _ = state.handle(.placeOrder(orderID: 1, contract: stock("SYN001"), order: wireOrder("BUY", 100)), from: 1,
                         wallTime: 0)
        var trail = wireOrder("SELL", 100, "TRAIL", aux: 0.05)
        trail.timeInForce = "GTC"
        let placed = sent(state.handle(.placeOrder(orderID: 2, contract: stock("SYN001"), order: trail), from: 1,
                                       wallTime: 0))
        #expect(statuses(placed, 2) == ["PreSubmitted"])
        let later = sent(state.advance(to: state.now + .hours(7)))
        #expect(statuses(later, 2).last == "Filled")
        #expect(state.account.holdings[InstrumentID(1)]?.quantity == .zero)
    }

    @Test func dayOrderExpiresAtTheNextSession() {
        var state = connected()
        _ = state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 10, "LMT", limit: 1)),
                         from: 1, wallTime: 0)
        let later = sent(state.advance(to: state.now + .days(1)))
        #expect(statuses(later, 1) == ["Cancelled"])
    }

    @Test func globalCancelCancelsEveryOpenOrder() {
        var state = connected()
        for id in 1...3 {
            _ = state.handle(.placeOrder(orderID: id, contract: stock("SYN000"),
                                         order: wireOrder("BUY", 10, "LMT", limit: 1)), from: 1, wallTime: 0)
        }
        let out = sent(state.handle(.globalCancel(TWSOrderCancel()), from: 1, wallTime: 0))
        #expect((1...3).map { statuses(out, $0) } == [["Cancelled"], ["Cancelled"], ["Cancelled"]])
        #expect(errorCodes(out) == [202, 202, 202])
    }

    @Test func keepUpToDateSendsTheFormingBar() {
        var state = connected()
        _ = state.advance(to: state.now + .minutes(10))
        let request = TWSHistoricalDataRequest(
            requestID: 3, contract: stock("SYN000"), endDateTime: "", durationString: "1 D", barSizeSetting: "5 mins",
            whatToShow: "TRADES", useRTH: true, keepUpToDate: true)
        let first = sent(state.handle(.historicalData(request), from: 1, wallTime: 0))
        #expect(names(first) == ["historicalData", "historicalDataEnd"])
        let updates = sent(state.advance(to: state.now + .seconds(30)))
        #expect(updates.contains { $0.messageName == "historicalDataUpdate" })
        _ = state.handle(.cancelHistoricalData(requestID: 3), from: 1, wallTime: 0)
        #expect(!sent(state.advance(to: state.now + .seconds(30))).contains { $0.messageName == "historicalDataUpdate" })
    }

    @Test func notEntitledLiveDataGets354OrDelayedWith10167() {
        var state = connected(GatewayConfiguration(liveDataEntitled: false))
        let live = sent(state.handle(.marketData(TWSMarketDataRequest(requestID: 1, contract: stock("SYN000"))),
                                     from: 1, wallTime: 0))
        #expect(errorCodes(live) == [354])
        _ = state.handle(.marketDataType(3), from: 1, wallTime: 0)
        let delayed = sent(state.handle(.marketData(TWSMarketDataRequest(requestID: 2, contract: stock("SYN000"))),
                                        from: 1, wallTime: 0))
        #expect(errorCodes(delayed) == [10167])
        #expect(delayed.contains(.marketDataType(requestID: 2, marketDataType: 3)))
        let types = delayed.compactMap { if case .tickPrice(let t) = $0 { return t.tickType.rawValue } else {
            return nil } }
        #expect(types.contains(66) && types.contains(67) && types.contains(68))
    }

    @Test func snapshotEndsWithTickSnapshotEnd() {
        var state = connected()
        let out = sent(state.handle(.marketData(TWSMarketDataRequest(requestID: 4, contract: stock("SYN000"),
                                                                    snapshot: true)), from: 1, wallTime: 0))
        #expect(out.last == .tickSnapshotEnd(requestID: 4))
        #expect(!sent(state.advance(to: state.now + .seconds(10))).contains { $0.messageName == "tickPrice" })
    }

    @Test func pnlStreamsWithTheClock() {
        var state = connected()
        _ = state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 100)), from: 1,
                         wallTime: 0)
        let first = sent(state.handle(.pnl(requestID: 8, account: "DU1234567", modelCode: ""), from: 1, wallTime: 0))
        #expect(names(first) == ["pnl"])
        let later = sent(state.advance(to: state.now + .seconds(5)))
        #expect(later.contains { $0.messageName == "pnl" })
    }

    @Test func volumesAreWholeShares() throws {
        let instrument = testData.instruments[2]
        let state = connected()
        let quote = try #require(QuoteModel.quote(instrument, at: state.now + .minutes(37) + .seconds(3)))
        #expect(quote.volume.units % 100_000_000 == 0)
        #expect(quote.volume.units > 0)
    }
}

extension GatewayStateStreamingTests {
    @Test func accountUpdatesRefreshEveryThreeMinutes() {
        var state = connected()
        _ = state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 100)), from: 1,
                         wallTime: 0)
        let first = sent(state.handle(.accountUpdates(subscribe: true, accountCode: "DU1234567"), from: 1,
                                      wallTime: 0))
        #expect(names(first).suffix(3) == ["updatePortfolio", "updateAccountTime", "accountDownloadEnd"])
        let oneMinute = sent(state.advance(to: state.now + .minutes(1)))
        let threeMinutes = sent(state.advance(to: state.now + .minutes(3)))
        // The replay starts at 14:30:00, a 3-minute boundary: 14:31 is inside the period, 14:34 after the next.
        #expect(!oneMinute.contains { $0.messageName == "updatePortfolio" })
        #expect(threeMinutes.contains { $0.messageName == "updatePortfolio" })
        #expect(threeMinutes.contains { $0.messageName == "updateAccountTime" })
    }
}
