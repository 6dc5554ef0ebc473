import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Buys 10 when flat, sells everything when long: every bar wants an entry or an exit.
struct InAndOut: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, !context.hasOpenOrders(for: id) else { return [] }
        let held = context.position(for: id).quantity
        return held == .zero ? [.submit(.market(id, .buy, Quantity(10)))] : [.submit(.market(id, .sell, held))]
    }
}

/// The operator's controls in the session core (issue 23): journaled before they act, answered, and exactly as
/// strong as they say: pause stops entries only, kill stops every new order and leaves working ones, flatten
/// cancels everything and closes the book once nothing is left working; resume lifts them.
struct OperatorControlTests {
    typealias Harness = SessionCoreHarness<InAndOut>

    static func control(_ action: OperatorAction, id: Int = 1) -> SessionInput {
        .control(OperatorControl(id: id, action: action, by: "127.0.0.1", reason: "test"))
    }

    /// The bar at `seconds` after the start: the actions it leads to.
    @discardableResult
    static func bar(_ harness: inout Harness, _ seconds: Int64, close: Double = 100) -> [SessionAction] {
        harness.bar(at: Harness.start + .seconds(seconds), close: close).flatMap { harness.send($0, after: .seconds(1)) }
    }

    /// The broker fills the group's first order completely.
    @discardableResult
    static func fill<S: Strategy>(_ harness: inout SessionCoreHarness<S>, _ group: OrderGroup, price: Double = 100) -> [SessionAction] {
        let wire = group.placements[0]
        let report = SessionCoreHarness<S>.execution(of: group, price: price)
        var withCommission = report
        withCommission.commission = TWSCommissionReport(executionID: report.execution.executionID, commission: 1, currency: "USD")
        return harness.send(.orderEvent(generation: 1, .execution(report)))
            + harness.send(.orderEvent(generation: 1, .commission(withCommission)))
            + harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
                orderID: wire.orderID, status: "Filled", filled: wire.order.totalQuantity, remaining: 0))))
    }

    static func reply(_ actions: [SessionAction]) -> OperatorReply? {
        actions.lazy.compactMap { if case .reply(let reply) = $0 { reply } else { nil } }.first
    }

    /// Issue 45: a control is journaled at the input's time (the wall clock in a live run), not the data's; when the
    /// data is far behind (a replay of 2011, a stalled feed) its time goes beside it in the message.
    @Test func aControlIsJournaledAtTheClocksTimeWithTheDataTimeBesideWhenFarApart() throws {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(InAndOut(), settings: settings)
        harness.startUp()
        _ = Self.bar(&harness, 60)
        let near = harness.send(Self.control(.pause), after: .seconds(30))
        #expect(near.contains(.journal(.event(.control, "pause by 127.0.0.1 (test)", at: harness.now))))
        let dataTime = harness.core.dataTime
        let far = harness.send(Self.control(.resume, id: 2), after: .hours(2))
        #expect(far.contains(.journal(.event(.control, "resume by 127.0.0.1 (test) [data time \(dataTime)]", at: harness.now))))
    }

    @Test func pauseStopsEntriesButNotExitsAndIsJournaledBeforeItActs() throws {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(InAndOut(), settings: settings)
        harness.startUp()
        let buy = try #require(Self.bar(&harness, 60).placed.first)
        Self.fill(&harness, buy)
        let paused = harness.send(Self.control(.pause), after: .seconds(1))
        let journaled = try #require(paused.firstIndex { if case .journal(.event(.control, let text, _)) = $0 { text == "pause by 127.0.0.1 (test)" } else { false } })
        let replied = try #require(paused.firstIndex { if case .reply = $0 { true } else { false } })
        #expect(journaled < replied)
        #expect(Self.reply(paused) == OperatorReply(id: 1, done: true, message: "entries paused; exits and working orders go on"))
        #expect(harness.core.status(at: harness.now).trading.state == "entries paused")
        // The exit goes out; the next entry does not.
        let sell = try #require(Self.bar(&harness, 70).placed.first)
        #expect(sell.orders[0].side == .sell)
        Self.fill(&harness, sell)
        #expect(Self.bar(&harness, 80).placed.isEmpty)
        let resumed = harness.send(Self.control(.resume, id: 2))
        #expect(Self.reply(resumed)?.message == "trading resumed")
        #expect(harness.core.status(at: harness.now).trading.state == "active")
        #expect(Self.bar(&harness, 90).placed.first?.orders[0].side == .buy)
    }

    @Test func killStopsEveryNewOrderAndLeavesTheWorkingOnes() throws {
        var harness = Harness(InAndOut())
        harness.startUp()
        let buy = try #require(Self.bar(&harness, 60).placed.first)
        Self.fill(&harness, buy)
        let killed = harness.send(Self.control(.kill))
        #expect(!killed.contains { if case .cancelOrder = $0 { true } else { false } })
        #expect(Self.bar(&harness, 70).placed.isEmpty, "not even the exit")
        let status = harness.core.status(at: harness.now)
        #expect(status.trading.state == "no new orders")
        #expect(status.trading.killSwitch)
        #expect(status.trading.reasons == ["the operator's kill switch"])
        harness.send(Self.control(.resume, id: 2))
        #expect(Self.bar(&harness, 80).placed.first?.orders[0].side == .sell)
    }

    @Test func flattenCancelsFirstAndClosesOnceNothingIsLeftWorking() throws {
        var harness = Harness(InAndOut())
        harness.startUp()
        let buy = try #require(Self.bar(&harness, 60).placed.first)
        Self.fill(&harness, buy)
        // An exit is working at the broker when the operator flattens.
        let sell = try #require(Self.bar(&harness, 70).placed.first)
        let working = sell.placements[0].orderID
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: working, status: "Submitted", filled: 0, remaining: 10))))
        let flatten = harness.send(Self.control(.flatten))
        #expect(flatten.contains(.cancelOrder(brokerOrderID: working)))
        #expect(flatten.placed.isEmpty, "no close while an order is still working")
        #expect(harness.core.status(at: harness.now).trading.flattening)
        let cancelled = harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: working, status: "Cancelled", filled: 0, remaining: 10))))
        let close = try #require(cancelled.placed.first)
        #expect(close.orders.map(\.side) == [.sell])
        #expect(close.orders[0].quantity == Quantity(10))
        #expect(close.orders[0].type == .market)
        let done = Self.fill(&harness, close)
        #expect(done.logs.contains("flatten done: every position is closed; the kill switch stays engaged until resume"))
        #expect(Self.bar(&harness, 90).placed.isEmpty, "the kill switch stays")
        let status = harness.core.status(at: harness.now)
        #expect(status.positions.isEmpty)
        #expect(!status.trading.flattening)
        #expect(status.trading.killSwitch)
    }

    @Test func theSnapshotShowsPositionsOrdersAndWhetherAStopProtectsThem() throws {
        var harness = Harness(InAndOut())
        harness.startUp()
        // The harness's bars are priced in hundredths: a close of 100 is 1.00.
        let buy = try #require(Self.bar(&harness, 60, close: 100).placed.first)
        Self.fill(&harness, buy, price: 1)
        harness.send(Self.control(.kill))
        Self.bar(&harness, 70, close: 103)
        let status = harness.core.status(at: harness.now)
        #expect(status.account == "DU111")
        #expect(status.mode == "paper")
        #expect(status.phase == "running")
        #expect(status.connection.connected)
        #expect(status.connection.serverVersion == 178)
        let position = try #require(status.positions.first)
        #expect(position.symbol == "AAPL")
        #expect(position.quantity == 10)
        #expect(position.price == 1.03)
        #expect(abs(position.unrealizedPnL - 0.3) < 1e-9)
        #expect(!position.protected)
        #expect(status.orders.isEmpty)
        #expect(status.counts.fills == 1)
    }

    @Test func aControlWhileStoppingIsRefused() {
        var harness = Harness(InAndOut())
        harness.startUp()
        harness.send(.stop("SIGTERM"))
        let late = harness.send(Self.control(.pause))
        #expect(Self.reply(late) == OperatorReply(id: 1, done: false, message: "the bot is stopping"))
    }

    /// `reload`: the new limits act from the next order on, the reply and the journal say what changed, and a
    /// reload without limits changes nothing.
    @Test func reloadAppliesTheNewRiskLimitsAndSaysWhatChanged() throws {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(InAndOut(), settings: settings)
        harness.startUp()
        var limits = RiskConfig()
        limits.maxPositionValue = Money(5)
        limits.scaleOrdersToFit = false
        let reloaded = harness.send(.control(OperatorControl(id: 1, action: .reload, by: "ctl", reason: "tighter", risk: limits)))
        let reply = try #require(Self.reply(reloaded))
        #expect(reply.done)
        #expect(reply.message == "risk limits reloaded: risk.maxPositionValue: none → 5; risk.scaleOrdersToFit: none → false")
        #expect(reloaded.contains { if case .journal(.event(.control, let text, _)) = $0 { text.hasSuffix(reply.message) } else { false } })
        // The strategy's buy of 10 (at the harness's price of 1: a position of 10) is now above the limit: denied.
        #expect(Self.bar(&harness, 60).placed.isEmpty)
        #expect(harness.core.engine.denials.last?.denial.rule == .maxPositionValue)
        let risk = harness.core.status(at: harness.now).risk
        #expect(risk.limits.contains { $0.name == "maxPositionValue" && $0.limit == 5 })
        // `/metrics` labels denials by rule from the status (issue 45).
        #expect(risk.denialsByRule["maxPositionValue"] == risk.denials && risk.denials > 0, "\(risk.denialsByRule)")
        let refused = harness.send(.control(OperatorControl(id: 2, action: .reload, by: "ctl", reason: "")))
        #expect(Self.reply(refused)?.done == false)
        #expect(harness.core.engine.config.risk == limits)
    }

    /// A failed journal write stops new orders until writes succeed again and the operator resumes, in either order
    /// (issue 25): a resume while writes fail waits for its own journal entry and is refused when that fails too; a
    /// write that succeeds without a resume lifts nothing.
    @Test func aJournalPauseEndsOnlyWhenWritesSucceedAndTheOperatorResumes() throws {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(InAndOut(), settings: settings)
        harness.startUp()
        let failed = harness.send(.journalFailed("database or disk is full"))
        #expect(failed.logs.contains { $0.hasPrefix("ALERT: the journal failed a write (database or disk is full)") })
        #expect(Self.bar(&harness, 60).placed.isEmpty)
        // Resume while the disk is still full: no answer yet; the resume's own entry is the test, and it fails.
        let asked = harness.send(Self.control(.resume, id: 1))
        #expect(Self.reply(asked) == nil)
        #expect(asked.contains { if case .journal(.event(.control, _, _)) = $0 { true } else { false } })
        #expect(Self.bar(&harness, 70).placed.isEmpty, "nothing is sent while the resume waits")
        let refused = harness.send(.journalFailed("database or disk is full"))
        #expect(Self.reply(refused) == OperatorReply(
            id: 1, done: false, message: "not resumed: the journal still fails writes (database or disk is full)"))
        #expect(refused.logs.contains { $0.hasPrefix("ALERT: the journal still fails writes") })
        #expect(Self.bar(&harness, 80).placed.isEmpty)
        // Writes succeed again, without the operator: still stopped.
        let writable = harness.send(.journalWritable)
        #expect(writable.logs.contains { $0.hasPrefix("the journal takes writes again; new orders stay stopped") })
        #expect(Self.bar(&harness, 90).placed.isEmpty)
        #expect(harness.core.status(at: harness.now).trading.state != "active")
        // Now the operator: at once.
        let resumed = harness.send(Self.control(.resume, id: 2))
        #expect(Self.reply(resumed)?.done == true)
        #expect(Self.reply(resumed)?.message.contains("writes succeed again") == true)
        #expect(Self.bar(&harness, 100).placed.first?.orders[0].side == .buy)
        // The other order: a failure, a resume that waits, then the resume's entry goes through.
        harness.send(.journalFailed("disk I/O error"))
        let waiting = harness.send(Self.control(.resume, id: 3))
        #expect(Self.reply(waiting) == nil)
        let through = harness.send(.journalWritable)
        #expect(Self.reply(through) == OperatorReply(id: 3, done: true, message: "trading resumed: the journal takes writes again"))
        let alerts = OperatorAlert.alerts(
            of: .journalWritable, actions: through, phaseBefore: .running, phaseAfter: .running, at: harness.now)
        #expect(alerts.contains { $0.kind == "journal" && $0.resolves })
        #expect(harness.core.status(at: harness.now).trading.state == "active")
    }
    /// A journal pause holds exits too, until the operator resumes, though writes work again: an exit that cannot be
    /// journaled first cannot be sent exactly once, and the operator is to look at what the failure cost before
    /// anything goes (issue 80's hand mutations of the journal gate: `journal-writable-lifts-pause` in
    /// scripts/mutations.txt lets exits out once writes work, before the resume).
    @Test func aJournalPauseHoldsExitsUntilTheOperatorResumes() throws {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(InAndOut(), settings: settings)
        harness.startUp()
        let entry = try #require(Self.bar(&harness, 60).placed.first)
        Self.fill(&harness, entry)
        harness.send(.journalFailed("database or disk is full"))
        #expect(Self.bar(&harness, 70).placed.isEmpty, "no exit while writes fail")
        harness.send(.journalWritable)
        #expect(Self.bar(&harness, 80).placed.isEmpty, "no exit once writes work but before the resume")
        #expect(Self.reply(harness.send(Self.control(.resume, id: 1)))?.done == true)
        #expect(Self.bar(&harness, 90).placed.first?.orders[0].side == .sell, "the exit goes after the resume")
    }

    /// An operator's flatten during a journal pause waits while writes fail and closes the positions once a write
    /// succeeds, before any resume: the flatten is the operator's own decision, and its closes can be journaled; the
    /// strategy stays held until the resume (issue 80's journal gate: it reads whether writes fail, and the engine's
    /// kill switch holds the strategy; a gate that read the pause refused the closes and left the flatten hanging).
    @Test func aFlattenDuringAJournalPauseClosesOnceWritesWorkWithoutAResume() throws {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(InAndOut(), settings: settings)
        harness.startUp()
        Self.fill(&harness, try #require(Self.bar(&harness, 60).placed.first))
        harness.send(.journalFailed("database or disk is full"))
        let asked = harness.send(Self.control(.flatten))
        #expect(Self.reply(asked)?.message.hasSuffix("and the journal takes writes again (it fails writes now)") == true)
        #expect(asked.placed.isEmpty, "no close while writes fail")
        #expect(Self.bar(&harness, 70).placed.isEmpty)
        let writable = harness.send(.journalWritable)
        let close = try #require(writable.placed.first, "the closes go once a write succeeds")
        #expect(close.orders.map(\.side) == [.sell] && close.orders[0].quantity == Quantity(10))
        #expect(close.orders[0].type == .market)
        let done = Self.fill(&harness, close)
        #expect(done.logs.contains("flatten done: every position is closed; the kill switch stays engaged until resume"))
        #expect(Self.bar(&harness, 90).placed.isEmpty, "the strategy stays held until the resume")
        #expect(harness.core.status(at: harness.now).positions.isEmpty)
    }

    /// `orders.flattenOnExit` at a stop during a journal pause: while writes fail the stop keeps the positions (and
    /// says why); once a write has succeeded it flattens, though the pause still holds the strategy.
    @Test(arguments: [false, true])
    func aStopDuringAJournalPauseFlattensOnlyOnceWritesWork(writable: Bool) throws {
        var settings = Harness.settings()
        settings.journaled = true
        settings.flattenOnExit = true
        var harness = Harness(InAndOut(), settings: settings)
        harness.startUp()
        Self.fill(&harness, try #require(Self.bar(&harness, 60).placed.first))
        harness.send(.journalFailed("database or disk is full"))
        if writable { harness.send(.journalWritable) }
        var actions = harness.send(.stop("SIGTERM"), after: .seconds(1))
        actions += harness.answerAll()
        let closes = actions.placed.flatMap(\.orders).filter { $0.clientOrderID.rawValue.hasPrefix("EXIT-") }
        if writable {
            #expect(closes.map(\.side) == [.sell] && closes.first?.quantity == Quantity(10), "\(actions.logs)")
        } else {
            #expect(closes.isEmpty)
            #expect(actions.logs.contains { $0.hasPrefix("not flattening at the stop: the journal is failing") })
        }
    }

    /// Issue 83: a strategy that holds its `maxActivePositions` is at its plan, not at a warning: the limit says so
    /// to the dashboard (which marks it only when exceeded); the other limits do not.
    @Test func aFullPositionCountIsNormalOtherLimitsAreNot() throws {
        var settings = Harness.settings()
        settings.engine.risk.maxActivePositions = 1
        settings.engine.risk.maxGrossExposureRatio = 2
        var harness = Harness(InAndOut(), settings: settings)
        harness.startUp()
        Self.fill(&harness, try #require(Self.bar(&harness, 60).placed.first))
        let limits = harness.core.status(at: harness.now).risk.limits
        let count = try #require(limits.first { $0.name == "maxActivePositions" })
        #expect(count.used == 1 && count.limit == 1 && count.fullIsNormal == true)
        #expect(limits.filter { $0.name != "maxActivePositions" }.allSatisfy { $0.fullIsNormal == nil }, "\(limits)")
    }
}
