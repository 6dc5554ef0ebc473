import Foundation
import Simulation
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

struct ReconcilerTests {
    static func intent(
        _ ref: String, _ state: IntentState, quantity: Int64 = 100, parent: String? = nil, recorded: Set<String> = [],
        perm: Int64? = nil
    ) -> JournaledIntent {
        JournaledIntent(
            orderRef: ref, request: OrderRequest(instrument: aapl, side: .buy, quantity: Quantity(quantity)),
            lastKnownState: state, permID: perm, parentOrderRef: parent, recordedExecutionIDs: recorded)
    }

    static func open(_ ref: String, id: Int = 1, perm: Int64 = 0, status: BrokerOrderStatus = .submitted)
        -> BrokerOrderSnapshot
    {
        BrokerOrderSnapshot(
            orderRef: ref, brokerOrderID: id, permID: perm, status: status, totalQuantity: Quantity(100))
    }

    @Test func decisionsPerIntent() {
        let intents = [
            Self.intent("IBT:a", .journaled),  // never reached the broker
            Self.intent("IBT:b", .sent),  // reached it, working
            Self.intent("IBT:c", .working, recorded: ["c1"]),  // filled while we were away
            Self.intent("IBT:d", .sent),  // partially filled, then cancelled
            Self.intent("IBT:e", .working),  // vanished
            Self.intent("IBT:f", .filled, recorded: ["f1"]),  // old and done
            Self.intent("IBT:g", .sent),  // rejected
        ]
        let broker = BrokerSnapshot(
            openOrders: [Self.open("IBT:b", id: 5, perm: 55), Self.open("IBT:zz", id: 9, perm: 99)],
            completedOrders: [
                BrokerOrderSnapshot(
                    orderRef: "IBT:g", brokerOrderID: 7, permID: 77, status: .inactive,
                    totalQuantity: Quantity(100))
            ],
            executions: [
                brokerExecution("c1", ref: "IBT:c", quantity: 60),
                brokerExecution("c2", ref: "IBT:c", quantity: 40, time: 5),
                brokerExecution("c2", ref: "IBT:c", quantity: 40, time: 5),
                brokerExecution("d1", ref: "IBT:d", quantity: 30),
            ],
            positions: [aapl: Quantity(130)])
        let plan = Reconciler.reconcile(intents: intents, broker: broker, internalPositions: [aapl: Quantity(60)])
        #expect(plan.resolution(for: "IBT:a")?.action == .send)
        #expect(plan.resolution(for: "IBT:b")?.action == .adopt(brokerOrderID: 5, permID: 55, status: .submitted))
        #expect(plan.resolution(for: "IBT:c")?.action == .markFilled)
        #expect(plan.resolution(for: "IBT:c")?.newExecutions.map(\.executionID) == ["c2"])
        #expect(plan.resolution(for: "IBT:d")?.action == .markCancelled(filled: Quantity(30)))
        guard case .flag = plan.resolution(for: "IBT:e")?.action else {
            Issue.record("a vanished working order must be flagged, never re-sent")
            return
        }
        #expect(plan.resolution(for: "IBT:f")?.action == .unchanged)
        #expect(plan.resolution(for: "IBT:g")?.action == .markRejected)
        #expect(plan.sendGroups == [["IBT:a"]])
        #expect(plan.alerts.contains(.unknownOrder(orderRef: "IBT:zz", brokerOrderID: 9, permID: 99)))
        #expect(!plan.alerts.contains { if case .positionMismatch = $0 { true } else { false } })
    }

    @Test func correctionsReplaceWhatTheyCorrect() {
        let journaled = Self.intent("IBT:k", .working, recorded: ["0000e0d5.0000000a.01.01"])
        let plan = Reconciler.reconcile(
            intents: [journaled],
            broker: BrokerSnapshot(
                executions: [
                    brokerExecution("0000e0d5.0000000a.01.01", ref: "IBT:k", quantity: 100),
                    brokerExecution("0000e0d5.0000000a.01.02", ref: "IBT:k", quantity: 100),
                ],
                positions: [aapl: Quantity(100)]),
            internalPositions: [aapl: Quantity(100)])
        #expect(plan.resolution(for: "IBT:k")?.action == .markFilled)
        #expect(plan.resolution(for: "IBT:k")?.newExecutions.isEmpty == true)
        #expect(plan.resolution(for: "IBT:k")?.executedQuantity == Quantity(100))
        #expect(plan.alerts.isEmpty)
    }

    /// Issue 27 (a survived mutation): a correction that changes the quantity is what counts, whichever order the
    /// broker lists the two in; the corrected execution is the one journaled.
    @Test(arguments: [false, true])
    func aCorrectionThatChangesTheQuantityIsTheOneThatCounts(correctionFirst: Bool) {
        var executions = [
            brokerExecution("0000e0d5.0000000b.01.01", ref: "IBT:q", quantity: 100),
            brokerExecution("0000e0d5.0000000b.01.02", ref: "IBT:q", quantity: 60),
        ]
        if correctionFirst { executions.reverse() }
        let plan = Reconciler.reconcile(
            intents: [Self.intent("IBT:q", .working)],
            broker: BrokerSnapshot(executions: executions, positions: [aapl: Quantity(60)]),
            internalPositions: [:])
        #expect(plan.resolution(for: "IBT:q")?.action == .markCancelled(filled: Quantity(60)))
        #expect(plan.resolution(for: "IBT:q")?.newExecutions.map(\.executionID) == ["0000e0d5.0000000b.01.02"])
        #expect(plan.alerts.isEmpty)
    }

    /// Issue 27 (two survived mutations): an order the broker completed as Cancelled whose executions cover its
    /// whole quantity was filled (the cancel came too late); and a sell found at restart lowers the expected
    /// position, so the broker's position after it is no mismatch (and a wrong sign would be one).
    @Test func aCancelledOrderWhoseExecutionsCoverItIsFilledAndSellsLowerTheExpectedPosition() {
        let sell = JournaledIntent(
            orderRef: "IBT:s", request: OrderRequest(instrument: aapl, side: .sell, quantity: Quantity(40)),
            lastKnownState: .working, permID: nil, parentOrderRef: nil, recordedExecutionIDs: [])
        let broker = BrokerSnapshot(
            completedOrders: [
                BrokerOrderSnapshot(
                    orderRef: "IBT:c", brokerOrderID: 3, permID: 33, status: .cancelled, totalQuantity: Quantity(100)),
                BrokerOrderSnapshot(
                    orderRef: "IBT:s", brokerOrderID: 4, permID: 44, status: .filled, totalQuantity: Quantity(40)),
            ],
            executions: [
                brokerExecution("c1", order: 3, ref: "IBT:c", quantity: 100),
                brokerExecution("s1", order: 4, ref: "IBT:s", side: .sell, quantity: 40),
            ],
            positions: [aapl: Quantity(160)])
        let plan = Reconciler.reconcile(
            intents: [Self.intent("IBT:c", .working), sell], broker: broker, internalPositions: [aapl: Quantity(100)])
        #expect(plan.resolution(for: "IBT:c")?.action == .markFilled)
        #expect(plan.resolution(for: "IBT:s")?.action == .markFilled)
        #expect(plan.alerts.isEmpty, "100 + 100 bought − 40 sold = 160 at the broker: \(plan.alerts)")
    }

    /// Issue 27 (a survived mutation): an order IB made Inactive after part of it executed is not a rejection: its
    /// executions are kept (cancelled with 40 filled); one that never executed is rejected.
    @Test func anInactiveOrderKeepsWhatItExecuted() {
        func plan(executed: Int64) -> ReconciliationPlan {
            Reconciler.reconcile(
                intents: [Self.intent("IBT:i", .working)],
                broker: BrokerSnapshot(
                    completedOrders: [
                        BrokerOrderSnapshot(
                            orderRef: "IBT:i", brokerOrderID: 5, permID: 55, status: .inactive,
                            totalQuantity: Quantity(100)),
                    ],
                    executions: executed > 0 ? [brokerExecution("i1", ref: "IBT:i", quantity: executed)] : [],
                    positions: executed > 0 ? [aapl: Quantity(executed)] : [:]),
                internalPositions: [:])
        }
        #expect(plan(executed: 40).resolution(for: "IBT:i")?.action == .markCancelled(filled: Quantity(40)))
        #expect(plan(executed: 40).resolution(for: "IBT:i")?.newExecutions.count == 1)
        #expect(plan(executed: 0).resolution(for: "IBT:i")?.action == .markRejected)
    }

    @Test func positionDifferencesAreFlagged() {
        let plan = Reconciler.reconcile(
            intents: [], broker: BrokerSnapshot(positions: [aapl: Quantity(10)]), internalPositions: [msft: Quantity(5)]
        )
        #expect(
            plan.alerts == [
                .positionMismatch(aapl, internal: .zero, broker: Quantity(10)),
                .positionMismatch(msft, internal: Quantity(5), broker: .zero),
            ])
        // Read by a person with the symbol (the session core names it from its universe), not an instrument number.
        let names = [aapl: "AAPL", msft: "MSFT"]
        #expect(plan.alerts.map { $0.text { names[$0] ?? "?" } }
            == ["position of AAPL: 0 here, 10 at the broker", "position of MSFT: 5 here, 0 at the broker"])
    }

    @Test func matchesByPermIDWhenTheOrderRefIsMissing() {
        let plan = Reconciler.reconcile(
            intents: [Self.intent("IBT:p", .sent, perm: 42)],
            broker: BrokerSnapshot(
                openOrders: [Self.open("", id: 3, perm: 42)],
                executions: [brokerExecution("p1", ref: "", quantity: 10, perm: 42)], positions: [aapl: Quantity(10)]),
            internalPositions: [:])
        #expect(plan.resolution(for: "IBT:p")?.action == .adopt(brokerOrderID: 3, permID: 42, status: .submitted))
        #expect(plan.resolution(for: "IBT:p")?.newExecutions.count == 1)
        #expect(plan.alerts.isEmpty)
    }

    @Test func bracketsAreSentWholeAndChildrenNeverAlone() {
        let unsent = [
            Self.intent("IBT:B", .journaled), Self.intent("IBT:B-SL", .journaled, parent: "IBT:B"),
            Self.intent("IBT:B-TP", .journaled, parent: "IBT:B"),
        ]
        let plan = Reconciler.reconcile(intents: unsent, broker: BrokerSnapshot(), internalPositions: [:])
        #expect(plan.sendGroups == [["IBT:B", "IBT:B-SL", "IBT:B-TP"]])

        // Parent rejected: its unsent children must not go out alone.
        let rejected = Reconciler.reconcile(
            intents: unsent,
            broker: BrokerSnapshot(completedOrders: [
                BrokerOrderSnapshot(
                    orderRef: "IBT:B", brokerOrderID: 1, permID: 1, status: .inactive,
                    totalQuantity: Quantity(100))
            ]),
            internalPositions: [:])
        #expect(rejected.sendGroups.isEmpty)

        // Parent filled, stop-loss missing: the protection is sent (and the operator told).
        let filled = Reconciler.reconcile(
            intents: [unsent[0], unsent[1], Self.intent("IBT:B-TP", .working, parent: "IBT:B")],
            broker: BrokerSnapshot(
                openOrders: [Self.open("IBT:B-TP", id: 3)],
                executions: [brokerExecution("x", ref: "IBT:B", quantity: 100)], positions: [aapl: Quantity(100)]),
            internalPositions: [:])
        #expect(filled.sendGroups == [["IBT:B-SL"]])
        #expect(
            filled.alerts.contains(
                .intentNeedsAttention(
                    orderRef: "IBT:B-SL", reason: "bracket child missing at the broker; sending it")))
    }

    // MARK: - Generated mutations (2026-11-29)

    /// Generated mutation (`Reconciler.swift` line 127): a bracket child whose parent is not in the journal is never
    /// sent alone (it is flagged); one found working at the broker is adopted as it is.
    @Test func aBracketChildWhoseParentIsNotInTheJournalIsNeverSentAlone() {
        let plan = Reconciler.reconcile(
            intents: [
                Self.intent("IBT:C-SL", .journaled, parent: "IBT:gone"),
                Self.intent("IBT:D-SL", .working, parent: "IBT:gone2"),
            ],
            broker: BrokerSnapshot(openOrders: [Self.open("IBT:D-SL", id: 4, perm: 44)]), internalPositions: [:])
        #expect(
            plan.resolution(for: "IBT:C-SL")?.action
                == .flag("bracket child whose parent IBT:gone is not in the journal"))
        #expect(plan.resolution(for: "IBT:D-SL")?.action == .adopt(brokerOrderID: 4, permID: 44, status: .submitted))
        #expect(plan.sendGroups.isEmpty)
    }

    /// Generated mutation (`Reconciler.swift` line 137): a bracket found whole at the broker (parent and children
    /// working) is adopted without a word; only a child missing under its parent is sent with an alert.
    @Test func aBracketFoundWholeAtTheBrokerIsAdoptedWithoutAnAlert() {
        let plan = Reconciler.reconcile(
            intents: [
                Self.intent("IBT:W", .working, perm: 10), Self.intent("IBT:W-SL", .working, parent: "IBT:W", perm: 11),
                Self.intent("IBT:W-TP", .working, parent: "IBT:W", perm: 12),
            ],
            broker: BrokerSnapshot(openOrders: [
                Self.open("IBT:W", id: 1, perm: 10), Self.open("IBT:W-SL", id: 2, perm: 11),
                Self.open("IBT:W-TP", id: 3, perm: 12),
            ]),
            internalPositions: [:])
        #expect(plan.resolution(for: "IBT:W-SL")?.action == .adopt(brokerOrderID: 2, permID: 11, status: .submitted))
        #expect(plan.resolution(for: "IBT:W-TP")?.action == .adopt(brokerOrderID: 3, permID: 12, status: .submitted))
        #expect(plan.alerts.isEmpty, "\(plan.alerts)")
        #expect(plan.sendGroups.isEmpty)
    }

    // MARK: - Property: random restarts

    enum Truth: CaseIterable { case neverSent, working, partial, filled, cancelledPartly, cancelled, rejected }

    struct Scenario {
        var intents: [JournaledIntent] = []
        var broker = BrokerSnapshot()
        var truth: [String: Truth] = [:]
        var executionsByRef: [String: Set<String>] = [:]
        var positions: [InstrumentID: Quantity] = [:]
    }

    static func scenario(seed: UInt64) -> Scenario {
        var rng = SplitMix64(seed: seed)
        var s = Scenario()
        var nextExec = 0
        var nextID = 1
        func add(_ ref: String, parent: String?, truth: Truth) {
            let quantity = Int64.random(in: 1...5, using: &rng) * 100
            let instrument = Bool.random(using: &rng) ? aapl : msft
            s.truth[ref] = truth
            var filledPieces: [Int64] = []
            switch truth {
            case .partial, .cancelledPartly:
                let first = Int64.random(in: 1..<quantity, using: &rng)
                filledPieces = Bool.random(using: &rng) || first < 2 ? [first] : [first / 2, first - first / 2]
            case .filled:
                let first = Int64.random(in: 1...quantity, using: &rng)
                filledPieces = first == quantity ? [quantity] : [first, quantity - first]
            default: break
            }
            let id = nextID
            nextID += 1
            var executions: [BrokerExecution] = []
            for piece in filledPieces {
                nextExec += 1
                let e = BrokerExecution(
                    executionID: "x\(nextExec)", brokerOrderID: id, permID: Int64(id) + 1000, orderRef: ref,
                    instrument: instrument, side: .buy, quantity: Quantity(piece), price: Price(100),
                    time: Timestamp(seconds: Int64(nextExec)))
                executions.append(e)
                s.broker.executions.append(e)
                if Int.random(in: 0..<4, using: &rng) == 0 { s.broker.executions.append(e) }  // duplicate
                s.broker.positions[instrument, default: .zero] += Quantity(piece)
            }
            s.executionsByRef[ref] = Set(executions.map(\.executionID))
            let snapshot = { (status: BrokerOrderStatus) in
                BrokerOrderSnapshot(
                    orderRef: ref, brokerOrderID: id, permID: Int64(id) + 1000, status: status,
                    totalQuantity: Quantity(quantity))
            }
            switch truth {
            case .neverSent: break
            case .working, .partial: s.broker.openOrders.append(snapshot(.submitted))
            case .filled: if Bool.random(using: &rng) { s.broker.completedOrders.append(snapshot(.filled)) }
            case .cancelledPartly: if Bool.random(using: &rng) { s.broker.completedOrders.append(snapshot(.cancelled)) }
            case .cancelled: s.broker.completedOrders.append(snapshot(.cancelled))
            case .rejected: s.broker.completedOrders.append(snapshot(.inactive))
            }
            // The journal lags: it may not have seen the acknowledgement, nor some executions.
            let state: IntentState
            switch truth {
            case .neverSent: state = Bool.random(using: &rng) ? .journaled : .sent
            case .working: state = [.journaled, .sent, .working].randomElement(using: &rng)!
            case .partial: state = [.sent, .working, .partiallyFilled].randomElement(using: &rng)!
            case .filled: state = [.journaled, .sent, .working, .partiallyFilled, .filled].randomElement(using: &rng)!
            case .cancelledPartly, .cancelled: state = [.sent, .working, .cancelled].randomElement(using: &rng)!
            case .rejected: state = [.journaled, .sent, .rejected].randomElement(using: &rng)!
            }
            let recordedCount = state == .filled ? executions.count : Int.random(in: 0...executions.count, using: &rng)
            let recorded = executions.prefix(recordedCount)
            for e in recorded { s.positions[e.instrument, default: .zero] += e.quantity }
            s.intents.append(
                JournaledIntent(
                    orderRef: ref,
                    request: OrderRequest(instrument: instrument, side: .buy, quantity: Quantity(quantity)),
                    lastKnownState: state, brokerOrderID: state.isUnacknowledged ? nil : id,
                    permID: state.isUnacknowledged ? nil : Int64(id) + 1000, parentOrderRef: parent,
                    recordedExecutionIDs: Set(recorded.map(\.executionID))))
        }
        for k in 0..<Int.random(in: 1...6, using: &rng) {
            add("IBT:S\(k)", parent: nil, truth: Truth.allCases.randomElement(using: &rng)!)
        }
        for k in 0..<Int.random(in: 0...2, using: &rng) {
            let parent = "IBT:B\(k)"
            let kind = [Truth.neverSent, .working, .filled].randomElement(using: &rng)!
            add(parent, parent: nil, truth: kind)
            switch kind {
            case .neverSent:
                add(parent + "-SL", parent: parent, truth: .neverSent)
                add(parent + "-TP", parent: parent, truth: .neverSent)
            case .working:
                add(parent + "-SL", parent: parent, truth: .working)
                add(parent + "-TP", parent: parent, truth: .working)
            default:
                let stopFilled = Bool.random(using: &rng)
                add(parent + "-SL", parent: parent, truth: stopFilled ? .filled : .cancelled)
                add(parent + "-TP", parent: parent, truth: stopFilled ? .cancelled : .working)
            }
        }
        s.intents.shuffle(using: &rng)
        s.broker.executions.shuffle(using: &rng)
        return s
    }

    @Test(arguments: 0..<300) func randomRestartsNeverSendTwiceNorLoseExecutions(_ seed: Int) {
        let s = Self.scenario(seed: UInt64(seed))
        let plan = Reconciler.reconcile(intents: s.intents, broker: s.broker, internalPositions: s.positions)
        let sent = plan.sendGroups.flatMap { $0 }
        #expect(Set(sent).count == sent.count, "an orderRef in two send groups")
        for intent in s.intents {
            let resolution = plan.resolution(for: intent.orderRef)
            let truth = s.truth[intent.orderRef]
            // Sent exactly when the broker never had it.
            #expect(
                (resolution?.action == .send) == (truth == .neverSent),
                "\(intent.orderRef) \(String(describing: truth))")
            #expect(sent.contains(intent.orderRef) == (truth == .neverSent))
            // Executions: new ones are exactly the unrecorded ones, once each.
            let new = resolution?.newExecutions.map(\.executionID) ?? []
            #expect(Set(new).count == new.count)
            #expect(Set(new).isDisjoint(with: intent.recordedExecutionIDs))
            #expect(Set(new).union(intent.recordedExecutionIDs) == s.executionsByRef[intent.orderRef] ?? [])
        }
        #expect(!plan.alerts.contains { if case .positionMismatch = $0 { true } else { false } })
        #expect(!plan.alerts.contains { if case .unknownOrder = $0 { true } else { false } })

        // Restart again after carrying out the plan: nothing more to send, no execution new.
        var broker = s.broker
        var journal = s.intents
        for (k, intent) in journal.enumerated() {
            guard let resolution = plan.resolution(for: intent.orderRef) else { continue }
            journal[k].recordedExecutionIDs.formUnion(resolution.newExecutions.map(\.executionID))
            if resolution.action == .send {
                journal[k].lastKnownState = .sent
                broker.openOrders.append(
                    BrokerOrderSnapshot(
                        orderRef: intent.orderRef, brokerOrderID: 900 + k, permID: Int64(900 + k), status: .submitted,
                        totalQuantity: intent.request.quantity))
            }
        }
        var positions = s.positions
        for resolution in plan.resolutions {
            for e in resolution.newExecutions { positions[e.instrument, default: .zero] += e.quantity }
        }
        let again = Reconciler.reconcile(intents: journal, broker: broker, internalPositions: positions)
        #expect(again.sendGroups.isEmpty)
        #expect(again.resolutions.allSatisfy { $0.newExecutions.isEmpty })
        #expect(!again.alerts.contains { if case .positionMismatch = $0 { true } else { false } })
    }
}
