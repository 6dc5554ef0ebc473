import BundledData
import Foundation
import GatewayCore
import GatewaySimulator
import TWSProtocol
import Testing
import TradingModel

/// The pure core: requests and clock steps in, TWS messages out, no sockets.
@Suite struct GatewayStateTests {
    func connected() -> GatewayState {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    @Test func connectSendsAccountsIdsAndFarmsThenDuplicateClientIDGets326() {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        let hello = sent(state.connect(connection: 1, clientID: 7, serverVersion: 200))
        #expect(names(hello) == ["managedAccounts", "nextValidId", "errMsg", "errMsg", "errMsg"])
        #expect(hello.first == .managedAccounts(accountsList: "DU1234567"))
        #expect(errorCodes(hello) == [2104, 2106, 2158])
        let duplicate = state.connect(connection: 2, clientID: 7, serverVersion: 178)
        #expect(errorCodes(sent(duplicate, to: 2)) == [326])
        #expect(duplicate.last == .close(2))
        #expect(state.connectedClientIDs == [7])
    }

    @Test func defaultStartLeavesAYearOfHistory() throws {
        let state = GatewayState(data: testData, configuration: GatewayConfiguration())
        let first = try #require(testData.instruments[0].series.firstTime)
        #expect(state.now - first >= .days(365))
        #expect(testData.instruments[0].series.isTrading(at: state.now))
    }

    /// A month of 1-minute bars has no session a year in: it starts halfway (before, at its last bar, with nothing
    /// left to replay).
    @Test func dataShorterThanAYearStartsHalfway() throws {
        let data = try MarketDataSet.bundled(.stocks1min)
        // The session's first bar, stamped at its start (9:30 New York).
        #expect(data.defaultStart == Timestamp(year: 2011, month: 1, day: 18, secondOfDay: 14 * 3600 + 30 * 60))
        #expect(data.instruments.allSatisfy { $0.series.isTrading(at: data.defaultStart) })
    }

    @Test func contractDetailsAndUnknownSymbol() {
        var state = connected()
        let details = sent(state.handle(.contractDetails(requestID: 3, contract: stock("SYN001")), from: 1, wallTime: 0))
        #expect(names(details) == ["contractDetails", "contractDetailsEnd"])
        if case .contractDetails(_, let d) = details[0] {
            #expect(d.contract.contractID == 100_001)
            #expect(d.contract.exchange == "SMART")
            #expect(d.contract.primaryExchange == "NYSE")
            #expect(d.minTick == 0.01)
            #expect(!d.longName.isEmpty && !d.tradingHours.isEmpty)
        }
        let unknown = sent(state.handle(.contractDetails(requestID: 4, contract: stock("NOPE")), from: 1, wallTime: 0))
        #expect(errorCodes(unknown) == [200])
        #expect(unknown.count == 1)
    }

    @Test func dailyHistoryMatchesTheDataAndStopsAtNow() throws {
        var state = connected()
        let request = TWSHistoricalDataRequest(
            requestID: 5, contract: stock("SYN000"), endDateTime: "", durationString: "10 D", barSizeSetting: "1 day",
            whatToShow: "TRADES", useRTH: true)
        let out = sent(state.handle(.historicalData(request), from: 1, wallTime: 0))
        #expect(names(out) == ["historicalData", "historicalDataEnd"])
        guard case .historicalData(_, _, _, let bars) = out[0] else { Issue.record("no bars"); return }
        let source = testData.instruments[0].series.bars
        let lastComplete = try #require(source.last { $0.timestamp.dayNumber < state.now.dayNumber })
        // The session opens right now: nothing has traded today, so the last bar is the previous session's.
        let last = try #require(bars.last)
        #expect(last.close == lastComplete.close.doubleValue)
        #expect(last.open == lastComplete.open.doubleValue)
        #expect(last.date == TWSTimeTextForTests.date(lastComplete.timestamp))
        _ = state.advance(to: state.now + .minutes(30))
        let later = sent(state.handle(.historicalData(request), from: 1, wallTime: 0))
        guard case .historicalData(_, _, _, let withToday) = later[0] else { return }
        #expect(withToday.count == bars.count + 1)
    }

    @Test func intradayBarsAreConsistentWithTheDailyBar() throws {
        var state = connected()
        _ = state.advance(to: state.now + .hours(7))
        let request = TWSHistoricalDataRequest(
            requestID: 6, contract: stock("SYN000"), endDateTime: "", durationString: "1 D", barSizeSetting: "1 hour",
            whatToShow: "TRADES", useRTH: true, formatDate: 2)
        let out = sent(state.handle(.historicalData(request), from: 1, wallTime: 0))
        guard case .historicalData(_, _, _, let bars) = out.first else { Issue.record("no bars"); return }
        let day = try #require(testData.instruments[0].series.bars.last { $0.timestamp.dayNumber == state.now.dayNumber })
        #expect(bars.count == 7)
        #expect(bars.map(\.high).max() == day.high.doubleValue)
        #expect(bars.map(\.low).min() == day.low.doubleValue)
        #expect(bars.first?.open == day.open.doubleValue)
        #expect(bars.last?.close == day.close.doubleValue)
        #expect(Int64(bars[0].date) != nil)
    }

    @Test func marketOrderFillsAtOnceAtTheAskInTWSOrder() throws {
        var state = connected()
        let quote = try #require(QuoteModel.quote(testData.instruments[0], at: state.now))
        let out = sent(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 100)),
                                    from: 1, wallTime: 0))
        #expect(names(out) == ["openOrder", "orderStatus", "execDetails", "orderStatus", "openOrder", "commissionReport"])
        guard case .executionDetails(let requestID, _, let execution) = out[2] else { return }
        #expect(requestID == -1)
        #expect(execution.price == quote.ask.doubleValue)
        #expect(execution.side == "BOT")
        guard case .orderStatus(let status) = out[3], case .commissionReport(let commission) = out[5] else { return }
        #expect(status.status == "Filled")
        #expect(commission.commission == 1.0)
        #expect(commission.executionID == execution.executionID)
        #expect(state.account.holdings[InstrumentID(0)]?.quantity == Quantity(100))
    }

    @Test func bracketWaitsForTheTransmittingChild() {
        var state = connected()
        var parent = wireOrder("BUY", 10, "LMT", limit: 1)
        parent.transmit = false
        var profit = wireOrder("SELL", 10, "LMT", limit: 10_000)
        profit.parentID = 1
        profit.transmit = false
        var loss = wireOrder("SELL", 10, "STP", aux: 0.5)
        loss.parentID = 1
        #expect(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: parent), from: 1, wallTime: 0)
            .isEmpty)
        #expect(state.handle(.placeOrder(orderID: 2, contract: stock("SYN000"), order: profit), from: 1, wallTime: 0)
            .isEmpty)
        let released = sent(state.handle(.placeOrder(orderID: 3, contract: stock("SYN000"), order: loss), from: 1,
                                         wallTime: 0))
        let statuses = released.compactMap { r -> (Int, String)? in
            if case .orderStatus(let s) = r { return (s.orderID, s.status) } else { return nil }
        }
        #expect(statuses.map(\.0) == [1, 2, 3])
        #expect(statuses.map(\.1) == ["Submitted", "PreSubmitted", "PreSubmitted"])
    }

    /// 201 with a reason, except an off-tick price: IB's error 110 (a stop or limit of 10.005 on a 0.01 tick).
    @Test(arguments: ["size 0", "minimum price variation", "buying power", "not supported"])
    func rejectionsAre201WithAReason(reason: String) {
        let order: TWSOrder
        switch reason {
        case "size 0": order = wireOrder("BUY", 0, "LMT", limit: 10)
        case "minimum price variation": order = wireOrder("BUY", 10, "LMT", limit: 10.005)
        case "buying power": order = wireOrder("BUY", 10_000_000)
        default: order = wireOrder("BUY", 10, "MOC")
        }
        var state = connected()
        let out = sent(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: order), from: 1,
                                    wallTime: 0))
        #expect(names(out) == ["errMsg", "orderStatus"])
        if case .orderStatus(let status) = out.last { #expect(status.status == "Cancelled") }
        guard case .error(let error) = out.first else { Issue.record("no error"); return }
        #expect(error.code == (reason == "minimum price variation" ? 110 : 201))
        #expect(error.requestID == 1)
        #expect(error.message.contains(reason))
    }

    @Test func anOffTickStopOrModificationIs110AndAnOnTickOneIsAccepted() {
        var state = connected()
        let stop = sent(state.handle(
            .placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("SELL", 10, "STP", aux: 9.9951)),
            from: 1, wallTime: 0))
        #expect(errorCodes(stop) == [110])
        let resting = sent(state.handle(
            .placeOrder(orderID: 2, contract: stock("SYN000"), order: wireOrder("BUY", 10, "LMT", limit: 1)), from: 1,
            wallTime: 0))
        #expect(errorCodes(resting).isEmpty)
        let modified = sent(state.handle(
            .placeOrder(orderID: 2, contract: stock("SYN000"), order: wireOrder("BUY", 10, "LMT", limit: 1.015)),
            from: 1, wallTime: 0))
        #expect(errorCodes(modified) == [110])
    }

    @Test func cancelSendsCancelledAnd202() {
        var state = connected()
        _ = state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 10, "LMT", limit: 1)),
                         from: 1, wallTime: 0)
        let out = sent(state.handle(.cancelOrder(orderID: 1, TWSOrderCancel()), from: 1, wallTime: 0))
        #expect(names(out) == ["orderStatus", "errMsg"])
        #expect(errorCodes(out) == [202])
    }

    @Test func accountValuesFollowTheFills() throws {
        var state = connected()
        _ = state.handle(.placeOrder(orderID: 1, contract: stock("SYN001"), order: wireOrder("BUY", 200)), from: 1,
                         wallTime: 0)
        _ = state.handle(.placeOrder(orderID: 2, contract: stock("SYN001"), order: wireOrder("SELL", 50)), from: 1,
                         wallTime: 0)
        let holding = try #require(state.account.holdings[InstrumentID(1)])
        #expect(holding.quantity == Quantity(150))
        let summary = sent(state.handle(.accountSummary(requestID: 9, group: "All", tags: "TotalCashValue,RealizedPnL"),
                                        from: 1, wallTime: 0))
        #expect(names(summary) == ["accountSummary", "accountSummary", "accountSummaryEnd"])
        let executions = sent(state.handle(.executions(requestID: 10, filter: TWSExecutionFilter()), from: 1,
                                           wallTime: 0))
        #expect(names(executions) == ["execDetails", "commissionReport", "execDetails", "commissionReport",
                                      "execDetailsEnd"])
        var sells = TWSExecutionFilter()
        sells.side = "SELL"
        let filtered = sent(state.handle(.executions(requestID: 11, filter: sells), from: 1, wallTime: 0))
        #expect(names(filtered) == ["execDetails", "commissionReport", "execDetailsEnd"])
        // The filter's time (IB's explicit UTC form): the executions at or after it; unreadable text filters nothing.
        func since(_ text: String) -> [String] {
            var filter = TWSExecutionFilter()
            filter.time = text
            return names(sent(state.handle(.executions(requestID: 12, filter: filter), from: 1, wallTime: 0)))
        }
        let utc = DateFormatter()
        utc.dateFormat = "yyyyMMdd-HH:mm:ss"
        utc.timeZone = TimeZone(identifier: "UTC")
        func text(_ time: Timestamp) -> String {
            utc.string(from: Date(timeIntervalSince1970: Double(time.nanoseconds / 1_000_000_000)))
        }
        #expect(since(text(state.now - .seconds(1))).count == 5)
        #expect(since(text(state.now + .seconds(1))) == ["execDetailsEnd"])
        #expect(since("not a time").count == 5)
    }

    @Test func stateSurvivesAReconnect() {
        var state = connected()
        _ = state.handle(.placeOrder(orderID: 5, contract: stock("SYN000"), order: wireOrder("BUY", 10, "LMT", limit: 1)),
                         from: 1, wallTime: 0)
        state.disconnect(connection: 1)
        let hello = sent(state.connect(connection: 2, clientID: 7, serverVersion: 200), to: 2)
        #expect(hello.contains(.nextValidID(orderID: 6)))
        let open = sent(state.handle(.openOrders, from: 2, wallTime: 0), to: 2)
        #expect(names(open) == ["openOrder", "orderStatus", "openOrderEnd"])
    }

    @Test func streamingTicksAndRealTimeBarsFollowTheClock() {
        var state = connected()
        let first = sent(state.handle(.marketData(TWSMarketDataRequest(requestID: 20, contract: stock("SYN000"))),
                                      from: 1, wallTime: 0))
        #expect(names(first).prefix(2) == ["marketDataType", "tickReqParams"])
        #expect(names(first).contains("tickPrice"))
        _ = state.handle(.realTimeBars(TWSRealTimeBarsRequest(requestID: 21, contract: stock("SYN000"),
                                                              whatToShow: "TRADES", useRTH: true)), from: 1, wallTime: 0)
        let later = sent(state.advance(to: state.now + .seconds(60)))
        #expect(later.filter { $0.messageName == "realTimeBars" }.count == 12)
        #expect(later.contains { $0.messageName == "tickPrice" })
    }

    @Test func pacingViolationIs162() {
        var state = connected()
        _ = state.advance(to: state.now + .minutes(10))
        let request = TWSHistoricalDataRequest(
            requestID: 30, contract: stock("SYN000"), endDateTime: "", durationString: "60 S",
            barSizeSetting: "5 secs", whatToShow: "TRADES", useRTH: true)
        #expect(errorCodes(sent(state.handle(.historicalData(request), from: 1, wallTime: 0))).isEmpty)
        let again = sent(state.handle(.historicalData(request), from: 1, wallTime: 3))
        #expect(errorCodes(again) == [162])
        guard case .error(let error) = again.first else { return }
        #expect(error.message.contains("Pacing violation"))
    }
}

/// `yyyyMMdd` of a timestamp (UTC), as historical day bars spell it.
enum TWSTimeTextForTests {
    static func date(_ t: Timestamp) -> String {
        let (y, m, d) = t.civilDate
        return String(format: "%04d%02d%02d", y, m, d)
    }
}

/// Hostile input never traps: it is refused with TWS's error codes.
@Suite struct HostileInputTests {
    @Test(arguments: [1e300, -1e300, Double.nan, Double.infinity])
    func absurdPricesAreRejected(price: Double) {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 1, serverVersion: 200)
        let out = sent(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"),
                                                order: wireOrder("BUY", 10, "LMT", limit: price)), from: 1, wallTime: 0))
        #expect(errorCodes(out) == [201])
    }

    @Test func absurdIDsDurationsAndFiltersAreRefused() {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 1, serverVersion: 200)
        let huge = sent(state.handle(.placeOrder(orderID: Int.max, contract: stock("SYN000"),
                                                 order: wireOrder("BUY", 10)), from: 1, wallTime: 0))
        #expect(errorCodes(huge) == [321])
        let bigQuantity = sent(state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"),
                                                        order: wireOrder("BUY", Decimal(string: "1e30")!)),
                                            from: 1, wallTime: 0))
        #expect(errorCodes(bigQuantity) == [201])
        let request = TWSHistoricalDataRequest(
            requestID: 2, contract: stock("SYN000"), endDateTime: "", durationString: "9223372036854775807 Y",
            barSizeSetting: "1 day", whatToShow: "TRADES", useRTH: true)
        #expect(errorCodes(sent(state.handle(.historicalData(request), from: 1, wallTime: 0))) == [162])
        var filter = TWSExecutionFilter()
        filter.lastNDays = Int.max
        #expect(names(sent(state.handle(.executions(requestID: 3, filter: filter), from: 1, wallTime: 0)))
            == ["execDetailsEnd"])
        #expect(FaultCommand.parse("delay 1e300") == nil)
        #expect(FaultCommand.parse("advance -5") == nil)
    }
}
