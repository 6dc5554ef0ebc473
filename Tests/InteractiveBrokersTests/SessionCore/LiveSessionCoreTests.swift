import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The session core as a pure function: these inputs at these times → these actions. No sockets, no sleeps.
@Suite struct LiveSessionCoreTests {
    typealias Harness = SessionCoreHarness<BuyWhenFlat>

    @Test func theStartConnectsAndAPaperAccountQualifiesEveryContract() {
        var harness = Harness(BuyWhenFlat(), settings: Harness.settings(symbols: ["AAPL", "MSFT"]))
        #expect(harness.send(.start) == [.connect])
        let actions = harness.send(.connected(Harness.connection()))
        let requests = Harness.requests(actions).map(\.1)
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { if case .contractDetails = $0 { true } else { false } })
        #expect(harness.core.phase == .starting)
    }

    @Test func aLiveAccountWithoutConfirmationFailsBeforeAnythingIsRequested() {
        var harness = Harness(BuyWhenFlat())
        harness.send(.start)
        let actions = harness.send(.connected(Harness.connection(account: "U222")))
        #expect(actions.last == .fail(.liveAccountNotConfirmed(account: "U222")))
        #expect(Harness.requests(actions).isEmpty)
        #expect(harness.core.phase == .finished)
        #expect(harness.send(.tick, after: .seconds(1)).isEmpty, "nothing after the end")
    }

    @Test func afterTheStartUpBarsAreSubscribedAndABarPlacesAnOrderUnderTheRunsNamespace() throws {
        var harness = Harness(BuyWhenFlat())
        let subscribed = harness.startUp()
        #expect(harness.core.phase == .running)
        #expect(subscribed.contains(.milestone(.runner(.subscribed(generation: 0, feed: 0)))))
        let t = Harness.start + .seconds(60)
        let actions = harness.bar(at: t).flatMap { harness.send($0, after: .seconds(1)) }
        let group = try #require(actions.placed.first)
        #expect(group.placements.map(\.orderID) == [100], "the first id is nextValidId's")
        #expect(group.placements.first?.order.orderRef.hasPrefix("T:") == true)
        #expect(group.placements.first?.order.action == "BUY")
        #expect(group.time == t, "stamped with data time, the bar's")
        #expect(harness.core.dataTime == t)
    }

    @Test func aBarSeenBeforeIsSkipped() {
        var harness = Harness(BuyWhenFlat())
        harness.startUp()
        let t = Harness.start + .seconds(60)
        for input in harness.bar(at: t) { harness.send(input) }
        let again = harness.bar(at: t).flatMap { harness.send($0) }
        #expect(again.placed.isEmpty && harness.core.counts.bars == 1)
    }

    @Test func aLostSocketReconnectsWithDoublingBackoffThenResynchronizesAndResubscribes() {
        var settings = Harness.settings()
        settings.reconnectDelay = .seconds(1)
        settings.maxReconnectDelay = .seconds(3)
        var harness = Harness(BuyWhenFlat(), settings: settings)
        harness.startUp()
        let lost = harness.send(.connectionClosed(generation: 1, "peer closed"), after: .seconds(10))
        #expect(harness.core.phase == .reconnecting)
        #expect(lost.contains(.wakeUp(at: harness.now + .seconds(1))))
        #expect(harness.send(.tick, after: .milliseconds(500)).contains(.connect) == false, "not before the delay")
        #expect(harness.send(.tick, after: .milliseconds(500)).contains(.connect))
        // Two failures: 2 s, then 3 s (the cap).
        let first = harness.send(.connectFailed("refused"))
        #expect(first.contains(.wakeUp(at: harness.now + .seconds(2))))
        #expect(harness.send(.tick, after: .seconds(2)).contains(.connect))
        let second = harness.send(.connectFailed("refused"))
        #expect(second.contains(.wakeUp(at: harness.now + .seconds(3))))
        #expect(harness.send(.tick, after: .seconds(3)).contains(.connect))
        let back = harness.send(.connected(Harness.connection(generation: 2)))
        #expect(back.contains(.milestone(.runner(.reconnected(generation: 1)))))
        // The recovery: executions and open orders first; bars only once those are in (and the back-fill done).
        let resync = Harness.requests(back).map(\.1)
        #expect(resync == [.executions, .openOrders, .completedOrders])
        #expect(back.subscriptions.isEmpty)
        let actions = harness.answerAll()
        #expect(harness.core.counts.reconnects == 1)
        #expect(harness.core.counts.resynchronizations == 1)
        #expect(actions.contains(.milestone(.runner(.subscribed(generation: 1, feed: 0)))))
    }

    @Test func aGatewayNotUpYetIsWaitedForWithBackoffWithinTheBoundThenTheRunStarts() {
        var settings = Harness.settings()
        settings.reconnectDelay = .seconds(1)
        settings.maxReconnectDelay = .seconds(4)
        settings.gatewayWait = .seconds(60)
        var harness = Harness(BuyWhenFlat(), settings: settings)
        #expect(harness.send(.start) == [.connect])
        let first = harness.send(.gatewayUnreachable("refused"), after: .milliseconds(10))
        #expect(first.contains(.wakeUp(at: harness.now + .seconds(1))))
        #expect(harness.core.phase == .connecting)
        #expect(harness.send(.tick, after: .milliseconds(500)).contains(.connect) == false, "not before the delay")
        #expect(harness.send(.tick, after: .milliseconds(500)).contains(.connect))
        let second = harness.send(.gatewayUnreachable("refused"))
        #expect(second.contains(.wakeUp(at: harness.now + .seconds(2))), "the delay doubles")
        #expect(harness.send(.tick, after: .seconds(2)).contains(.connect))
        let ready = harness.send(.connected(Harness.connection()))
        #expect(harness.core.phase == .starting)
        #expect(!Harness.requests(ready).isEmpty)
    }

    @Test func aGatewayThatStaysDownEndsTheRunAtTheBoundAndSaysHowLongItWaited() {
        var settings = Harness.settings()
        settings.reconnectDelay = .seconds(4)
        settings.maxReconnectDelay = .seconds(4)
        settings.gatewayWait = .seconds(10)
        var harness = Harness(BuyWhenFlat(), settings: settings)
        harness.send(.start)
        for _ in 0..<2 {
            #expect(harness.send(.gatewayUnreachable("refused")).contains { if case .fail = $0 { true } else { false } } == false)
            #expect(harness.send(.tick, after: .seconds(4)).contains(.connect))
        }
        // 8 s gone: the last attempt is at the 10 s bound, not 4 s later.
        #expect(harness.send(.gatewayUnreachable("refused")).contains(.wakeUp(at: harness.now + .seconds(2))))
        #expect(harness.send(.tick, after: .seconds(2)).contains(.connect))
        let last = harness.send(.gatewayUnreachable("refused"))
        guard case .fail(let error)? = last.last else {
            Issue.record("the run did not end: \(last)")
            return
        }
        #expect("\(error)".contains("waited 10") && "\(error)".contains("connection.waitForGateway"), "\(error)")
        #expect(harness.core.phase == .finished)
    }

    @Test func withoutAWaitARefusedFirstConnectionEndsTheRunAndAStopWhileWaitingEndsItAtOnce() {
        var harness = Harness(BuyWhenFlat())
        harness.send(.start)
        #expect(harness.send(.gatewayUnreachable("refused")).last.map { if case .fail = $0 { true } else { false } } == true)
        var settings = Harness.settings()
        settings.gatewayWait = .seconds(600)
        var waiting = Harness(BuyWhenFlat(), settings: settings)
        waiting.send(.start)
        waiting.send(.gatewayUnreachable("refused"))
        let stopped = waiting.send(.stop("SIGTERM"), after: .milliseconds(200))
        #expect(stopped.contains { if case .finish = $0 { true } else { false } })
        #expect(waiting.send(.tick, after: .seconds(5)).isEmpty, "no attempt after the stop")
    }

    /// An order that left the open orders while the bot was disconnected ends as the broker's completed orders say;
    /// one the broker does not know at all (no executions either) ends unfilled, and the log says which it was
    /// (issue 25: a final state only after completed orders and executions were asked).
    @Test(arguments: ["Cancelled", ""])
    func aResyncTakesAnEndedOrdersStateFromTheBrokerAndNeverGuessesIt(status: String) throws {
        var harness = Harness(BuyWhenFlat())
        harness.startUp()
        let placed = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0, after: .seconds(1)) }
        let group = try #require(placed.placed.first)
        let wire = try #require(group.placements.first)
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: wire.orderID, status: "Submitted", filled: 0, remaining: wire.order.totalQuantity, permID: 77))))
        harness.send(.connectionClosed(generation: 1, "peer closed"), after: .seconds(5))
        harness.send(.tick, after: .seconds(1))
        let back = harness.send(.connected(Harness.connection(generation: 2)))
        var order = wire.order
        order.orderID = wire.orderID
        order.permID = 77
        let completed = status.isEmpty ? [] : [TWSCompletedOrder(
            contract: TWSContract(symbol: "AAPL"), order: order, orderState: TWSOrderState(status: status))]
        var logged: [SessionAction] = []
        for (tag, request) in Harness.requests(back) {
            switch request {
            case .executions: logged += harness.send(.answer(tag, .executions([])))
            case .openOrders: logged += harness.send(.answer(tag, .openOrders([])))
            case .completedOrders: logged += harness.send(.answer(tag, .completedOrders(completed)))
            default: break
            }
        }
        let tracked = try #require(harness.core.desk.book.orders.values.first)
        #expect(tracked.state == .canceled)
        let text = logged.compactMap { if case .log(_, let line) = $0 { line } else { nil } }.joined(separator: "\n")
        #expect(text.contains(status.isEmpty ? "is not known to the broker" : "while disconnected: Cancelled"), "\(text)")
    }

    /// The sibling branch: an order missing from the open orders after a reconnect that is partly executed (the
    /// broker does not list how it ended), or that the broker reports Filled without the executions behind it, keeps
    /// the state it had, with nothing journaled or reported for it, and the log says a person has to look (issue 25:
    /// no final state is guessed). Recording any state here (Cancelled, Filled) fails this test.
    @Test(arguments: [("", 4), ("Filled", 4), ("Filled", 0)])
    func aResyncLeavesAPartlyExecutedOrUnexecutedFilledOrderAsItWasAndReportsIt(status: String, executed: Int) throws {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(BuyWhenFlat(), settings: settings)
        harness.startUp()
        let placed = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0, after: .seconds(1)) }
        let group = try #require(placed.placed.first)
        let wire = try #require(group.placements.first)
        #expect(wire.order.totalQuantity == 10)
        harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
            orderID: wire.orderID, status: "Submitted", filled: 0, remaining: 10, permID: 77))))
        var brokerExecutions: [TWSExecutionReport] = []
        if executed > 0 {
            var report = Harness.execution(of: group, id: "E-part", shares: Decimal(executed), permID: 77)
            harness.send(.orderEvent(generation: 1, .execution(report)))
            report.commission = TWSCommissionReport(executionID: "E-part", commission: 1, currency: "USD")
            harness.send(.orderEvent(generation: 1, .commission(report)))
            harness.send(.orderEvent(generation: 1, .status(TWSOrderStatus(
                orderID: wire.orderID, status: "Submitted", filled: Decimal(executed), remaining: Decimal(10 - executed),
                permID: 77))))
            brokerExecutions = [report]
        }
        let before = try #require(harness.core.desk.book.orders.values.first)
        #expect(before.executed == Quantity(Int64(executed)))
        #expect(before.state.isOpen)
        let engineBefore = try #require(harness.core.engine.orders.order(before.orderID))
        harness.send(.connectionClosed(generation: 1, "peer closed"), after: .seconds(5))
        harness.send(.tick, after: .seconds(1))
        let back = harness.send(.connected(Harness.connection(generation: 2)))
        var order = wire.order
        order.orderID = wire.orderID
        order.permID = 77
        let completed = status.isEmpty ? [] : [TWSCompletedOrder(
            contract: TWSContract(symbol: "AAPL"), order: order, orderState: TWSOrderState(status: status))]
        var resync: [SessionAction] = []
        for (tag, request) in Harness.requests(back) {
            switch request {
            case .executions: resync += harness.send(.answer(tag, .executions(brokerExecutions)))
            case .openOrders: resync += harness.send(.answer(tag, .openOrders([])))
            case .completedOrders: resync += harness.send(.answer(tag, .completedOrders(completed)))
            default: break
            }
        }
        #expect(harness.core.counts.resynchronizations == 1)
        // Left as it was: the book's state, its executions, the engine's order.
        let after = try #require(harness.core.desk.book.orders.values.first)
        #expect(after.state == before.state, "the book recorded \(after.state) for an order it cannot know the end of")
        #expect(after.executed == before.executed)
        #expect(harness.core.engine.orders.order(before.orderID) == engineBefore)
        // Nothing reported to the engine or written to the journal about it.
        let reports = resync.compactMap { action -> ExecutionReport? in
            if case .engineEvent(.execution(let report), _) = action { report } else { nil }
        }
        #expect(reports.filter { $0.orderID == before.orderID }.isEmpty, "\(reports)")
        let statusWrites = resync.compactMap { action -> JournalStatusUpdate? in
            if case .journal(.status(let update)) = action { update } else { nil }
        }
        #expect(statusWrites.filter { $0.orderRef == ClientOrderID(wire.order.orderRef) }.isEmpty, "\(statusWrites)")
        // Reported: the line names the order, what the broker said, and what was executed.
        let text = resync.logs.joined(separator: "\n")
        let said = status.isEmpty ? "does not say how it ended" : "reports it Filled without its executions"
        #expect(text.contains("\(wire.order.orderRef) is no longer open at the broker, which \(said)"), "\(text)")
        #expect(text.contains("(\(executed) of 10 executed); left as it was: check it in TWS"), "\(text)")
    }

    @Test func a1100PausesEntriesAfterTheGracePeriodAnd1102ResumesThem() {
        var settings = Harness.settings()
        settings.resilience.gracePeriod = .seconds(30)
        var harness = Harness(BuyWhenFlat(), settings: settings)
        harness.startUp()
        harness.send(.connectivity(generation: 1, .lost))
        #expect(!harness.send(.tick, after: .seconds(29)).contains(.milestone(.connectivity(.paused))))
        let paused = harness.send(.tick, after: .seconds(1))
        #expect(paused.contains(.milestone(.connectivity(.paused))))
        #expect(paused.logs.contains { $0.hasPrefix("ALERT: connection to IB down for 30 s") })
        let t = Harness.start + .seconds(120)
        let denied = harness.bar(at: t).flatMap { harness.send($0) }
        #expect(denied.placed.isEmpty, "entries paused")
        let restored = harness.send(.connectivity(generation: 1, .restored(dataLost: false)), after: .seconds(5))
        #expect(restored.contains(.milestone(.connectivity(.resumed))))
        #expect(Harness.requests(restored).map(\.1) == [.executions, .openOrders, .completedOrders])
    }

    @Test func anUnansweredHeartbeatGivesTheConnectionUp() {
        var settings = Harness.settings()
        settings.resilience.heartbeat = Heartbeat(interval: .seconds(30), timeout: .seconds(10))
        var harness = Harness(BuyWhenFlat(), settings: settings)
        harness.startUp()
        #expect(Harness.requests(harness.send(.tick, after: .seconds(29))).isEmpty)
        let probe = harness.send(.tick, after: .seconds(1))
        #expect(Harness.requests(probe).map(\.1).contains(.serverTime))
        harness.answerAll { $0 == .serverTime }  // everything else answers (the execution sync)
        #expect(!harness.send(.tick, after: .seconds(9)).contains { if case .disconnect = $0 { true } else { false } })
        let dead = harness.send(.tick, after: .seconds(1))
        #expect(dead.contains(.disconnect("no answer to the heartbeat (reqCurrentTime) within 10 s after 30 s of silence")))
        #expect(dead.contains(.milestone(.connectivity(.heartbeatUnanswered(expected: false)))))
        #expect(harness.core.phase == .reconnecting)
    }

    @Test func aStopDuringTheWarmUpCancelsItsRequestsAndNeverSubscribes() throws {
        var harness = Harness(BuyWhenFlat())
        harness.send(.start)
        harness.send(.connected(Harness.connection()))
        // Everything answers but the warm-up's historical request.
        let isWarmup: (SessionRequest) -> Bool = { if case .historicalBars = $0 { true } else { false } }
        harness.answerAll(skipping: isWarmup)
        let tag = try #require(harness.outstanding.first { isWarmup($0.1) }?.0)
        let stopped = harness.send(.stop("SIGTERM"), after: .seconds(1))
        #expect(stopped.contains(.cancel(tag)))
        #expect(stopped.subscriptions.isEmpty)
        // The stop goes on: kill switch, the final resynchronization, the drain, the snapshot, the summary.
        var rest = stopped + harness.answerAll()
        rest += harness.send(.tick, after: .seconds(1))
        rest += harness.answerAll()
        guard case .finish(let summary)? = rest.last else {
            Issue.record("no summary: \(rest.map(\.summary))")
            return
        }
        #expect(summary.stopReason == "SIGTERM" && summary.warmupBars == 0 && summary.bars == 0)
    }

    @Test func aStopWhileRunningCancelsOpenOrdersDrainsThenRecordsTheBrokersState() throws {
        var harness = Harness(BuyWhenFlat())
        harness.startUp()
        let placed = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0) }.placed
        let id = try #require(placed.first?.placements.first?.orderID)
        let stop = harness.send(.stop("duration 30s elapsed"), after: .seconds(1))
        #expect(stop.contains(.cancelOrder(brokerOrderID: id)), "orders.cancelOnExit")
        #expect(stop.contains(.cancel(harness.feed)), "the feed ends")
        let actions = harness.answerAll()
        // Draining: the wake-up after stopDrain (0.5 s), then the final snapshot.
        #expect(actions.contains(.wakeUp(at: harness.now + .milliseconds(500))))
        #expect(Harness.requests(harness.send(.tick, after: .milliseconds(400))).isEmpty)
        let snapshot = harness.send(.tick, after: .milliseconds(100))
        let final = try #require(Harness.requests(snapshot).first)
        #expect(final.1 == .brokerState)
        let done = harness.send(.answer(final.0, Harness.answer(to: .brokerState)))
        guard case .finish(let summary)? = done.last else {
            Issue.record("no summary")
            return
        }
        #expect(summary.stopReason == "duration 30s elapsed" && summary.commands == 2)
    }

    /// Issue 45: a gateway that stops answering cannot hold a SIGTERM past the service manager's stop timeout. The stop
    /// finishes at `stopLimit` (30 s) without the broker's answers, saying so; a second request cuts it to 5 s.
    @Test(arguments: [false, true])
    func aStopTheBrokerNeverAnswersFinishesAtItsLimit(secondSignal: Bool) throws {
        var harness = Harness(BuyWhenFlat())
        harness.startUp()
        _ = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0) }
        let stop = harness.send(.stop("SIGTERM"), after: .seconds(1))
        let began = harness.now
        #expect(stop.contains(.wakeUp(at: began + .seconds(30))))
        #expect(!Harness.requests(stop).isEmpty, "the re-reads are asked for, and never answered")
        var limit = TimeSpan.seconds(30)
        if secondSignal {
            let again = harness.send(.stop("SIGTERM"), after: .seconds(2))
            #expect(again.contains(.wakeUp(at: harness.now + .seconds(5))))
            limit = .seconds(7)
        }
        let before = harness.send(.tick, after: began + limit - .milliseconds(1) - harness.now)
        #expect(!before.contains { if case .finish = $0 { true } else { false } })
        let done = harness.send(.tick, after: .milliseconds(1))
        guard case .finish(let summary)? = done.last else {
            Issue.record("no summary at the limit: \(done)")
            return
        }
        #expect(summary.stopReason == "SIGTERM")
        let said = try #require(done.logs.first { $0.contains("the stop waited") })
        #expect(said.contains("\(secondSignal ? 7 : 30) s") && said.contains("re-read of executions and open orders"), "\(said)")
        #expect(harness.send(.tick, after: .seconds(60)).isEmpty, "nothing after the finish")
    }

    @Test func aFailedJournalWriteStopsNewOrdersButNotCancels() {
        var harness = Harness(BuyWhenFlat())
        harness.startUp()
        let failed = harness.send(.journalFailed("disk full"))
        #expect(failed.logs.contains { $0.hasPrefix("ALERT: the journal failed a write (disk full)") })
        let actions = harness.bar(at: Harness.start + .seconds(60)).flatMap { harness.send($0) }
        #expect(actions.placed.isEmpty)
    }
}
