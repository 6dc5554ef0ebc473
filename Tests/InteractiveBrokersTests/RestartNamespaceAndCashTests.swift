import JournalModel
import Storage
import Testing
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 5 restart gaps, the pure parts: run namespaces, the cash restore, unknown orders in the plan, the resend
/// age key's policy, and which of every client's open orders a resynchronizing broker takes as its own.
struct RestartNamespaceAndCashTests {
    // MARK: - orderRef namespaces

    @Test func runNamespacesAreShortAndEveryFormParses() {
        let run = OrderReference.run(12)
        #expect(run.orderRef(for: "O-7") == "IBT:R12:O-7")
        #expect(run.clientOrderID(in: "IBT:R12:O-7") == "O-7")
        #expect(!run.isOurs("IBT:R1:O-7") && !run.isOurs("IBT:R123:O-7"))
        #expect(RunNamespace(orderRef: "IBT:R12:O-7") == .run(12))
        #expect(RunNamespace(orderRef: "IBT:1732212345:O-7") == .legacySecond(1_732_212_345))
        #expect(RunNamespace(orderRef: "IBT:manual:rebalance") == .manual)
        #expect(RunNamespace(orderRef: "IBT:Tlz3k9a1x-1f3:O-1") == .unjournaled("lz3k9a1x-1f3"))
        #expect(RunNamespace(orderRef: "IBT:O-1") == .other(""))
        #expect(RunNamespace(orderRef: "someone else") == nil)
        #expect(RunNamespace(orderRef: "IBT:R12:O-7")?.isBotRun == true)
        #expect(RunNamespace(orderRef: "IBT:1732212345:O-7")?.isBotRun == true)
        #expect(RunNamespace(orderRef: "IBT:manual:k")?.isBotRun == false)
        #expect(RunNamespace.highestRun(in: ["IBT:R3:O-1", "IBT:R12:O-2", "IBT:1732212345:O-3", "", "x"]) == 12)
        #expect(RunNamespace.highestRun(in: []) == 0)
    }

    @Test func unjournaledNamespacesDifferByMillisecondAndProcess() {
        let a = OrderReference.unjournaledRun(epochMilliseconds: 1_732_212_345_000, processID: 4242)
        let b = OrderReference.unjournaledRun(epochMilliseconds: 1_732_212_345_001, processID: 4242)
        let c = OrderReference.unjournaledRun(epochMilliseconds: 1_732_212_345_000, processID: 4243)
        #expect(Set([a.prefix, b.prefix, c.prefix]).count == 3)
        #expect(a.prefix.count <= 20, "\(a.prefix)")
        #expect(RunNamespace(orderRef: a.orderRef(for: "O-1"))?.isBotRun == true)
    }

    // MARK: - Cash

    static func fill(
        _ seq: Int64, _ symbol: Symbol, _ side: Side, _ quantity: Int64, _ price: Int64, commission: Money?,
        account: String? = "DU1"
    ) -> JournalFill {
        var fill = JournalFill(
            execID: "e\(seq)", symbol: symbol, side: side, quantity: Quantity(quantity), price: Price(units: price * 100_000_000), time: t0)
        fill.sequence = seq
        fill.commission = commission
        fill.account = account
        return fill
    }

    @Test func cashIsTheCheckpointPlusTheFillsSinceNotTheAdoptedPositionsCost() {
        // Run 1 started flat with 100 000 (checkpoint at fill 0), bought and sold AAPL, and crashed.
        let checkpoint = JournalCashCheckpoint(time: t0, account: "DU1", cash: Money(100_000), fillCheckpoint: 0)
        let fills = [
            Self.fill(1, "AAPL", .buy, 100, 10, commission: Money(1)),
            Self.fill(2, "AAPL", .sell, 100, 12, commission: Money(1)),
            Self.fill(3, "MSFT", .buy, 10, 300, commission: Money(2)),
            Self.fill(4, "MSFT", .buy, 5, 300, commission: Money(1), account: "DU2"),  // another account
            Self.fill(5, "IBM", .buy, 5, 100, commission: Money(1)),  // outside the universe
        ]
        let outcome = CashRestore.restore(
            checkpoint: checkpoint, fills: fills, account: "DU1", universe: ["AAPL", "MSFT"],
            brokerPositions: ["MSFT": Quantity(10)], averageCosts: ["MSFT": Price(units: 300_20_000_000)])
        // 100 000 − 1 000 − 1 + 1 200 − 1 − 3 000 − 2; adopting MSFT at its cost alone would give 96 998.
        #expect(outcome.cash == Money(97_196))
        #expect(outcome.commissions == Money(4))
        #expect(outcome.fillsApplied == 3)
        #expect(outcome.adjustments.isEmpty)
    }

    @Test func commissionsJoinedLaterAndPositionsWithoutFillsAreCharged() {
        // The checkpoint counted fill 1 without its commission; the broker also holds AAPL no fill explains.
        let checkpoint = JournalCashCheckpoint(
            time: t0, account: "DU1", cash: Money(50_000), commissions: Money(3), fillCheckpoint: 1,
            fillCommissions: .zero, positions: ["MSFT": Quantity(10)])
        let fills = [Self.fill(1, "MSFT", .buy, 10, 300, commission: Money(2))]
        let outcome = CashRestore.restore(
            checkpoint: checkpoint, fills: fills, account: "DU1", universe: ["AAPL", "MSFT"],
            brokerPositions: ["MSFT": Quantity(10), "AAPL": Quantity(5)], averageCosts: ["AAPL": Price(100)])
        #expect(outcome.cash == Money(50_000 - 2 - 500))
        #expect(outcome.commissions == Money(5))
        #expect(outcome.fillsApplied == 0)
        #expect(outcome.adjustments.count == 1 && outcome.adjustments[0].hasPrefix("AAPL"))
        #expect(CashRestore.fillCommissions(fills, upTo: 1, account: "DU1", universe: ["MSFT"]) == ["USD": Money(2)])
        #expect(CashRestore.fillCommissions(fills, upTo: 0, account: "DU1", universe: ["MSFT"]).isEmpty)
    }

    @Test func positionsTheBrokerNoLongerHoldsLeaveAtTheirJournalCostNotAtNothing() {
        // The bot bought 100 AAPL at 150 and 50 more at 156 (average 152) before the checkpoint; a fresh gateway (or
        // a sale by hand in TWS that the execution list no longer shows) leaves the broker with none. Booked at 0,
        // the restart would show a $15,200 loss that never happened.
        let checkpoint = JournalCashCheckpoint(
            time: t0, account: "DU1", cash: Money(100_000 - 15_000 - 7_800), commissions: .zero, fillCheckpoint: 2,
            fillCommissions: .zero, positions: ["AAPL": Quantity(150)])
        let fills = [Self.fill(1, "AAPL", .buy, 100, 150, commission: nil), Self.fill(2, "AAPL", .buy, 50, 156, commission: nil)]
        let outcome = CashRestore.restore(
            checkpoint: checkpoint, fills: fills, account: "DU1", universe: ["AAPL"], brokerPositions: [:],
            averageCosts: [:])
        #expect(outcome.cash == Money(100_000))
        #expect(outcome.adjustments == [
            "AAPL: broker holds 0, journal fills give 150; the broker lists no execution for the 150 gone: taken out "
                + "at their journal cost 152, no P&L assumed. Check the account in TWS",
        ])
        // Part of it gone: the rest stays, the part gone leaves at the same cost.
        let partly = CashRestore.restore(
            checkpoint: checkpoint, fills: fills, account: "DU1", universe: ["AAPL"],
            brokerPositions: ["AAPL": Quantity(50)], averageCosts: ["AAPL": Price(152)])
        #expect(partly.cash == Money(100_000 - 50 * 152))
        // Fills that do not add up to the position (a journal that does not reach back): the broker's cost, as before.
        let short = CashRestore.restore(
            checkpoint: checkpoint, fills: [Self.fill(2, "AAPL", .buy, 50, 156, commission: nil)], account: "DU1", universe: ["AAPL"],
            brokerPositions: ["AAPL": Quantity(50)], averageCosts: ["AAPL": Price(152)])
        #expect(short.cash == Money(100_000 - 15_000 - 7_800 + 100 * 152))
    }

    /// Generated mutations found these (issue 42): the broker's cost, not the journal's, for a position that grew or
    /// changed side; late commissions net of what the checkpoint had counted; a journal cost from the symbol's own fills.
    @Test func aPositionThatGrewOrChangedSideIsBookedAtTheBrokersCost() {
        let checkpoint = JournalCashCheckpoint(
            time: t0, account: "DU1", cash: Money(77_200), commissions: .zero, fillCheckpoint: 2,
            fillCommissions: .zero, positions: ["AAPL": Quantity(150)])
        let fills = [Self.fill(1, "AAPL", .buy, 100, 150, commission: nil), Self.fill(2, "AAPL", .buy, 50, 156, commission: nil)]
        // The journal's cost is 152; the broker's average is 160 for the 200 it holds: the 50 more at the broker's.
        let grew = CashRestore.restore(
            checkpoint: checkpoint, fills: fills, account: "DU1", universe: ["AAPL"],
            brokerPositions: ["AAPL": Quantity(200)], averageCosts: ["AAPL": Price(160)])
        #expect(grew.cash == Money(77_200 - 50 * 160))
        // Short 20 at 140 where the journal has 150 long: the 170 difference at the broker's cost, not the journal's.
        let flipped = CashRestore.restore(
            checkpoint: checkpoint, fills: fills, account: "DU1", universe: ["AAPL"],
            brokerPositions: ["AAPL": Quantity(-20)], averageCosts: ["AAPL": Price(140)])
        #expect(flipped.cash == Money(77_200 + 170 * 140))
    }

    @Test func lateCommissionsAreWhatTheCheckpointHadNotCounted() {
        // The checkpoint counted fill 1's commission (2) and not fill 2's, which joined later (3).
        let checkpoint = JournalCashCheckpoint(
            time: t0, account: "DU1", cash: Money(50_000), commissions: Money(2), fillCheckpoint: 2,
            fillCommissions: Money(2), positions: ["MSFT": Quantity(20)])
        let fills = [
            Self.fill(1, "MSFT", .buy, 10, 300, commission: Money(2)), Self.fill(2, "MSFT", .buy, 10, 300, commission: Money(3)),
        ]
        let outcome = CashRestore.restore(
            checkpoint: checkpoint, fills: fills, account: "DU1", universe: ["MSFT"],
            brokerPositions: ["MSFT": Quantity(20)], averageCosts: ["MSFT": Price(300)])
        #expect(outcome.cash == Money(50_000 - 3))
        #expect(outcome.commissions == Money(5))
    }

    @Test func aJournalCostComesFromTheSymbolsOwnFills() {
        let checkpoint = JournalCashCheckpoint(
            time: t0, account: "DU1", cash: Money(82_000), commissions: .zero, fillCheckpoint: 2,
            fillCommissions: .zero, positions: ["AAPL": Quantity(100), "MSFT": Quantity(10)])
        let fills = [Self.fill(1, "AAPL", .buy, 100, 150, commission: nil), Self.fill(2, "MSFT", .buy, 10, 300, commission: nil)]
        let outcome = CashRestore.restore(
            checkpoint: checkpoint, fills: fills, account: "DU1", universe: ["AAPL", "MSFT"],
            brokerPositions: ["MSFT": Quantity(10)], averageCosts: ["MSFT": Price(300)])
        #expect(outcome.cash == Money(82_000 + 100 * 150), "AAPL out at its own journal cost, 150")
    }

    // MARK: - Unknown orders, resend age

    @Test func unknownOpenOrdersOfABotRunAreListedManualOnesOnlyAlerted() {
        let intents = [ReconcilerTests.intent("IBT:R2:O-1", .working)]
        var stray = ReconcilerTests.open("IBT:R3:O-4", id: 8, perm: 88)
        stray.request = OrderRequest(instrument: aapl, side: .buy, quantity: Quantity(100), type: .limit(Price(90)))
        let broker = BrokerSnapshot(
            openOrders: [
                ReconcilerTests.open("IBT:R2:O-1", id: 5, perm: 55), stray,
                ReconcilerTests.open("IBT:manual:k", id: 9, perm: 99), ReconcilerTests.open("other", id: 10),
            ],
            completedOrders: [
                BrokerOrderSnapshot(
                    orderRef: "IBT:R3:O-5", brokerOrderID: 0, permID: 111, status: .filled, totalQuantity: Quantity(1))
            ])
        let plan = Reconciler.reconcile(intents: intents, broker: broker, internalPositions: [:])
        #expect(plan.unknownOpenOrders.map(\.orderRef) == ["IBT:R3:O-4"])
        #expect(plan.unknownOpenOrders.first?.request?.type == .limit(Price(90)))
        let alerted = plan.alerts.compactMap { alert -> String? in
            if case .unknownOrder(let ref, _, _) = alert { ref } else { nil }
        }
        #expect(Set(alerted) == ["IBT:R3:O-4", "IBT:manual:k", "IBT:R3:O-5"])
    }

    @Test func resendMaxAgeZeroNeverResendsOtherwiseItIsTheAgeLimit() {
        let request = OrderRequest(instrument: aapl, side: .buy, quantity: Quantity(1), type: .limit(Price(1)))
        #expect(ResendPolicy.maxAge(seconds: 0).staleReason(createdAt: t0, request: request, now: t0) != nil)
        #expect(ResendPolicy.maxAge(seconds: 300).staleReason(createdAt: t0, request: request, now: t0 + .seconds(299)) == nil)
        #expect(ResendPolicy.maxAge(seconds: 300).staleReason(createdAt: t0, request: request, now: t0 + .seconds(301)) != nil)
    }

    // MARK: - Resynchronize

    static func open(_ id: Int, client: Int, ref: String, perm: Int64, account: String = "DU1") -> TWSOpenOrder {
        var order = TWSOrder()
        order.orderID = id
        order.clientID = client
        order.orderRef = ref
        order.permID = perm
        order.account = account
        return TWSOpenOrder(contract: TWSContract(), order: order, orderState: TWSOrderState(status: "Submitted"))
    }

    @Test func resynchronizeTakesOrdersOfEarlierClientIDsItFollowsUnderTheirTrackedIDs() {
        let adopted = TrackedOrder(
            order: engineOrder(1, client: "IBT:R1:O-1"), brokerOrderID: 3, orderRef: "IBT:R1:O-1", wire: TWSOrder())
        var mine = TrackedOrder(
            order: engineOrder(2, client: "O-2"), brokerOrderID: 4, orderRef: "IBT:R2:O-2", wire: TWSOrder())
        mine.permID = 44
        let all = [
            Self.open(3, client: 7, ref: "IBT:R1:O-1", perm: 33),  // placed by client 7 (an earlier run), adopted
            Self.open(4, client: 31, ref: "IBT:R2:O-2", perm: 44),  // this client's
            Self.open(4, client: 9, ref: "other", perm: 99),  // another client's id 4: not ours
            Self.open(5, client: 9, ref: "IBT:R1:O-1", perm: 0, account: "DU2"),  // another account
        ]
        let taken = OrderDesk.trackedOpenOrders(
            all, tracked: [adopted, mine], clientID: 31, context: MappingContext(contracts: testBook, account: "DU1"))
        #expect(taken.map(\.order.permID) == [33, 44])
        #expect(taken.map(\.order.orderID) == [3, 4])
    }
}
