import Foundation
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// The restart decisions beyond the first version of the reconciler: stale unsent intents, completed orders from
/// reqCompletedOrders, the crash-point setting, and the engine's restore API. Pure.
struct ReconciliationRestartTests {
    static let now = Timestamp(year: 2024, month: 3, day: 11, secondOfDay: 15 * 3600)

    static func intent(
        _ ref: String, _ state: IntentState = .journaled, type: OrderType = .market, tif: TimeInForce = .gtc,
        createdAt: Timestamp?, parent: String? = nil
    ) -> JournaledIntent {
        JournaledIntent(
            orderRef: ref,
            request: OrderRequest(instrument: aapl, side: .buy, quantity: Quantity(100), type: type, timeInForce: tif),
            lastKnownState: state, parentOrderRef: parent, createdAt: createdAt)
    }

    static func plan(_ intents: [JournaledIntent], _ broker: BrokerSnapshot = BrokerSnapshot()) -> ReconciliationPlan {
        Reconciler.reconcile(
            ReconciliationInput(
                intents: intents, broker: broker, internalPositions: [:], now: now, resendPolicy: ResendPolicy()))
    }

    // MARK: - Unsent intents: send once, or abandon when stale

    @Test func aFreshUnsentIntentIsSentOnce() {
        let plan = Self.plan([Self.intent("IBT:1:O-1", createdAt: Self.now - .seconds(30))])
        #expect(plan.resolution(for: "IBT:1:O-1")?.action == .send)
        #expect(plan.sendGroups == [["IBT:1:O-1"]])
    }

    @Test func anUnsentIntentOlderThanTheMaxAgeIsAbandoned() {
        let plan = Self.plan([
            Self.intent("IBT:1:O-1", type: .limit(Price(100)), createdAt: Self.now - .minutes(6)),
            Self.intent("IBT:1:O-2", .sent, type: .limit(Price(100)), createdAt: Self.now - .minutes(6)),
        ])
        guard case .abandon(let reason) = plan.resolution(for: "IBT:1:O-1")?.action else {
            Issue.record("a 6-minute-old unsent intent must be abandoned under a 5-minute limit")
            return
        }
        #expect(reason.contains("360 s ago"))
        #expect(plan.resolution(for: "IBT:1:O-2")?.action == .abandon(reason))
        #expect(plan.sendGroups.isEmpty)
    }

    @Test func aMarketOrDayOrderFromAnEarlierDayIsAbandonedWhateverTheLimit() {
        let yesterday = Self.now - .hours(20)
        var policy = ResendPolicy(maxAge: nil)
        #expect(policy.staleReason(createdAt: yesterday, request: Self.intent("m", createdAt: nil).request, now: Self.now) != nil)
        let dayLimit = Self.intent("d", type: .limit(Price(1)), tif: .day, createdAt: nil).request
        #expect(policy.staleReason(createdAt: yesterday, request: dayLimit, now: Self.now) != nil)
        let gtcLimit = Self.intent("g", type: .limit(Price(1)), tif: .gtc, createdAt: nil).request
        #expect(policy.staleReason(createdAt: yesterday, request: gtcLimit, now: Self.now) == nil)
        policy.sameDayOnlyForMarketAndDay = false
        #expect(policy.staleReason(createdAt: yesterday, request: dayLimit, now: Self.now) == nil)
        // Unknown times are never judged stale (the intent is sent, as before).
        #expect(ResendPolicy().staleReason(createdAt: nil, request: dayLimit, now: Self.now) == nil)
        #expect(ResendPolicy().staleReason(createdAt: yesterday, request: dayLimit, now: nil) == nil)
    }

    @Test func aStaleBracketIsAbandonedWithItsChildren() {
        let old = Self.now - .minutes(10)
        let plan = Self.plan([
            Self.intent("IBT:1:B", type: .limit(Price(100)), createdAt: old),
            Self.intent("IBT:1:B-SL", type: .stop(Price(90)), createdAt: old, parent: "IBT:1:B"),
            Self.intent("IBT:1:B-TP", type: .limit(Price(110)), createdAt: old, parent: "IBT:1:B"),
        ])
        for ref in ["IBT:1:B", "IBT:1:B-SL", "IBT:1:B-TP"] {
            guard case .abandon = plan.resolution(for: ref)?.action else {
                Issue.record("\(ref) must be abandoned with its group")
                continue
            }
        }
        #expect(plan.sendGroups.isEmpty)
    }

    /// Generated mutation (`Reconciler.swift` line 164): a stale bracket's parent is abandoned for its own age and
    /// each child names its parent, so the operator sees which order took the children with it.
    @Test func aStaleBracketsChildrenNameTheirParent() {
        let old = Self.now - .minutes(10)
        let plan = Self.plan([
            Self.intent("IBT:1:B", type: .limit(Price(100)), createdAt: old),
            Self.intent("IBT:1:B-SL", type: .stop(Price(90)), createdAt: old, parent: "IBT:1:B"),
        ])
        guard case .abandon(let reason) = plan.resolution(for: "IBT:1:B")?.action else {
            Issue.record("the stale parent must be abandoned")
            return
        }
        #expect(!reason.hasPrefix("its parent"))
        #expect(plan.resolution(for: "IBT:1:B-SL")?.action == .abandon("its parent IBT:1:B: \(reason)"))
    }

    @Test func aStaleIntentFoundAtTheBrokerIsAdoptedNotAbandoned() {
        let old = Self.now - .hours(2)
        let broker = BrokerSnapshot(
            openOrders: [
                BrokerOrderSnapshot(
                    orderRef: "IBT:1:O-1", brokerOrderID: 4, permID: 44, status: .submitted,
                    totalQuantity: Quantity(100))
            ])
        let plan = Self.plan([Self.intent("IBT:1:O-1", createdAt: old)], broker)
        #expect(plan.resolution(for: "IBT:1:O-1")?.action == .adopt(brokerOrderID: 4, permID: 44, status: .submitted))
    }

    // MARK: - Completed orders decide an unacknowledged intent

    @Test(arguments: [
        ("Filled", 100, IntentAction.markFilled), ("Cancelled", 40, .markCancelled(filled: Quantity(40))),
        ("Inactive", 0, .markRejected), ("Cancelled", 0, .markCancelled(filled: .zero)),
    ])
    func aCompletedOrderDecidesAnIntentTheJournalNeverSawAcknowledged(
        status: String, executed: Int64, expected: IntentAction
    ) throws {
        var order = TWSOrder(action: "BUY", totalQuantity: 100, orderType: "MKT")
        order.orderRef = "IBT:1:O-1"
        order.permID = 77
        order.account = "DU1"
        let completed = TWSCompletedOrder(
            contract: TWSContract(symbol: "AAPL"), order: order, orderState: TWSOrderState(status: status))
        let mapped = try SnapshotMapping.order(completed)
        #expect(mapped.brokerOrderID == 0 && mapped.permID == 77)
        var broker = BrokerSnapshot(completedOrders: [mapped])
        if executed > 0 { broker.executions = [brokerExecution("x1", ref: "IBT:1:O-1", quantity: executed)] }
        let plan = Self.plan([Self.intent("IBT:1:O-1", .sent, createdAt: Self.now)], broker)
        #expect(plan.resolution(for: "IBT:1:O-1")?.action == expected)
        #expect(plan.sendGroups.isEmpty)
    }

    @Test func theSnapshotKeepsCompletedOrdersOfTheAccountAndAverageCosts() throws {
        var order = TWSOrder(action: "SELL", totalQuantity: 5, orderType: "MKT")
        order.orderRef = "IBT:1:O-9"
        order.account = "DU1"
        var other = order
        other.account = "DU2"
        let mine = TWSCompletedOrder(
            contract: TWSContract(symbol: "AAPL"), order: order, orderState: TWSOrderState(status: "Filled"))
        let theirs = TWSCompletedOrder(
            contract: TWSContract(symbol: "AAPL"), order: other, orderState: TWSOrderState(status: "Filled"))
        var contract = TWSContract(symbol: "AAPL")
        contract.securityType = "STK"
        contract.currency = "USD"
        let position = TWSPosition(account: "DU1", contract: contract, quantity: 30, averageCost: 101.5)
        let context = MappingContext(contracts: testBook, account: "DU1")
        let (snapshot, errors) = SnapshotMapping.snapshot(
            BrokerAnswers(openOrders: [], executions: [], positions: [position], completedOrders: [mine, theirs]),
            context: context)
        #expect(errors.isEmpty)
        #expect(snapshot.completedOrders.map(\.orderRef) == ["IBT:1:O-9"])
        #expect(snapshot.positions[aapl] == Quantity(30))
        #expect(snapshot.averageCosts[aapl] == Price(approximately: 101.5))
    }

    // MARK: - The crash point setting

    @Test func crashPointsParseWithAnOptionalOccurrence() throws {
        #expect(try CrashPoint(parsing: "after-fill") == CrashPoint(.afterFill))
        #expect(try CrashPoint(parsing: "after-submit:3") == CrashPoint(.afterSubmit, occurrence: 3))
        #expect(try CrashPoint.from(environment: ["IBTRADER_CRASH_AT": "after-intent-journaled"])?.location
            == .afterIntentJournaled)
        #expect(try CrashPoint.from(environment: [:]) == nil)
        #expect(try CrashPoint.from(environment: ["IBTRADER_CRASH_AT": ""]) == nil)
        for bad in ["after-lunch", "after-fill:0", "after-fill:x", "after-fill:1:2", "AFTER-FILL"] {
            #expect(throws: CrashPointError.invalid(bad)) { try CrashPoint(parsing: bad) }
        }
        #expect(CrashPointError.invalid("x").description.contains("after-intent-journaled|after-submit|after-fill"))
    }
}
