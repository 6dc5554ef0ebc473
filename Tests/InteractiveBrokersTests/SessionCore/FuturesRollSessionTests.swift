import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Buys 2 once, when flat with nothing open, and holds them.
struct HoldTwo: Strategy {
    var bought = false
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !bought, context.position(for: id).quantity == .zero,
            !context.hasOpenOrders(for: id)
        else { return [] }
        bought = true
        return [.submit(.market(id, .buy, Quantity(2)))]
    }
}

/// Issue 47: the bot holds `ES continuous` in its front month and rolls it on the roll day, once, as one journaled
/// decision with both legs; a restart rolls what the broker still holds in the month left, and only that.
/// The harness's clock starts on 2023-11-14: ES trades December 2023 until 2023-12-08, five business days before its
/// last trading day (2023-12-15), and March 2024 from then on.
struct FuturesRollSessionTests {
    typealias Harness = SessionCoreHarness<HoldTwo>
    static let es = InstrumentID(index: 0)
    static let rollDay = Timestamp(year: 2023, month: 12, day: 8, secondOfDay: 14 * 3600 + 30 * 60)

    static func settings() -> SessionSettings {
        var settings = Harness.settings(symbols: ["ES continuous"])
        settings.engine = EngineConfig(initialCash: Money(1_000_000))
        settings.journaled = true
        return settings
    }

    /// A 5-second bar of ES from the current feed.
    static func bar(_ harness: inout Harness, at time: Timestamp, _ close: Double) -> [SessionAction] {
        let price = Price(units: Int64(close * 1_000_000))
        let bar = Bar(timestamp: time, open: price, high: price, low: price, close: price, volume: Quantity(100))
        return harness.send(.market(harness.feed, .bar(Self.es, bar)), after: .seconds(5))
    }

    /// The broker fills the group's order at `index` completely, on its own contract.
    @discardableResult
    static func fill(_ harness: inout Harness, _ group: OrderGroup, _ index: Int, price: Double) -> [SessionAction] {
        let wire = group.placements[index]
        var report = Harness.execution(of: group, at: index, price: price, time: "20231208 14:30:10 UTC")
        report.commission = TWSCommissionReport(executionID: report.execution.executionID, commission: 2.25, currency: "USD")
        return harness.send(.orderEvent(generation: 1, .execution(report)))
            + harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
                orderID: wire.orderID, status: "Filled", filled: wire.order.totalQuantity, remaining: 0))))
    }

    static func roll(_ actions: [SessionAction]) -> [String] {
        actions.compactMap { if case .journal(.event(.roll, let text, _)) = $0 { text } else { nil } }
    }

    @Test func aHeldPositionRollsOnceOnItsRollDayAsOneGroupWithBothLegs() throws {
        var harness = Harness(HoldTwo(), settings: Self.settings())
        harness.send(.start)
        let connected = harness.send(.connected(Harness.connection()))
        // The server's time comes first: it decides the month the contracts are asked for.
        let first = try #require(Harness.requests(connected).first)
        #expect(first.1 == .serverTime)
        var contracts: [TWSContract] = []
        var actions: [SessionAction] = []
        while let (tag, request) = harness.outstanding.first {
            if case .contractDetails(let contract) = request { contracts.append(contract) }
            actions += harness.send(.answer(tag, Harness.answer(to: request)))
        }
        #expect(contracts.map { "\($0.securityType) \($0.lastTradeDateOrContractMonth)" } == ["FUT 202312"])
        #expect(actions.logs.contains {
            $0.hasPrefix("ES continuous trades ES 2023-12 until its roll day, 2023-12-08")
        }, "\(actions.logs)")

        // Bought in December.
        let entry = try #require(Self.bar(&harness, at: Harness.start + .seconds(3600), 4500).placed.first)
        #expect(entry.contract.lastTradeDateOrContractMonth == "202312")
        Self.fill(&harness, entry, 0, price: 4500)
        #expect(harness.core.engine.portfolio.position(for: Self.es).quantity == Quantity(2))
        #expect(Self.bar(&harness, at: Self.rollDay - .seconds(86_400), 4590).placed.isEmpty)

        // The roll day's first bar: one group, both legs, journaled as one decision; the feed moves to March.
        let rolled = Self.bar(&harness, at: Self.rollDay, 4600)
        let group = try #require(rolled.placed.first)
        #expect(rolled.placed.count == 1)
        #expect(group.orders.map { "\($0.side.rawValue) \($0.quantity) \($0.type)" } == ["SELL 2 MKT", "BUY 2 MKT"])
        #expect((0..<2).map { group.contract(at: $0).lastTradeDateOrContractMonth } == ["202312", "202403"])
        #expect(group.intents.count == 2, "both legs journaled before either is sent")
        let seconds = Self.rollDay.nanoseconds / Timestamp.nanosecondsPerSecond
        #expect(group.orders.map(\.clientOrderID.rawValue) == ["ROLL-ESZ2023-\(seconds)", "ROLL-ESH2024-\(seconds)"])
        // (The harness's clock stays in November: the journal adds the data time.)
        #expect(Self.roll(rolled).map { $0.prefix { $0 != "[" } } == [
            "roll ES continuous: 2 contracts long from 2023-12 to 2024-03: SELL 2 2023-12 (ROLL-ESZ2023-\(seconds)), "
                + "BUY 2 2024-03 (ROLL-ESH2024-\(seconds)) "
        ], "\(Self.roll(rolled))")
        let moved = rolled.compactMap { action -> ContractBook? in
            if case .subscribeBars(_, _, let book) = action { book } else { nil }
        }
        #expect(moved.map { try? $0.contract(for: Self.es).lastTradeDateOrContractMonth } == ["202403"])
        // The new month is qualified (its contract id from here on).
        let details = rolled.compactMap { action -> TWSContract? in
            if case .request(_, .contractDetails(let contract)) = action { contract } else { nil }
        }
        #expect(details.map(\.lastTradeDateOrContractMonth) == ["202403"])
        harness.answerAll()
        #expect(try harness.core.desk.contracts.contract(for: Self.es).contractID == 265_598)

        // Both legs fill: December's P&L realized at its price, March held at its own; the journal says it is done.
        Self.fill(&harness, group, 0, price: 4600)
        let done = Self.fill(&harness, group, 1, price: 4650)
        #expect(Self.roll(done).map { $0.prefix { $0 != "[" } } == [
            "roll ES continuous done: SELL 2 2023-12 at 4600, BUY 2 2024-03 at 4650 (the new month +50 to the old; "
                + "working exits follow by as much) "
        ], "\(Self.roll(done))")
        let position = harness.core.engine.portfolio.position(for: Self.es)
        #expect(position.quantity == Quantity(2) && position.averagePrice == Price(4650))
        #expect(harness.core.engine.portfolio.realizedPnL == Money(10_000))  // (4,600 − 4,500) × 2 × 50
        #expect(harness.core.engine.portfolio.cash == Money(1_010_000) - Money("6.75")!)  // three fills at 2.25
        #expect(harness.core.monthPositions[Self.es] == [
            ContractMonth(year: 2023, month: 12)!: .zero, ContractMonth(year: 2024, month: 3)!: Quantity(2),
        ])

        // The rest of the roll day and the next days: no second roll, the strategy holds.
        var later: [SessionAction] = []
        for day in 0..<4 { later += Self.bar(&harness, at: Self.rollDay + .seconds(3600 + 86_400 * Int64(day)), 4660) }
        #expect(later.placed.isEmpty, "\(later.logs)")
        #expect(Self.roll(later).isEmpty)
    }

    /// The roll day starts when CME's does, at 18:00 New York the evening before (`FutureSpec.tradingDay`, the
    /// backtest's day too): Thursday 2023-12-07's 17:59 bar holds December, 18:00 (23:00 UTC, Globex's evening
    /// session of Friday the 8th) rolls. Counted by New York's date, the bot rolled five hours after a backtest over
    /// hourly bars, which counted the midnight-UTC bar as the next day.
    @Test func theRollDayBeginsWithTheEveningSessionBeforeIt() throws {
        var harness = Harness(HoldTwo(), settings: Self.settings())
        harness.send(.start)
        harness.send(.connected(Harness.connection()))
        harness.answerAll()
        let entry = try #require(Self.bar(&harness, at: Harness.start + .seconds(3600), 4500).placed.first)
        Self.fill(&harness, entry, 0, price: 4500)
        let evening = Timestamp(year: 2023, month: 12, day: 7, secondOfDay: 23 * 3600)
        let before = Self.bar(&harness, at: evening - .seconds(60), 4590)
        #expect(before.placed.isEmpty && Self.roll(before).isEmpty, "\(before.logs)")
        let rolled = Self.bar(&harness, at: evening, 4600)
        #expect(rolled.placed.first?.orders.map { "\($0.side.rawValue) \($0.quantity)" } == ["SELL 2", "BUY 2"], "\(rolled.logs)")
        #expect(Self.roll(rolled).count == 1)
    }
}

/// Restarts around a roll: what the broker holds in December is rolled, once.
struct FuturesRollRestartTests {
    typealias Harness = SessionCoreHarness<HoldTwo>
    typealias Roll = FuturesRollSessionTests
    static let december = ContractMonth(year: 2023, month: 12)!

    /// The broker's ES position in a month.
    static func position(_ month: ContractMonth, _ quantity: Int) -> TWSPosition {
        var contract = TWSContract(symbol: "ES", securityType: "FUT", exchange: "CME", currency: "USD")
        contract.lastTradeDateOrContractMonth = month.wireText
        contract.multiplier = "50"
        return TWSPosition(account: "DU111", contract: contract, quantity: Decimal(quantity), averageCost: 4500 * 50)
    }

    /// A roll leg journaled `age` before the restart and never sent.
    static func unsentLeg(_ ref: String, _ side: Side, sequence: Int64, createdAt: Timestamp) -> JournalOrder {
        let request = OrderRequest(
            instrument: Roll.es, side: side, quantity: Quantity(2), type: .market, timeInForce: .day)
        return JournalOrder(
            sequence: sequence,
            intent: JournalIntent(orderRef: ClientOrderID(ref), symbol: "ES continuous", request: request, createdAt: createdAt),
            state: .pendingSubmit, brokerOrderID: nil, permID: nil, filledQuantity: .zero, updatedAt: createdAt,
            message: nil)
    }

    /// A roll's two legs (December sold, March bought) journaled at `time` and never sent.
    static func unsentLegs(at time: Timestamp, firstSequence: Int64) -> [JournalOrder] {
        let seconds = time.nanoseconds / Timestamp.nanosecondsPerSecond
        return [
            unsentLeg("T:ROLL-ESZ2023-\(seconds)", .sell, sequence: firstSequence, createdAt: time),
            unsentLeg("T:ROLL-ESH2024-\(seconds)", .buy, sequence: firstSequence + 1, createdAt: time),
        ]
    }

    /// A journaled bot restarted at `serverNow` with 2 ES of December at the broker (the journal says they are the
    /// bot's) and `orders` in its journal.
    static func restarted(
        at serverNow: Timestamp, orders: [JournalOrder] = [], fills: [JournalFill] = [], broker: Int = 2,
        positions: [TWSPosition]? = nil, open: [TWSOpenOrder] = []
    ) -> (Harness, [SessionAction]) {
        var harness = Harness(HoldTwo(bought: true), settings: Roll.settings())
        // The restart's clock: what the resend policy measures an intent's age by.
        var settings = Roll.settings()
        settings.adoptExternalPositions = false  // as `orders.adoptExternalPositions` is by default
        harness.core = LiveSessionCore(strategy: HoldTwo(bought: true), settings: settings, now: serverNow)
        harness.now = serverNow
        harness.send(.start)
        var actions = harness.send(.connected(Harness.connection()))
        var journal = JournalRestartData()
        journal.orders = orders
        journal.fills = fills
        journal.cashCheckpoint = JournalCashCheckpoint(
            time: serverNow - .seconds(86_400), account: "DU111", cash: Money(1_000_000), fillCheckpoint: 0,
            positions: ["ES continuous": Quantity(2)])
        for _ in 0..<20 {
            guard let (tag, request) = harness.outstanding.first else { break }
            switch request {
            case .serverTime:
                actions += harness.send(.answer(tag, .serverTime(serverNow.nanoseconds / Timestamp.nanosecondsPerSecond)))
            case .brokerState:
                actions += harness.send(.answer(tag, .brokerState(BrokerAnswers(
                    openOrders: open, executions: [], positions: positions ?? [Self.position(Self.december, broker)]))))
            case .journalRestart:
                actions += harness.send(.answer(tag, .journalRestart(journal)))
            default:
                actions += harness.send(.answer(tag, Harness.answer(to: request)))
            }
        }
        return (harness, actions)
    }

    /// Down on the roll day's open: the restart starts in March and rolls December's 2 on its first bar, once.
    @Test func aRestartAfterTheRollDayRollsWhatDecemberStillHoldsOnce() throws {
        let serverNow = Roll.rollDay + .seconds(3600)
        var (harness, actions) = Self.restarted(at: serverNow)
        #expect(harness.core.phase == .running, "\(actions.logs)")
        #expect(actions.logs.contains("ES continuous held at the broker: 2 in 2023-12"), "\(actions.logs)")
        #expect(actions.logs.contains { $0.hasPrefix("ES continuous trades ES 2024-03 until its roll day, 2024-03-08") })
        #expect(harness.core.engine.portfolio.position(for: Roll.es).quantity == Quantity(2))

        let first = Roll.bar(&harness, at: serverNow + .seconds(5), 4650)
        let group = try #require(first.placed.first)
        #expect(first.placed.count == 1)
        #expect(group.orders.map { "\($0.side.rawValue) \($0.quantity)" } == ["SELL 2", "BUY 2"])
        #expect((0..<2).map { group.contract(at: $0).lastTradeDateOrContractMonth } == ["202312", "202403"])
        #expect(Roll.roll(first).count == 1)
        #expect(!first.contains { if case .subscribeBars = $0 { true } else { false } }, "the feed is March's already")
        // While the legs work, and after they fill: no second roll.
        #expect(Roll.bar(&harness, at: serverNow + .seconds(10), 4651).placed.isEmpty)
        Roll.fill(&harness, group, 0, price: 4600)
        Roll.fill(&harness, group, 1, price: 4650)
        #expect(harness.core.monthPositions[Roll.es]?[ContractMonth(year: 2024, month: 3)!] == Quantity(2))
        let later = Roll.bar(&harness, at: serverNow + .seconds(15), 4652) + Roll.bar(&harness, at: serverNow + .seconds(86_400), 4660)
        #expect(later.placed.isEmpty)
        #expect(harness.core.engine.portfolio.position(for: Roll.es).quantity == Quantity(2))
    }

    /// A crash between the journal's write of the legs and their send: the restart sends each leg once, to its own
    /// month, and decides no second roll while they work or after they fill. Legs too old to send are abandoned and
    /// the roll is decided again, once.
    @Test(arguments: [false, true])
    func aRestartMidRollCompletesItOnce(stale: Bool) throws {
        let serverNow = Roll.rollDay + .seconds(60)
        let journaled = stale ? serverNow - .seconds(3600) : serverNow - .seconds(30)
        let legs = Self.unsentLegs(at: journaled, firstSequence: 1)
        var (harness, actions) = Self.restarted(at: serverNow, orders: legs)
        #expect(harness.core.phase == .running, "\(actions.logs)")
        var sent = actions.placed
        if stale {
            #expect(sent.isEmpty, "legs an hour old are abandoned: \(actions.logs)")
            sent = Roll.bar(&harness, at: serverNow + .seconds(5), 4650).placed
            #expect(sent.count == 1 && sent.first?.orders.count == 2, "decided again")
        } else {
            #expect(sent.count == 2, "each leg sent once: \(actions.logs)")
            #expect(sent.map { $0.orders[0].clientOrderID.rawValue } == legs.map(\.intent.orderRef.rawValue))
            #expect(sent.map(\.contract.lastTradeDateOrContractMonth) == ["202312", "202403"], "each to its month")
            #expect(Roll.bar(&harness, at: serverNow + .seconds(5), 4650).placed.isEmpty, "no second roll while they work")
        }
        let placements = sent.flatMap { group in group.placements.indices.map { (group, $0) } }
        for (group, index) in placements {
            Roll.fill(&harness, group, index, price: group.orders[index].side == .sell ? 4600 : 4650)
        }
        let later = Roll.bar(&harness, at: serverNow + .seconds(10), 4651) + Roll.bar(&harness, at: serverNow + .seconds(86_400), 4660)
        #expect(later.placed.isEmpty, "\(later.logs)")
        #expect(harness.core.engine.portfolio.position(for: Roll.es).quantity == Quantity(2))
        #expect(harness.core.monthPositions[Roll.es] == [Self.december: .zero, ContractMonth(year: 2024, month: 3)!: Quantity(2)])
    }

    /// The bracket's stop on December, working when the roll was decided and cancelled by it.
    static func cancelledStop(rollAt decided: Timestamp) -> JournalOrder {
        var request = OrderRequest(
            instrument: Roll.es, side: .sell, quantity: Quantity(2), type: .stop(Price(4400)), timeInForce: .gtc)
        request.ocaGroup = "OCA-1"
        var intent = JournalIntent(
            orderRef: ClientOrderID("T:ES-1700000000-SL"), symbol: "ES continuous", request: request,
            createdAt: decided - .seconds(86_400))
        intent.ocaGroup = "OCA-1"
        return JournalOrder(
            sequence: 1, intent: intent, state: .canceled, brokerOrderID: 7, permID: 70, filledQuantity: .zero,
            updatedAt: decided + .seconds(1), message: nil)
    }

    /// A roll leg journaled as filled, with its fill.
    static func filledLeg(_ ref: String, _ side: Side, sequence: Int64, at time: Timestamp, price: Double) -> (JournalOrder, JournalFill) {
        var order = unsentLeg(ref, side, sequence: sequence, createdAt: time)
        order.state = .filled
        order.brokerOrderID = sequence + 10
        order.filledQuantity = Quantity(2)
        var fill = JournalFill(
            execID: "E-\(sequence)", symbol: "ES continuous", side: side, quantity: Quantity(2), price: Price(approximately: price),
            time: time + .seconds(1))
        fill.orderRef = ClientOrderID(ref)
        return (order, fill)
    }

    /// A crash after both legs filled and before the exits went to March: the restart sends the stop to March at once,
    /// moved by the legs' gap (4,400 + 50), under the id the run before would have given it; once.
    @Test func aStopTheRollCancelledGoesToTheNewMonthAfterACrash() throws {
        let serverNow = Roll.rollDay + .seconds(120)
        let decided = serverNow - .seconds(60)
        let seconds = decided.nanoseconds / Timestamp.nanosecondsPerSecond
        let out = Self.filledLeg("T:ROLL-ESZ2023-\(seconds)", .sell, sequence: 2, at: decided, price: 4600)
        let into = Self.filledLeg("T:ROLL-ESH2024-\(seconds)", .buy, sequence: 3, at: decided, price: 4650)
        var (harness, actions) = Self.restarted(
            at: serverNow, orders: [Self.cancelledStop(rollAt: decided), out.0, into.0], fills: [out.1, into.1],
            positions: [Self.position(Self.december, 0), Self.position(ContractMonth(year: 2024, month: 3)!, 2)])
        #expect(harness.core.phase == .running, "\(actions.logs)")
        #expect(harness.core.engine.portfolio.position(for: Roll.es).quantity == Quantity(2))
        let placed = actions.placed
        #expect(placed.count == 1, "\(actions.logs)")
        let stop = try #require(placed.first)
        #expect(stop.orders.map { "\($0.side.rawValue) \($0.quantity) \($0.type)" } == ["SELL 2 STP 4450"])
        #expect(stop.contract.lastTradeDateOrContractMonth == "202403")
        #expect(stop.orders.first?.clientOrderID.rawValue.hasSuffix("ES continuous-P\(seconds)-SL") == true)
        #expect(stop.orders.first?.request.ocaGroup == "OCA-1-R\(seconds)")
        #expect(actions.logs.contains { $0.contains("had both legs filled: its exits (T:ES-1700000000-SL) go to the new month now") }, "\(actions.logs)")
        // No second roll and no second stop on the next bars.
        let later = Roll.bar(&harness, at: serverNow + .seconds(5), 4651) + Roll.bar(&harness, at: serverNow + .seconds(60), 4652)
        #expect(later.placed.isEmpty, "\(later.logs)")
        #expect(LiveSessionCore<HoldTwo>.isCoveredByStops(
            harness.core.engine.portfolio.position(for: Roll.es), open: harness.core.engine.orders.openOrders))
    }

    /// A crash before the roll's cancel of December's stop went out: the broker still works it, on a month the bot
    /// no longer holds (it would open a short there). The restart cancels it and places the stop on March.
    @Test func aStopTheBrokerStillWorksOnTheMonthLeftIsCancelledAndCarried() throws {
        let serverNow = Roll.rollDay + .seconds(120)
        let decided = serverNow - .seconds(60)
        let seconds = decided.nanoseconds / Timestamp.nanosecondsPerSecond
        var stop = Self.cancelledStop(rollAt: decided)
        (stop.state, stop.updatedAt) = (.accepted, decided - .seconds(3600))
        var order = TWSOrder()
        (order.orderID, order.clientID, order.permID, order.account) = (7, 7, 70, "DU111")
        (order.action, order.totalQuantity, order.orderType, order.auxPrice) = ("SELL", 2, "STP", 4400)
        (order.timeInForce, order.orderRef, order.ocaGroup) = ("GTC", "T:ES-1700000000-SL", "OCA-1")
        let working = TWSOpenOrder(contract: Self.position(Self.december, 0).contract, order: order, orderState: TWSOrderState(status: "Submitted"))
        let out = Self.filledLeg("T:ROLL-ESZ2023-\(seconds)", .sell, sequence: 2, at: decided, price: 4600)
        let into = Self.filledLeg("T:ROLL-ESH2024-\(seconds)", .buy, sequence: 3, at: decided, price: 4650)
        let (harness, actions) = Self.restarted(
            at: serverNow, orders: [stop, out.0, into.0], fills: [out.1, into.1],
            positions: [Self.position(Self.december, 0), Self.position(ContractMonth(year: 2024, month: 3)!, 2)],
            open: [working])
        #expect(harness.core.phase == .running, "\(actions.logs)")
        let cancels = actions.compactMap { if case .cancelOrder(let id) = $0 { id } else { nil } }
        #expect(cancels == [7], "\(actions.logs)")
        let placed = actions.placed
        #expect(placed.map { $0.orders.map { "\($0.side.rawValue) \($0.quantity) \($0.type)" } } == [["SELL 2 STP 4450"]], "\(actions.logs)")
        #expect(placed.first?.contract.lastTradeDateOrContractMonth == "202403")
    }

    /// A crash between the legs' journal write and their send: the legs are sent once, and the stop follows to
    /// March when both have filled. Legs too old to send end the roll: the stop is not placed again, said, and the
    /// unguarded position is an ALERT after the grace.
    @Test(arguments: [false, true])
    func aStopTheRollCancelledFollowsItsResentLegs(stale: Bool) throws {
        let serverNow = Roll.rollDay + .seconds(60)
        let decided = stale ? serverNow - .seconds(3600) : serverNow - .seconds(30)
        let legs = Self.unsentLegs(at: decided, firstSequence: 2)
        var (harness, actions) = Self.restarted(at: serverNow, orders: [Self.cancelledStop(rollAt: decided)] + legs)
        #expect(harness.core.phase == .running, "\(actions.logs)")
        if stale {
            #expect(actions.placed.isEmpty)
            #expect(actions.logs.contains { $0.contains("ended without both legs filled: its exits (T:ES-1700000000-SL) are not placed again") }, "\(actions.logs)")
            // The bot's own roll, decided again on the next bar, has no stop to carry; the watch says so.
            let again = try #require(Roll.bar(&harness, at: serverNow + .seconds(5), 4650).placed.first)
            Roll.fill(&harness, again, 0, price: 4600)
            Roll.fill(&harness, again, 1, price: 4650)
            var alerts: [String] = []
            for k in 1...8 {
                harness.now = serverNow + .seconds(5 + 5 * Int64(k))
                alerts += harness.send(.tick).logs.filter { $0.hasPrefix("ALERT: 2 ES continuous is held without its protective stop") }
            }
            #expect(alerts.count == 1, "\(alerts)")
            return
        }
        let sent = actions.placed
        #expect(sent.count == 2, "each leg sent once: \(actions.logs)")
        #expect(actions.logs.contains { $0.contains("is taken up: its exits (T:ES-1700000000-SL) go to the new month once both legs fill") }, "\(actions.logs)")
        Roll.fill(&harness, sent[0], 0, price: 4600)
        let done = Roll.fill(&harness, sent[1], 0, price: 4660)
        let stop = try #require(done.placed.first, "\(done.logs)")
        #expect(stop.orders.map { "\($0.side.rawValue) \($0.quantity) \($0.type)" } == ["SELL 2 STP 4460"])
        #expect(stop.contract.lastTradeDateOrContractMonth == "202403")
        #expect(Roll.bar(&harness, at: serverNow + .seconds(5), 4661).placed.isEmpty)
    }

    /// 5 December contracts at the broker, 2 of them the bot's: the roll moves the bot's 2; the other 3 stay.
    @Test func onlyTheBotsOwnContractsRoll() throws {
        let serverNow = Roll.rollDay + .seconds(3600)
        var (harness, actions) = Self.restarted(at: serverNow, broker: 5)
        #expect(harness.core.engine.portfolio.position(for: Roll.es).quantity == Quantity(2), "\(actions.logs)")
        let group = try #require(Roll.bar(&harness, at: serverNow + .seconds(5), 4650).placed.first)
        #expect(group.orders.map(\.quantity) == [Quantity(2), Quantity(2)])
        Roll.fill(&harness, group, 0, price: 4600)
        Roll.fill(&harness, group, 1, price: 4650)
        let later = Roll.bar(&harness, at: serverNow + .seconds(10), 4651) + Roll.bar(&harness, at: serverNow + .seconds(86_400), 4660)
        #expect(later.placed.isEmpty, "the 3 left in December are not the bot's: \(later.logs)")
    }

    /// The broker refuses a leg: the roll is said once (ALERT) and not sent again that day; the next day decides again.
    @Test func aRefusedLegIsAlertedOnceAndTriedAgainTheNextDay() throws {
        let serverNow = Roll.rollDay + .seconds(3600)
        var (harness, _) = Self.restarted(at: serverNow)
        let group = try #require(Roll.bar(&harness, at: serverNow + .seconds(5), 4650).placed.first)
        for placement in group.placements {
            harness.send(.orderEvent(generation: 1, .notice(TWSNotice(
                requestID: placement.orderID, code: 201, message: "Order rejected - reason: no trading permissions"))))
        }
        var sameDay: [SessionAction] = []
        for k in 2..<6 { sameDay += Roll.bar(&harness, at: serverNow + .seconds(5 * Int64(k)), 4650) }
        #expect(sameDay.placed.isEmpty)
        #expect(sameDay.logs.filter { $0.hasPrefix("ALERT: the roll of ES continuous did not complete: 2 still held in 2023-12") }.count == 1, "\(sameDay.logs)")
        let nextDay = Roll.bar(&harness, at: serverNow + .seconds(86_400), 4660)
        #expect(nextDay.placed.count == 1 && nextDay.placed.first?.orders.count == 2)
    }
}

/// Keeps every close it sees: what its history is after a roll.
struct SeenCloses: Strategy {
    var closes: [Price] = []
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        if case .bar(_, let bar) = event { closes.append(bar.close) }
        return []
    }
}

/// Issue 47: at the roll the strategy's history moves to the new month's prices, as a back-adjusted backtest's is:
/// the new month's bars up to the roll are asked for, the gap is measured at the last bar the strategy saw that both
/// months have, and the strategy re-warms on its bars moved by it.
struct RollRebaseSessionTests {
    typealias Harness = SessionCoreHarness<SeenCloses>
    static let es = InstrumentID(index: 0)

    /// Started, two December bars seen, then the roll day's first bar: returns the request for March's bars.
    static func rolled(_ harness: inout Harness) throws -> (SessionTag, TWSHistoricalBarsQuery) {
        harness.startUp()
        for (time, close) in [(Harness.start + .seconds(3600), 4500), (FuturesRollSessionTests.rollDay - .seconds(86_400), 4590)] {
            let price = Price(close)
            let bar = Bar(timestamp: time, open: price, high: price, low: price, close: price, volume: Quantity(100))
            harness.send(.market(harness.feed, .bar(Self.es, bar)), after: .seconds(5))
        }
        #expect(harness.core.engine.strategy.closes == [Price(4500), Price(4590)])
        let price = Price(4600)
        let day = Bar(timestamp: FuturesRollSessionTests.rollDay, open: price, high: price, low: price, close: price, volume: Quantity(100))
        harness.send(.market(harness.feed, .bar(Self.es, day)), after: .seconds(5))
        let asked = harness.outstanding.compactMap { tag, request -> (SessionTag, TWSHistoricalBarsQuery)? in
            if case .historicalBars(let query) = request { (tag, query) } else { nil }
        }
        #expect(asked.count == 1)
        return try #require(asked.first)
    }

    static func wire(_ time: Timestamp, _ close: Double) -> TWSBar {
        TWSBar(date: "\(time.nanoseconds / 1_000_000_000)", open: close, high: close, low: close, close: close, volume: 10, wap: Decimal(close), barCount: 1)
    }

    @Test func theStrategysHistoryMovesByTheGapAtTheLastBarBothMonthsHave() throws {
        var harness = Harness(SeenCloses(), settings: FuturesRollSessionTests.settings())
        let (tag, query) = try Self.rolled(&harness)
        #expect(query.contract.lastTradeDateOrContractMonth == "202403")
        #expect(query.barSize == "5 secs" && query.formatDate == 2)
        // The roll day's bar was December's: the strategy did not see it.
        #expect(harness.core.engine.strategy.closes == [Price(4500), Price(4590)])
        // March traded 50 above December at December's last bar (another of its bars has no December twin).
        let last = FuturesRollSessionTests.rollDay - .seconds(86_400)
        let answer = harness.send(.answer(tag, .bars([Self.wire(last - .seconds(5), 4630), Self.wire(last, 4640)])))
        #expect(harness.core.engine.strategy.closes == [Price(4550), Price(4640)])
        #expect(harness.core.historyRebases == [
            HistoryRebase(instrument: Self.es, gap: Price(50), before: FuturesRollSessionTests.rollDay, after: last)
        ])
        #expect(answer.logs.contains {
            $0.hasPrefix("ES continuous: the strategy's 2 bars before the roll moved by +50 to 2024-03's prices (its close 4640")
        }, "\(answer.logs)")
        // March's bars follow as traded.
        let price = Price(4645)
        let next = Bar(timestamp: FuturesRollSessionTests.rollDay + .seconds(5), open: price, high: price, low: price, close: price, volume: Quantity(100))
        harness.send(.market(harness.feed, .bar(Self.es, next)), after: .seconds(5))
        #expect(harness.core.engine.strategy.closes == [Price(4550), Price(4640), Price(4645)])
    }

    /// A bot of hourly bars with `warmup` of them, started and connected at `serverNow`; the connection's actions.
    static func connected(warmup: String, at serverNow: Timestamp) -> (Harness, [SessionAction]) {
        var settings = FuturesRollSessionTests.settings()
        (settings.warmupDuration, settings.warmupBarSize) = (warmup, "1 hour")
        var harness = Harness(SeenCloses(), settings: settings)
        harness.core = LiveSessionCore(strategy: SeenCloses(), settings: settings, now: serverNow)
        harness.now = serverNow
        harness.send(.start)
        let actions = harness.send(.connected(Harness.connection()))
        return (harness, actions)
    }

    /// Started on Monday 2023-12-11, after ES December's roll day (Friday 12-08), with five days of hourly warm-up: the
    /// warm-up asks for December too and the strategy sees December's bars before the roll moved by the gap at the
    /// last hour both months have (+50), then March's from the roll day on: what it would have seen running through
    /// the roll, or in a back-adjusted backtest, instead of March's own bars before it.
    @Test func aBotStartedAfterTheRollWarmsUpOnTheMonthLeftMovedByTheGap() throws {
        let serverNow = Timestamp(year: 2023, month: 12, day: 11, secondOfDay: 15 * 3600)
        var (harness, actions) = Self.connected(warmup: "5 D", at: serverNow)
        let hour = { (day: Int, h: Int64) in Timestamp(year: 2023, month: 12, day: day, secondOfDay: h * 3600) }
        var months: [String] = []
        while let (tag, request) = harness.outstanding.first {
            switch request {
            case .serverTime:
                actions += harness.send(.answer(tag, .serverTime(serverNow.nanoseconds / 1_000_000_000)))
            case .historicalBars(let query) where query.contract.lastTradeDateOrContractMonth == "202312":
                months.append("202312")
                #expect(query.contract.includeExpired)
                actions += harness.send(.answer(tag, .bars([
                    Self.wire(hour(7, 15), 4500), Self.wire(hour(7, 16), 4510), Self.wire(hour(8, 15), 4520),
                ])))
            case .historicalBars(let query):
                months.append(query.contract.lastTradeDateOrContractMonth)
                actions += harness.send(.answer(tag, .bars([
                    Self.wire(hour(7, 15), 4480), Self.wire(hour(7, 16), 4560), Self.wire(hour(8, 15), 4570),
                    Self.wire(hour(11, 14), 4580),
                ])))
            default:
                actions += harness.send(.answer(tag, Harness.answer(to: request)))
            }
        }
        #expect(months.sorted() == ["202312", "202403"], "\(actions.logs)")
        #expect(harness.core.engine.strategy.closes == [Price(4550), Price(4560), Price(4570), Price(4580)], "\(actions.logs)")
        #expect(actions.logs.contains {
            $0.hasPrefix("ES continuous: the warm-up crosses the roll of 2023-12-08: 2 bars of 2023-12 moved by +50 to 2024-03's prices")
        }, "\(actions.logs)")
    }

    /// Started with a warm-up that ends after the roll day began: nothing of the month left is asked for.
    @Test func aWarmUpInsideTheNewMonthAsksOnlyForIt() throws {
        let serverNow = Timestamp(year: 2023, month: 12, day: 12, secondOfDay: 15 * 3600)
        var (harness, _) = Self.connected(warmup: "1 D", at: serverNow)
        var months: [String] = []
        while let (tag, request) = harness.outstanding.first {
            if case .historicalBars(let query) = request { months.append(query.contract.lastTradeDateOrContractMonth) }
            if case .serverTime = request {
                harness.send(.answer(tag, .serverTime(serverNow.nanoseconds / 1_000_000_000)))
            } else {
                harness.send(.answer(tag, Harness.answer(to: request)))
            }
        }
        #expect(months == ["202403"])
    }

    @Test func withoutABarBothMonthsHaveTheHistoryStaysAndTheLogSaysSo() throws {
        var harness = Harness(SeenCloses(), settings: FuturesRollSessionTests.settings())
        let (tag, _) = try Self.rolled(&harness)
        let answer = harness.send(.answer(tag, .bars([Self.wire(FuturesRollSessionTests.rollDay - .seconds(3), 4640)])))
        #expect(harness.core.engine.strategy.closes == [Price(4500), Price(4590)])
        #expect(harness.core.historyRebases.isEmpty)
        #expect(answer.logs.contains {
            $0.hasPrefix("ES continuous: 2024-03 has no bar at the time of one the strategy saw before the roll (1 bar came)")
        }, "\(answer.logs)")
        // A failed request says the same.
        var failing = Harness(SeenCloses(), settings: FuturesRollSessionTests.settings())
        let (asked, _) = try Self.rolled(&failing)
        let failed = failing.send(.failed(asked, .rejected(code: 162, "no data")))
        #expect(failed.logs.contains { $0.contains("the strategy's history keeps the old month's prices") }, "\(failed.logs)")
    }
}

/// Issue 47: by volume (`backtest.futuresRollBy: volume`) the bot asks each business day for both months' daily volumes
/// and rolls on its next bar once the next month traded more on the last day both traded, before the days rule's roll
/// day (2023-12-08 here); never on a Sunday.
struct VolumeRollSessionTests {
    typealias Harness = SessionCoreHarness<HoldTwo>
    static let es = InstrumentID(index: 0)
    static func at(_ day: Int, _ second: Int64 = 15 * 3600) -> Timestamp {
        Timestamp(year: 2023, month: 12, day: day, secondOfDay: second)
    }

    static func started() -> Harness {
        var settings = FuturesRollSessionTests.settings()
        settings.engine.futuresRollByVolume = true
        var harness = Harness(HoldTwo(), settings: settings)
        harness.startUp()
        return harness
    }

    /// The volume requests outstanding, by the month they ask for.
    static func asked(_ harness: Harness) -> [(SessionTag, String)] {
        harness.outstanding.compactMap { tag, request in
            if case .historicalBars(let query) = request, query.barSize == "1 day" {
                (tag, query.contract.lastTradeDateOrContractMonth)
            } else { nil }
        }
    }

    static func daily(_ day: Int, _ volume: Int) -> TWSBar {
        TWSBar(date: "202312\(day < 10 ? "0" : "")\(day)", open: 4600, high: 4600, low: 4600, close: 4600, volume: Decimal(volume), wap: 4600, barCount: 1)
    }

    @Test func theNextMonthTradingMoreRollsOnTheNextBar() throws {
        var harness = Self.started()
        // Bought December on Monday 2023-12-04.
        let entry = try #require(FuturesRollSessionTests.bar(&harness, at: Self.at(4), 4500).placed.first)
        FuturesRollSessionTests.fill(&harness, entry, 0, price: 4500)
        harness.answerAll { if case .historicalBars(let query) = $0 { query.barSize == "1 day" } else { false } }
        // Tuesday: both months' volumes asked; March traded more on Monday.
        _ = FuturesRollSessionTests.bar(&harness, at: Self.at(5), 4510)
        let asked = Self.asked(harness)
        // Monday's (left unanswered) and Tuesday's.
        #expect(asked.map(\.1) == ["202312", "202403", "202312", "202403"], "\(asked)")
        let today = asked.suffix(2)
        var said: [SessionAction] = []
        for (tag, month) in today {
            let volume = month == "202312" ? 300_000 : 900_000
            said += harness.send(.answer(tag, .bars([Self.daily(1, month == "202312" ? 900_000 : 100_000), Self.daily(4, volume), Self.daily(5, 10)])))
        }
        #expect(said.logs.contains {
            $0.hasPrefix("ES continuous: 2024-03 traded more than 2023-12 on 2023-12-04 (900000 contracts against 300000)")
        }, "\(said.logs)")
        // The next bar rolls, three days before the days rule would.
        let rolled = FuturesRollSessionTests.bar(&harness, at: Self.at(5, 15 * 3600 + 10), 4510)
        let group = try #require(rolled.placed.first)
        #expect((0..<2).map { group.contract(at: $0).lastTradeDateOrContractMonth } == ["202312", "202403"])
        #expect(harness.core.monthMoves.map { "\($0.month)" } == ["2023-12", "2024-03"])
    }

    @Test func theMonthHeldTradingMoreOrASundayRollsNothing() throws {
        var harness = Self.started()
        harness.answerAll()
        // A Sunday: nothing asked.
        _ = FuturesRollSessionTests.bar(&harness, at: Self.at(3), 4500)
        #expect(Self.asked(harness).isEmpty)
        // Monday: December still traded more on Friday (and March more today, which is not over).
        _ = FuturesRollSessionTests.bar(&harness, at: Self.at(4), 4500)
        let asked = Self.asked(harness)
        #expect(asked.count == 2)
        var said: [SessionAction] = []
        for (tag, month) in asked {
            said += harness.send(.answer(tag, .bars([Self.daily(1, month == "202312" ? 900_000 : 100_000), Self.daily(4, month == "202312" ? 1 : 5)])))
        }
        #expect(!said.logs.contains { $0.contains("traded more") }, "\(said.logs)")
        let next = FuturesRollSessionTests.bar(&harness, at: Self.at(4, 15 * 3600 + 10), 4500)
        #expect(!next.logs.contains { $0.contains("moves to") }, "\(next.logs)")
        #expect(harness.core.desk.contracts.month(of: Self.es) == ContractMonth(year: 2023, month: 12))
    }
}
