import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// The broker against the gateway simulator over loopback TCP.
@Suite(.timeLimit(.minutes(1))) struct IBBrokerLoopbackTests {
    static func order(
        _ id: Int64, _ side: Side, _ quantity: Int64, _ type: OrderType, client: String, tif: TimeInForce = .day
    ) -> Order {
        engineOrder(id, side, quantity, type: type, tif: tif, client: client, instrument: syn0)
    }

    @Test func marketOrderIsAcceptedAndFilledWithItsCommission() async throws {
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            try await h.broker.execute(.submit(Self.order(1, .buy, 100, .market, client: "mkt-1")))
            let seen = await read(&events) { isReport($0, 1, "filled") }
            #expect(seen.compactMap(\.report).map(\.orderID) == [OrderID(1), OrderID(1)])
            #expect(seen.first.map { isReport($0, 1, "accepted") } == true)
            let fill = try #require(seen.last?.fill)
            #expect(fill.quantity == Quantity(100) && fill.side == .buy && fill.instrument == syn0)
            #expect(fill.commission == Money(1))  // IBKR fixed: 0.005/share, minimum 1.00
            let tracked = try #require(await h.broker.trackedOrders[OrderID(1)])
            #expect(tracked.state == .filled && tracked.permID != 0 && tracked.orderRef == "IBT:mkt-1")
            let executions = try await h.connection.executions()
            #expect(executions.map(\.execution.orderRef) == ["IBT:mkt-1"])
        }
    }

    @Test func bracketGoesOutAsParentAndLinkedChildren() async throws {
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            let parent = Self.order(1, .buy, 100, .limit(Price(1)), client: "br-1")
            var stop = Self.order(2, .sell, 100, .stop(Price("0.5")!), client: "br-1-SL", tif: .gtc)
            var target = Self.order(3, .sell, 100, .limit(Price(10_000)), client: "br-1-TP", tif: .gtc)
            stop.parentID = parent.id
            target.parentID = parent.id
            try await h.broker.execute(.submitBracket(parent: parent, children: [stop, target]))
            var accepted: Set<OrderID> = []
            _ = await read(&events) { event in
                if case .report(.accepted(let id, _)) = event { accepted.insert(id) }
                return accepted.count == 3
            }
            let open = try await h.connection.openOrders().sorted { $0.order.orderID < $1.order.orderID }
            #expect(open.count == 3)
            let parentID = try #require(open.first?.order.orderID)
            #expect(open.map(\.order.parentID) == [0, parentID, parentID])
            #expect(open.map(\.order.orderRef) == ["IBT:br-1", "IBT:br-1-SL", "IBT:br-1-TP"])
            #expect(open.map(\.orderState.status) == ["Submitted", "PreSubmitted", "PreSubmitted"])
            #expect(open[1].order.ocaGroup == "IBT:br-1/OCA" && open[2].order.ocaGroup == "IBT:br-1/OCA")

            // Cancelling the entry takes the children with it.
            try await h.broker.execute(.cancel(parent.id))
            var canceled: Set<OrderID> = []
            _ = await read(&events) { event in
                if case .report(.canceled(let id, _, _)) = event { canceled.insert(id) }
                return canceled.contains(parent.id)
            }
            #expect(canceled.contains(parent.id))
        }
    }

    @Test func marketableBracketFillsTheEntryAndArmsTheChildren() async throws {
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            let parent = Self.order(1, .buy, 100, .market, client: "br-2")
            let stop = Self.order(2, .sell, 100, .stop(Price("0.5")!), client: "br-2-SL", tif: .gtc)
            let target = Self.order(3, .sell, 100, .limit(Price(10_000)), client: "br-2-TP", tif: .gtc)
            try await h.broker.execute(.submitBracket(parent: parent, children: [stop, target]))
            let seen = await read(&events) { isReport($0, 1, "filled") }
            #expect(seen.compactMap(\.fill).map(\.quantity) == [Quantity(100)])
            let open = try await h.connection.openOrders()
            #expect(Set(open.map(\.order.orderRef)) == ["IBT:br-2-SL", "IBT:br-2-TP"])
        }
    }

    @Test func modifyAndCancelAWorkingLimitOrder() async throws {
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            let order = Self.order(1, .buy, 100, .limit(Price(1)), client: "lmt-1")
            try await h.broker.execute(.submit(order))
            _ = await read(&events) { isReport($0, 1, "accepted") }

            try await h.broker.execute(
                .modify(
                    order.id, OrderModification(quantity: Quantity(50), type: .limit(Price(2))),
                    filledQuantity: .zero))
            _ = await read(&events) { isReport($0, 1, "replaced") }
            let open = try await h.connection.openOrders()
            #expect(open.first?.order.limitPrice == 2 && open.first?.order.totalQuantity == 50)

            // A modification that changes the kind of order is refused before it is sent.
            await #expect(throws: IBBrokerError.self) {
                try await h.broker.execute(
                    .modify(
                        order.id, OrderModification(type: .stop(Price(1))),
                        filledQuantity: .zero))
            }
            _ = await read(&events) { isReport($0, 1, "modifyRejected") }

            try await h.broker.execute(.cancel(order.id))
            let seen = await read(&events) { isReport($0, 1, "canceled") }
            #expect(seen.last?.report == .canceled(order.id, reason: .requested, at: fixedTime))
            #expect(try await h.connection.openOrders().isEmpty)
        }
    }

    @Test func rejectedOrderBecomesARejection() async throws {
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            await h.simulator.apply(.rejectNextOrder(reason: "drill"))
            try await h.broker.execute(.submit(Self.order(1, .buy, 100, .market, client: "rej-1")))
            let seen = await read(&events) { isReport($0, 1, "rejected") }
            guard case .rejected(_, let reason, _) = seen.last?.report else {
                Issue.record("no rejection")
                return
            }
            #expect(reason.hasSuffix("drill"))
        }
    }

    /// The group is handed to the connection before it is tracked (off the tick-to-order path): a group the
    /// connection refuses must still end tracked and rejected, every order of it, with nothing at the gateway.
    @Test func bracketTheConnectionCannotSendIsTrackedAndRejected() async throws {
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            var states = await h.connection.stateChanges().makeAsyncIterator()
            await h.connection.disconnect()
            while let state = await states.next() {
                if case .disconnected = state { break }
            }
            let parent = Self.order(1, .buy, 100, .limit(Price(1)), client: "gone-1")
            var stop = Self.order(2, .sell, 100, .stop(Price("0.5")!), client: "gone-1-SL", tif: .gtc)
            stop.parentID = parent.id
            await #expect(throws: IBBrokerError.self) {
                try await h.broker.execute(.submitBracket(parent: parent, children: [stop]))
            }
            var rejected: Set<OrderID> = []
            _ = await read(&events) { event in
                if case .report(.rejected(let id, _, _)) = event { rejected.insert(id) }
                return rejected.count == 2
            }
            #expect(rejected == [parent.id, stop.id])
            let tracked = await h.broker.trackedOrders
            #expect(tracked[parent.id]?.state == .rejected && tracked[stop.id]?.state == .rejected)
            #expect(await h.simulator.state().orders.isEmpty)
        }
    }

    @Test func duplicatedExecDetailsIsCountedOnce() async throws {
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            await h.simulator.apply(.duplicateNextExecution)
            try await h.broker.execute(.submit(Self.order(1, .buy, 100, .market, client: "dup-1")))
            _ = await read(&events) { isReport($0, 1, "filled") }
            // A second order flushes the stream past the duplicate.
            try await h.broker.execute(.submit(Self.order(2, .sell, 100, .market, client: "dup-2")))
            let after = await read(&events) { isReport($0, 2, "filled") }
            #expect(after.compactMap(\.fill).map(\.orderID) == [OrderID(2)])
            #expect(!after.contains { if case .anomaly = $0 { true } else { false } })
            let tracked = await h.broker.trackedOrders
            #expect(tracked[OrderID(1)]?.executed == Quantity(100))
            #expect(try await h.broker.synchronizeExecutions() == 0)
        }
    }

    @Test func engineDrivenRoundTrip() async throws {
        // The engine's own commands, carried out by the broker; its reports go back into the engine.
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            var engine = EngineCore(universe: Universe(symbols: ["SYN000", "SYN001"]), strategy: BuyOnce())
            let bar = Bar(
                timestamp: fixedTime, open: Price(100), high: Price(100), low: Price(100), close: Price(100),
                volume: Quantity(1000))
            for command in engine.handle(.bar(syn0, bar)) { try await h.broker.execute(command) }
            let seen = await read(&events) { $0.fill != nil }
            for event in seen { if let e = event.engineEvent { _ = engine.handle(e) } }
            #expect(engine.portfolio.position(for: syn0).quantity == Quantity(10))
            #expect(engine.portfolio.position(for: syn0).commission == Money(1))
            #expect(engine.orders.order(OrderID(1))?.state == .filled)
        }
    }
}

extension IBBrokerLoopbackTests {
    @Test func engineBracketRoundTrip() async throws {
        // The engine's bracket (entry + stop-loss + take-profit) through the broker and back.
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            var engine = EngineCore(universe: Universe(symbols: ["SYN000", "SYN001"]), strategy: BracketOnce())
            let bar = Bar(
                timestamp: fixedTime, open: Price(100), high: Price(100), low: Price(100), close: Price(100),
                volume: Quantity(1000))
            let commands = engine.handle(.bar(syn0, bar))
            guard case .submitBracket(let parent, let children) = commands.first else {
                Issue.record("expected a bracket, got \(commands)")
                return
            }
            #expect(children.count == 2)
            try await h.broker.execute(.submitBracket(parent: parent, children: children))
            var accepted: Set<OrderID> = []
            var filled = false
            let seen = await read(&events) { event in
                if case .report(.accepted(let id, _)) = event { accepted.insert(id) }
                if isReport(event, parent.id.rawValue, "filled") { filled = true }
                return filled && accepted.isSuperset(of: children.map(\.id))
            }
            for event in seen { if let e = event.engineEvent { _ = engine.handle(e) } }
            #expect(engine.orders.order(parent.id)?.state == .filled)
            #expect(children.allSatisfy { engine.orders.order($0.id)?.state == .accepted })
            #expect(engine.orders.ignoredReports == 0)
            let open = try await h.connection.openOrders()
            #expect(Set(open.map(\.order.orderRef)) == ["IBT:bracket-1-SL", "IBT:bracket-1-TP"])
            #expect(open.allSatisfy { $0.order.ocaGroup == "IBT:bracket-1/OCA" })
        }
    }
}

extension IBBrokerLoopbackTests {
    @Test func largeOrderFillsInPartsEachWithItsCommission() async throws {
        // The simulator fills at most the displayed size per quote: a large order trades over several steps.
        try await withBroker { h in
            var events = h.events.makeAsyncIterator()
            try await h.broker.execute(.submit(Self.order(1, .buy, 3000, .market, client: "big-1")))
            var fills: [Fill] = []
            var filled = Quantity.zero
            while filled < Quantity(3000) {
                fills += await read(&events) { $0.fill != nil }.compactMap(\.fill)
                filled = fills.reduce(Quantity.zero) { $0 + $1.quantity }
                if filled < Quantity(3000) { await h.simulator.advance(by: .seconds(5)) }
            }
            #expect(filled == Quantity(3000))
            #expect(fills.count > 1)
            #expect(fills.allSatisfy { $0.commission.units > 0 })
            let tracked = await h.broker.trackedOrders[OrderID(1)]
            #expect(tracked?.state == .filled && tracked?.executed == Quantity(3000))
        }
    }
}

/// Buys 10 shares with a stop-loss far below and a take-profit far above, once.
struct BracketOnce: Strategy {
    var done = false
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard !done, case .bar(let id, _) = event else { return [] }
        done = true
        let entry = OrderRequest(
            instrument: id, side: .buy, quantity: Quantity(10), type: .market, timeInForce: .day,
            clientOrderID: "bracket-1")
        return [.submitBracket(BracketOrder(entry: entry, stopLoss: Price(1), takeProfit: Price(10_000)))]
    }
}

/// Buys 10 shares of the first bar's instrument, once.
struct BuyOnce: Strategy {
    var done = false
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard !done, case .bar(let id, _) = event else { return [] }
        done = true
        return [
            .submit(
                OrderRequest(
                    instrument: id, side: .buy, quantity: Quantity(10), type: .market,
                    timeInForce: .day, clientOrderID: "buy-once"))
        ]
    }
}
