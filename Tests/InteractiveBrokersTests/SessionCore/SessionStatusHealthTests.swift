import Foundation
import Testing
import TradingModel
import TWSProtocol

@testable import LiveSession

/// The dashboard's health figures from the session core (issue 23): the gateway's round trip, IB's next reset
/// and weekly logon, each symbol's market-data type and the lines held open.
struct SessionStatusHealthTests {
    typealias Harness = SessionCoreHarness<InAndOut>

    @Test func theHeartbeatsRoundTripResetTimesAndMarketDataTypesAreShown() throws {
        var settings = Harness.settings(symbols: ["AAPL", "MSFT"])
        settings.watchHalts = true
        settings.resilience.resetSchedule = .northAmerica
        var harness = Harness(InAndOut(), settings: settings)
        let actions = harness.startUp()
        let quotes = try #require(actions.compactMap { if case .subscribeQuotes(let tag, _, _) = $0 { tag } else { nil } }.first)
        var status = harness.core.status(at: harness.now)
        #expect(status.budgets.marketDataLines == 2 && status.budgets.realTimeBarStreams == 2)
        #expect(status.connection.marketData == [.init(symbol: "AAPL", type: "live"), .init(symbol: "MSFT", type: "live")])
        // 2023-11-14 22:13:20 UTC (17:13 New York, a Tuesday): tonight 23:45 EST, Sunday 00:00 EST.
        #expect(status.connection.nextNightlyReset == "2023-11-15T04:45:00Z")
        #expect(status.connection.nextWeeklyLogon == "2023-11-19T05:00:00Z")

        harness.send(.quotes(quotes, .fellBackToDelayed(InstrumentID(index: 1))))
        status = harness.core.status(at: harness.now)
        #expect(status.connection.marketData.map(\.type) == ["live", "delayed"])

        // 31 s without a word from the gateway: the heartbeat asks the time; its answer 25 ms later is the round trip.
        let probe = harness.send(.tick, after: .seconds(31))
        let (tag, _) = try #require(Harness.requests(probe).first { $0.1 == .serverTime }, "the heartbeat's probe")
        harness.send(.answer(tag, .serverTime(0)), after: .milliseconds(25))
        status = harness.core.status(at: harness.now)
        #expect(status.connection.roundTripMilliseconds == 25)
        #expect(status.connection.roundTripAt == harness.now.description)
    }

    /// The page's fills: a fill whose commission has not come yet says "pending", then shows it once it comes; the
    /// connection's history keeps connects, 1100 and 1101, newest first.
    @Test func fillsShowTheirCommissionStateAndTheConnectionKeepsItsHistory() throws {
        var harness = Harness(InAndOut())
        harness.startUp()
        let buy = try #require(OperatorControlTests.bar(&harness, 60).placed.first)
        let report = Harness.execution(of: buy, id: "E-1")
        harness.send(.orderEvent(generation: 1, .execution(report)))
        #expect(harness.core.status(at: harness.now).fills.isEmpty, "held for its commission (orders.commissionWait, 5 s)")
        OperatorControlTests.bar(&harness, 70)  // the wait runs on data time, released by the timer
        harness.send(.tick, after: .seconds(1))
        var fill = try #require(harness.core.status(at: harness.now).fills.first)
        #expect(fill.symbol == "AAPL" && fill.side == "BUY" && fill.quantity == 10 && fill.price == 100)
        #expect(fill.commissionPending && fill.commission == nil)
        #expect(fill.orderRef == buy.orders[0].clientOrderID.rawValue)
        var withCommission = report
        withCommission.commission = TWSCommissionReport(executionID: "E-1", commission: 1.25, currency: "USD")
        harness.send(.orderEvent(generation: 1, .commission(withCommission)))
        fill = try #require(harness.core.status(at: harness.now).fills.first)
        #expect(!fill.commissionPending && fill.commission == 1.25)

        harness.send(.connectivity(generation: 1, .lost), after: .seconds(1))
        harness.send(.connectivity(generation: 1, .restored(dataLost: true)), after: .seconds(1))
        let history = harness.core.status(at: harness.now).connection.history.map(\.event)
        #expect(history.count == 3)
        #expect(history[0] == "1101: IB connectivity restored, market data lost")
        #expect(history[1] == "1100: TWS lost its connection to IB")
        #expect(history[2].hasPrefix("connected (server version 178"))
    }
}
