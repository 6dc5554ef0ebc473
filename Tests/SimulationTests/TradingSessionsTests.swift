import Simulation
import Testing
import TradingModel

/// Orders trade in the US stock sessions their type and terms allow, on intraday bars (`SimulationConfig.sessions`):
/// what IB does with an order outside regular hours, in the backtest and the gateway simulator alike.
@Suite struct TradingSessionsTests {
    /// New York time in January 2024 (EST, UTC−5): the 8th is a Monday, the 15th Martin Luther King Jr. Day.
    static func ny(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Timestamp {
        Timestamp(year: 2024, month: 1, day: day) + .seconds(Int64((hour + 5) * 3600 + minute * 60))
    }

    static func bar(_ time: Timestamp, _ open: String, _ high: String, _ low: String, _ close: String) -> Bar {
        Bar(timestamp: time, open: Price(open)!, high: Price(high)!, low: Price(low)!, close: Price(close)!,
            volume: Quantity(10_000))
    }

    static func order(
        _ id: Int64, _ side: Side, _ type: OrderType, tif: TimeInForce = .gtc, execution: OrderExecution? = nil
    ) -> Order {
        var request = OrderRequest(instrument: T.id, side: side, quantity: Quantity(10), type: type, timeInForce: tif)
        request.execution = execution
        return Order(id: OrderID(id), clientOrderID: ClientOrderID("c\(id)"), request: request, createdAt: .zero)
    }

    /// An engine that has seen two minute bars ending at `time` (so its data is intraday).
    struct Session {
        var engine: MatchingEngine
        var now: Timestamp

        init(_ rules: TradingSessions? = TradingSessions(), at time: Timestamp) {
            var config = SimulationConfig()
            config.sessions = rules
            engine = MatchingEngine(config: config, instrumentCount: 1)
            var ignored: [ExecutionReport] = []
            engine.process(bar: bar(time - .seconds(60), "100", "100", "100", "100"), for: T.id, into: &ignored)
            engine.process(bar: bar(time, "100", "100", "100", "100"), for: T.id, into: &ignored)
            now = time
        }

        mutating func submit(_ order: Order) {
            var ignored: [ExecutionReport] = []
            engine.submit(order, at: now, into: &ignored)
        }

        /// Feeds one bar at `time` and returns its reports.
        mutating func feed(_ time: Timestamp, _ open: String, _ high: String, _ low: String, _ close: String)
            -> [ExecutionReport]
        {
            var reports: [ExecutionReport] = []
            engine.process(bar: bar(time, open, high, low, close), for: T.id, into: &reports)
            now = time
            return reports
        }
    }

    @Test func aMarketOrderBeforeTheOpenWaitsForTheRegularSessionAndFillsAtItsOpen() {
        var s = Session(at: Self.ny(8, 8, 0))
        s.submit(Self.order(1, .buy, .market))
        // Pre-market bars trade, but not for this order.
        for minute in 1..<90 {
            #expect(s.feed(Self.ny(8, 8, minute), "100", "100.5", "99.5", "100").isEmpty, "08:\(minute)")
        }
        let open = T.fills(s.feed(Self.ny(8, 9, 30), "101", "101.5", "100.5", "101"))
        #expect(open.map(\.price) == [Price(101)])
        #expect(open.map(\.timestamp) == [Self.ny(8, 9, 30)])
    }

    @Test func outsideRegularHoursLetsLimitAndStopLimitOrdersTradeBeforeTheOpenButNotMarketOrStopOrders() {
        var s = Session(at: Self.ny(8, 7, 0))
        let outside = OrderExecution(outsideRegularHours: true)
        s.submit(Self.order(1, .buy, .limit(Price(99)), execution: outside))
        s.submit(Self.order(2, .buy, .market, execution: outside))  // IB: outsideRth ignored (2109)
        s.submit(Self.order(3, .sell, .stop(Price(99)), execution: outside))
        s.submit(Self.order(4, .sell, .stopLimit(stop: Price(99), limit: Price(98)), execution: outside))
        s.submit(Self.order(5, .buy, .limit(Price(99))))  // not marked: regular hours only
        let reports = s.feed(Self.ny(8, 7, 1), "100", "100", "98.5", "99")
        #expect(Set(T.fills(reports).map(\.orderID)) == [OrderID(1), OrderID(4)])
        let atOpen = s.feed(Self.ny(8, 9, 30), "99", "99", "98", "98.5")
        #expect(Set(T.fills(atOpen).map(\.orderID)) == [OrderID(2), OrderID(3), OrderID(5)])
    }

    @Test func theRunsOwnOutsideRegularHoursMarksEveryOrderAsTheLiveBotDoes() {
        var s = Session(TradingSessions(outsideRegularHours: true), at: Self.ny(8, 16, 30))
        s.submit(Self.order(1, .buy, .limit(Price(99))))
        s.submit(Self.order(2, .buy, .market))
        let afterHours = s.feed(Self.ny(8, 16, 31), "99", "99.5", "98.5", "99")
        #expect(T.fills(afterHours).map(\.orderID) == [OrderID(1)], "the limit fills after hours, the market order waits")
        #expect(s.feed(Self.ny(8, 19, 59), "99", "99", "99", "99").isEmpty)
        // After 20:00 every venue but the overnight one is closed; the market order works at Tuesday's open.
        #expect(s.feed(Self.ny(8, 20, 30), "99", "99", "99", "99").isEmpty)
        #expect(T.fills(s.feed(Self.ny(9, 9, 30), "97", "97", "97", "97")).map(\.orderID) == [OrderID(2)])
    }

    @Test func theOvernightSessionTakesLimitOrdersMarkedForItOnly() {
        var s = Session(at: Self.ny(8, 20, 59))
        s.submit(Self.order(1, .buy, .limit(Price(99)), execution: OrderExecution(includeOvernight: true)))
        s.submit(Self.order(2, .buy, .limit(Price(99)), execution: OrderExecution(outsideRegularHours: true)))
        s.submit(Self.order(3, .buy, .market, execution: OrderExecution(includeOvernight: true)))
        let night = s.feed(Self.ny(8, 21, 0), "99", "99", "98", "98.5")
        #expect(T.fills(night).map(\.orderID) == [OrderID(1)])
        // 03:50–04:00 nothing trades; at 04:00 pre-market takes the outside-RTH limit.
        #expect(s.feed(Self.ny(9, 3, 55), "98", "98", "98", "98").isEmpty)
        #expect(T.fills(s.feed(Self.ny(9, 4, 0), "98", "98", "98", "98")).map(\.orderID) == [OrderID(2)])
        #expect(T.fills(s.feed(Self.ny(9, 9, 30), "98", "98", "98", "98")).map(\.orderID) == [OrderID(3)])
    }

    @Test func aDayOrderPlacedAfterTheCloseWorksTheNextTradingDayThenExpiresAtItsClose() {
        var s = Session(at: Self.ny(12, 17, 0))  // Friday after the close
        s.submit(Self.order(1, .buy, .limit(Price(90)), tif: .day))
        // Not at the UTC day's change (19:00 New York), not over the weekend or Monday's holiday (a bar outside what
        // would be its regular hours is no evidence that the market opened).
        #expect(s.feed(Self.ny(12, 19, 30), "100", "100", "100", "100").isEmpty)
        #expect(s.feed(Self.ny(15, 8, 0), "100", "100", "100", "100").isEmpty)
        #expect(s.feed(Self.ny(16, 15, 59), "100", "100", "100", "100").isEmpty)
        #expect(s.engine.workingOrderIDs == [OrderID(1)])
        #expect(s.feed(Self.ny(16, 16, 0), "100", "100", "100", "100") == [.expired(OrderID(1), at: Self.ny(16, 16, 0))])
        #expect(TradingSessions().dayOrderExpiry(submittedAt: Self.ny(12, 17, 0), sessions: [.regular]) == Self.ny(16, 16, 0))
        // Placed at the very close, it is for the next trading day (generated mutation: `>` at the close).
        #expect(TradingSessions().dayOrderExpiry(submittedAt: Self.ny(8, 16, 0), sessions: [.regular]) == Self.ny(9, 16, 0))
        #expect(TradingSessions().dayOrderExpiry(submittedAt: Self.ny(12, 17, 0), sessions: [.regular, .afterHours])
            == Self.ny(12, 20, 0), "an outside-RTH DAY order works the rest of Friday's after-hours")
    }

    /// Issue 80: the data over the calendar. Monday 2024-01-15 is a listed holiday; a bar inside its would-be regular
    /// hours is evidence that the market opened: the day trades as an ordinary one.
    @Test func aBarOnAListedHolidayOpensTheDay() {
        var s = Session(at: Self.ny(12, 17, 0))  // Friday after the close
        s.submit(Self.order(1, .buy, .limit(Price(90)), tif: .day))
        s.submit(Self.order(2, .buy, .market))
        // The first bar of the holiday's regular hours fills the market order held since Friday.
        #expect(T.fills(s.feed(Self.ny(15, 9, 30), "100", "100", "100", "100")).map(\.orderID) == [OrderID(2)])
        #expect(s.engine.openedDays == [USEquityCalendar.newYorkDay(of: Self.ny(15, 12, 0))])
        // The DAY order now ends at Monday's close, not Tuesday's.
        #expect(s.feed(Self.ny(15, 16, 0), "100", "100", "100", "100") == [.expired(OrderID(1), at: Self.ny(15, 16, 0))])
        // Given in advance (what the gateway simulator does with its data), the same day is open from the start.
        let given = TradingSessions(openDays: [USEquityCalendar.newYorkDay(of: Self.ny(15, 12, 0))])
        #expect(given.dayOrderExpiry(submittedAt: Self.ny(12, 17, 0), sessions: [.regular]) == Self.ny(15, 16, 0))
        #expect(TradingSessions.daysWithBars([Self.ny(15, 9, 30), Self.ny(16, 9, 30), Self.ny(13, 3, 0)])
            == [USEquityCalendar.newYorkDay(of: Self.ny(15, 12, 0))])
    }

    @Test func anIOCOrderOutsideItsSessionIsCancelledNotHeld() {
        var s = Session(at: Self.ny(8, 8, 0))
        s.submit(Self.order(1, .buy, .market, tif: .ioc))
        let reports = s.feed(Self.ny(8, 8, 1), "100", "100", "100", "100")
        #expect(T.canceled(reports).map(\.1) == [.immediateOrCancel])
        #expect(!s.engine.hasWorkingOrders)
    }

    @Test func aModificationToAnotherTypeTakesThatTypesSessions() {
        var s = Session(at: Self.ny(8, 8, 0))
        s.submit(Self.order(1, .buy, .market, execution: OrderExecution(outsideRegularHours: true)))
        #expect(s.feed(Self.ny(8, 8, 1), "100", "100", "99", "99.5").isEmpty)
        var reports: [ExecutionReport] = []
        s.engine.modify(
            OrderID(1), OrderModification(type: .limit(Price(99))), context: (filled: .zero, now: Self.ny(8, 8, 1)),
            into: &reports)
        #expect(T.fills(s.feed(Self.ny(8, 8, 2), "100", "100", "98.5", "99")).map(\.price) == [Price(99)])
    }

    /// The engine asks the calendar once per session (`span`): every minute of two weeks around a holiday and the
    /// March clock change lies in its span, whose kind is the calendar's own.
    @Test func aSessionSpanAgreesWithTheCalendarMinuteByMinute() {
        for start in [Timestamp(year: 2024, month: 1, day: 10), Timestamp(year: 2024, month: 3, day: 5)] {
            var time = start
            while time < start + .days(14) {
                let span = TradingSessions().span(at: time)
                let kind = USEquityCalendar.session(at: time).map { TradingSessions.SessionSet($0.kind) } ?? []
                #expect(span.kind == kind && span.from <= time && time < span.until, "\(time)")
                time = time + .seconds(60)
            }
        }
    }

    @Test func dailyBarsAndRunsWithoutSessionsTradeAtAnyTimeAsBefore() {
        // Daily bars are stamped at midnight UTC (19:00 New York the day before): a date, not a session time.
        var config = SimulationConfig()
        config.sessions = TradingSessions()
        var daily = MatchingEngine(config: config, instrumentCount: 1)
        var reports: [ExecutionReport] = []
        daily.process(bar: Self.bar(Timestamp(year: 2024, month: 1, day: 8), "100", "101", "99", "100"), for: T.id, into: &reports)
        daily.process(bar: Self.bar(Timestamp(year: 2024, month: 1, day: 9), "100", "101", "99", "100"), for: T.id, into: &reports)
        daily.submit(Self.order(1, .buy, .market), at: Timestamp(year: 2024, month: 1, day: 9), into: &reports)
        reports = []
        daily.process(bar: Self.bar(Timestamp(year: 2024, month: 1, day: 10), "102", "103", "101", "102"), for: T.id, into: &reports)
        #expect(T.fills(reports).map(\.price) == [Price(102)])
        // Intraday bars without `sessions`: the pre-market bar fills the market order, as before.
        var s = Session(nil, at: Self.ny(8, 8, 0))
        s.submit(Self.order(1, .buy, .market))
        #expect(T.fills(s.feed(Self.ny(8, 8, 1), "100", "100", "100", "100")).count == 1)
    }
}
