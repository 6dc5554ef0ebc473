import Foundation
import SimulatedVenue
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// What the repricing strategy saw of its order's modifications.
private final class ModifyLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    private var price: Double?
    private var held: [GatewayOrder] = []
    func keep(_ orders: [GatewayOrder]) { lock.withLock { held = orders } }
    var broker: [GatewayOrder] { lock.withLock { held } }
    func add(_ event: String) { lock.withLock { events.append(event) } }
    func setTarget(_ value: Double) { lock.withLock { price = value } }
    var target: Double? { lock.withLock { price } }
    var all: [String] { lock.withLock { events } }
}

/// A resting limit buy of SYN000 at half the price, then repriced to 60 % of the first close: the modify is asked
/// again on any later bar while the order works on other terms (as an execution style's reprice does).
private struct Reprice: Strategy {
    let log: ModifyLog
    let recorder: EngineRecorder
    /// Whether to reprice once the order rests (else it only rests).
    var reprices = true
    var placed: ClientOrderID?
    var target: Price?

    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        recorder.cash(context.cash)
        if case .orderUpdated(_, let update) = event { log.add("\(update)") }
        guard case .bar(let id, let bar) = event, id == syn0, bar.timestamp >= faultTradeTime else { return [] }
        let cent: Int64 = 1_000_000
        guard let placed else {
            let order = OrderRequest(
                instrument: syn0, side: .buy, quantity: Quantity(100),
                type: .limit(Price(units: bar.close.units / 2 / cent * cent)), timeInForce: .day,
                clientOrderID: ClientOrderID("reprice"))
            self.placed = order.clientOrderID
            target = Price(units: bar.close.units * 6 / 10 / cent * cent)
            log.setTarget(target?.doubleValue ?? 0)
            return [.submit(order)]
        }
        guard reprices, let target, let order = context.openOrders(for: syn0).first(where: { $0.clientOrderID == placed }),
            order.state == .accepted, order.type != .limit(target), bar.timestamp >= faultTradeTime + .seconds(20)
        else { return [] }
        log.add("modify")
        return [.modify(placed, OrderModification(type: .limit(target), reason: "test reprice"))]
    }
}

@Suite("One client order, one live broker order: lost modifies, second incarnations", .timeLimit(.minutes(1)))
struct OneLiveOrderRunnerTests {
    @Test("the modify never reaches the broker and the socket goes: after the reconnect it is refused, not assumed, and the strategy's next one lands on the same single order")
    func lostModifyIsRefusedThenRedone() async throws {
        let log = ModifyLog()
        let run = try await faultRun(clientID: 91, strategy: { Reprice(log: log, recorder: $0) }) { venue, recorder in
            await replaySteps(venue, recorder, limit: 200) { state in
                state.orders.values.contains { $0.key.clientID == 91 && !$0.isTerminal }
            }
            await venue.apply(.loseNextModify)
            // The reprice lands once the modify is refused after the reconnect and asked again.
            await replaySteps(venue, recorder, limit: 400) { state in
                state.orderLog.contains { $0.clientID == 91 && $0.isModification }
            }
            await replaySteps(venue, recorder, limit: 3)
            // The broker's orders before the stop cancels them.
            log.keep(await venue.state().orders.values.filter { $0.key.clientID == 91 && !$0.isTerminal })
        }
        let orders = log.broker
        #expect(orders.count == 1, "one client order, one live broker order: \(orders.map(\.permID))")
        let order = try #require(orders.first)
        let modifies = log.all.filter { $0 == "modify" }.count
        #expect(modifies == 2, "asked once, lost, asked again: \(log.all)")
        #expect(log.all.contains { $0.contains("replaceRejected") }, "the engine heard the lost modify refused: \(log.all)")
        #expect(run.summary.reconnects == 1)
        #expect(order.wire.limitPrice == log.target, "the broker's order has the new price")
        #expect(run.recorder.fills.isEmpty, "nothing filled")
        #expect(
            run.state.orderLog.filter { $0.clientID == 91 && $0.isModification }.count == 1,
            "the second modify is the only one that arrived")
        // The refusal is journaled against the order's own row (its orderRef at the broker), not failed as a write to
        // an order the journal does not know, which paused trading with a false "journal failed" ALERT.
        let failures = try run.journal.events(kind: .error).map(\.message).filter { $0.contains("journal failed") }
        #expect(failures.isEmpty, "\(failures)")
        let journaled = try #require(try run.journal.orders().first { $0.intent.orderRef.rawValue.hasSuffix(":reprice") })
        guard case .limit(let price) = journaled.intent.type else { Issue.record("\(journaled.intent.type)"); return }
        #expect(price.doubleValue == log.target, "the journal has the terms the broker holds")
        #expect(journaled.modifications == 1, "asked twice, one refused: one modification stands")
        try expectFaultInvariants(run)
    }

    @Test("a second live broker order with the same orderRef (another permId) is never merged: it is cancelled and ALERTed, the followed one works on")
    func secondIncarnationIsCancelled() async throws {
        let log = ModifyLog()
        let run = try await faultRun(clientID: 92, strategy: { Reprice(log: log, recorder: $0, reprices: false) }) { venue, recorder in
            await venue.apply(.twinNextOrder)
            await replaySteps(venue, recorder, limit: 200) { state in
                state.orders.values.contains { $0.key.clientID == 92 && $0.key.orderID > GatewayState.twinOffset }
            }
            // The twin is cancelled by the bot once its openOrder arrives.
            await replaySteps(venue, recorder, limit: 100) { state in
                state.orders.values.contains { $0.key.clientID == 92 && $0.key.orderID > GatewayState.twinOffset && $0.isTerminal }
            }
            log.keep(await venue.state().orders.values.filter { $0.key.clientID == 92 })
        }
        let orders = log.broker
        #expect(orders.count == 2, "the original and its twin: \(orders.map(\.key))")
        let original = try #require(orders.first { $0.key.orderID < GatewayState.twinOffset })
        let twin = try #require(orders.first { $0.key.orderID > GatewayState.twinOffset })
        #expect(original.wire.orderRef == twin.wire.orderRef && original.permID != twin.permID)
        #expect(!original.isTerminal, "the followed order works on")
        #expect(twin.status == "Cancelled", "the second live order is cancelled: \(twin.status)")
        let alerts = try run.journal.events(kind: .error).map(\.message).filter { $0.contains("live twice at the broker") }
        #expect(alerts.count == 1, "one ALERT, journaled: \(alerts)")
        #expect(alerts.first?.contains("permId \(twin.permID)") == true && alerts.first?.contains("cancelling it") == true)
        #expect(run.recorder.fills.isEmpty)
    }

    @Test("a fill with no orderStatus (execDetails, openOrder and commission only): booked, the order ends filled, the next one goes out")
    func aFillWithoutItsStatusEndsTheOrder() async throws {
        let run = try await faultRun(
            clientID: 94,
            strategy: { TargetSchedule(steps: [(faultTradeTime, 100), (faultTradeTime + .seconds(60), 300)], recorder: $0) }
        ) { venue, recorder in
            await venue.apply(.missingStatus)
            await replaySteps(venue, recorder, limit: 300) { _ in recorder.fills.count >= 2 }
        }
        #expect(!run.state.pendingFaults.dropNextFillStatus, "the fault took the first fill's orderStatus")
        // The second target needs the first order over: had the missing status left it open, nothing more was sent.
        #expect(run.recorder.fills.map(\.quantity) == [Quantity(100), Quantity(200)])
        #expect(run.summary.enginePositions[Symbol("SYN000")] == Quantity(300))
        #expect(run.summary.brokerPositions[Symbol("SYN000")] == Quantity(300))
        let states = try run.journal.orders().map(\.state)
        #expect(states == [.filled, .filled], "\(states)")
        try expectFaultInvariants(run)
    }

    @Test("IB's 10349 and a Cancelled, then the order goes on and fills: the fill is the bot's, not an anomaly after a cancel")
    func presetNoticeCancelIsNotFinal() async throws {
        let run = try await faultRun(
            clientID: 93, strategy: { TargetSchedule(steps: [(faultTradeTime, 100)], recorder: $0) }
        ) { venue, recorder in
            await venue.apply(.presetCancelNextOrder)
            await replaySteps(venue, recorder, limit: 200) { _ in recorder.fills.count >= 1 }
        }
        #expect(run.recorder.fills.map(\.quantity) == [Quantity(100)])
        #expect(run.summary.enginePositions[Symbol("SYN000")] == Quantity(100))
        #expect(run.summary.brokerPositions[Symbol("SYN000")] == Quantity(100))
        try expectFaultInvariants(run)
    }
}
