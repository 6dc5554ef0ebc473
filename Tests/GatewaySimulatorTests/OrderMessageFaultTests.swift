import Foundation
import TWSProtocol
import Testing
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator

/// The order-message faults (`partial-fill`, `duplicate-status`, `late-exec`, `late-status`, `reorder-fill`) and the
/// fresh gateway process's execIds, on the pure core.
@Suite struct OrderMessageFaultTests {
    func connected() -> GatewayState {
        var state = GatewayState(data: testData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 7, serverVersion: 200)
        return state
    }

    func buy(_ state: inout GatewayState, _ id: Int, _ quantity: Decimal = 10) -> [TWSResponse] {
        sent(state.handle(.placeOrder(orderID: id, contract: stock("SYN000"), order: wireOrder("BUY", quantity)),
                          from: 1, wallTime: 0))
    }

    func executions(_ responses: [TWSResponse]) -> [TWSExecution] {
        responses.compactMap { if case .executionDetails(-1, _, let e) = $0 { e } else { nil } }
    }

    func statuses(_ responses: [TWSResponse]) -> [TWSOrderStatus] {
        responses.compactMap { if case .orderStatus(let s) = $0 { s } else { nil } }
    }

    func commissions(_ responses: [TWSResponse]) -> [TWSCommissionReport] {
        responses.compactMap { if case .commissionReport(let c) = $0 { c } else { nil } }
    }

    @Test func theFaultsParseWithinTheirRanges() {
        #expect(FaultCommand.parse("partial-fill") == .partialFill(parts: 3))
        #expect(FaultCommand.parse("partial-fill 4") == .partialFill(parts: 4))
        #expect(FaultCommand.parse("duplicate-status") == .duplicateNextStatus)
        #expect(FaultCommand.parse("late-exec") == .lateExecution(seconds: 5))
        #expect(FaultCommand.parse("late-exec 12.5") == .lateExecution(seconds: 12.5))
        #expect(FaultCommand.parse("late-status 10") == .lateStatus(seconds: 10))
        #expect(FaultCommand.parse("reorder-fill") == .reorderNextFill)
        for line in ["partial-fill 1", "partial-fill 2.5", "partial-fill 101", "late-exec -1", "late-exec 1e3",
                     "late-status 3601", "duplicate-status 2", "reorder-fill now"] {
            #expect(FaultCommand.parse(line) == nil, "\(line)")
        }
    }

    @Test func aPartialFillReportsWholeShareExecutionsThatAddUpToTheFillAndItsCommission() throws {
        var plain = connected()
        let whole = buy(&plain, 1)
        var state = connected()
        state.arm(.partialFill(parts: 3))
        let parts = buy(&state, 1)
        #expect(executions(parts).map(\.shares) == [3, 3, 4])
        #expect(executions(parts).map(\.cumulativeQuantity) == [3, 6, 10])
        #expect(Set(executions(parts).map(\.executionID)).count == 3)
        let filled = statuses(parts).filter { $0.filled != 0 }.map { "\($0.status) \($0.filled ?? 0)" }
        #expect(filled == ["Submitted 3", "Submitted 6", "Filled 10"])
        let total = commissions(parts).map(\.commission).reduce(0, +)
        #expect(abs(total - (commissions(whole).first?.commission ?? -1)) < 1e-9)
        #expect(state.account.holdings.mapValues(\.quantity) == plain.account.holdings.mapValues(\.quantity))
        #expect(abs(state.account.cash - plain.account.cash) < 1e-9)
        // One-shot: the next order fills in one execution.
        #expect(executions(buy(&state, 2)).count == 1)
    }

    @Test func aDuplicatedStatusArrivesTwiceInARowOnce() {
        var state = connected()
        state.arm(.duplicateNextStatus)
        let first = statuses(buy(&state, 1))
        #expect(first.count == 3)
        #expect(first[0] == first[1])
        #expect(statuses(buy(&state, 2)).count == 2)
    }

    @Test func aLateExecutionComesAfterItsFilledStatusOnALaterClockStep() throws {
        var state = connected()
        state.arm(.lateExecution(seconds: 5))
        let placed = buy(&state, 1)
        #expect(executions(placed).isEmpty && commissions(placed).isEmpty)
        #expect(statuses(placed).last?.status == "Filled", "the order's end arrives before its execution")
        #expect(state.account.holdings.values.map(\.quantity) == [Quantity(10)], "the account changed at once")
        let later = sent(state.advance(to: state.now + .seconds(5)))
        let late = executions(later)
        #expect(late.count == 1 && late.first?.shares == 10)
        #expect(commissions(later).map(\.executionID) == late.map(\.executionID))
        let lateIndex = try #require(later.firstIndex { $0.messageName == "execDetails" })
        let commissionIndex = try #require(later.firstIndex { $0.messageName == "commissionReport" })
        #expect(lateIndex < commissionIndex)
        // reqExecutions lists it at once, as TWS would.
        #expect(executions(buy(&state, 2)).count == 1, "one-shot")
    }

    @Test func aLateStatusArrivesAfterNewerOnes() {
        var state = connected()
        state.arm(.lateStatus(seconds: 5))
        let placed = statuses(buy(&state, 1))
        #expect(placed.map(\.status) == ["Filled"], "the first status (Submitted) is held back")
        #expect(statuses(sent(state.advance(to: state.now + .seconds(2)))).isEmpty, "not before it is due")
        let later = statuses(sent(state.advance(to: state.now + .seconds(3))))
        #expect(later.map(\.status) == ["Submitted"])
    }

    @Test func aLateMessageToAClosedConnectionIsLost() {
        var state = connected()
        state.arm(.lateExecution(seconds: 5))
        _ = buy(&state, 1)
        state.disconnect(connection: 1)
        _ = state.connect(connection: 2, clientID: 7, serverVersion: 200)
        let later = state.advance(to: state.now + .seconds(5))
        #expect(executions(sent(later, to: 2)).isEmpty && executions(sent(later, to: 1)).isEmpty)
    }

    @Test func aReorderedFillArrivesBackToFront() {
        var plain = connected()
        let normal = buy(&plain, 1).map(\.messageName)
        var state = connected()
        state.arm(.reorderNextFill)
        let reordered = buy(&state, 1).map(\.messageName)
        let start = normal.firstIndex(of: "execDetails") ?? 0
        let fill = Array(normal[start...].prefix { ["execDetails", "orderStatus", "openOrder", "commissionReport"].contains($0) })
        #expect(fill == ["execDetails", "orderStatus", "openOrder", "commissionReport"])
        #expect(Array(reordered[start..<(start + fill.count)]) == fill.reversed())
        #expect(reordered.count == normal.count)
    }

    @Test func aFillWithItsStatusMissingSendsTheRestOnlyOnce() {
        #expect(FaultCommand.parse("missing-status") == .missingStatus)
        #expect(FaultCommand.parse("missing-status 2") == nil)
        var plain = connected()
        let normal = buy(&plain, 1)
        var state = connected()
        state.arm(.missingStatus)
        let missing = buy(&state, 1)
        #expect(!statuses(normal).filter { $0.status == "Filled" }.isEmpty)
        #expect(statuses(missing).allSatisfy { $0.status != "Filled" }, "no Filled status: \(statuses(missing))")
        #expect(executions(missing).count == 1 && commissions(missing).count == 1)
        #expect(missing.contains { if case .openOrder = $0 { true } else { false } })
        // Armed once: the next fill is whole again.
        #expect(statuses(buy(&state, 2)).contains { $0.status == "Filled" })
    }

    @Test func aFreshGatewayProcessNeverRepeatsAnExecIdOrAPermId() {
        var state = connected()
        let before = executions(buy(&state, 1))
        var fresh = state.freshProcess()
        #expect(fresh.incarnation == 2)
        #expect(fresh.account.holdings.isEmpty)
        _ = fresh.connect(connection: 2, clientID: 7, serverVersion: 200)
        // IB remembers the client's order ids: the fresh process's nextValidId follows the highest one used.
        #expect(fresh.nextValidID(for: 7) == 2)
        let after = executions(sent(fresh.handle(
            .placeOrder(orderID: 2, contract: stock("SYN000"), order: wireOrder("BUY", 10)), from: 2, wallTime: 0), to: 2))
        #expect(before.count == 1 && after.count == 1)
        #expect(before.first?.executionID != after.first?.executionID)
        #expect((after.first?.permID ?? 0) > (before.first?.permID ?? 0))
        #expect(before.first?.executionID.hasSuffix(".01.01") == true, "the first process keeps TWS's form")
    }

    @Test func twoGatewayProcessesInSequenceNeverHandOutTheSameExecId() {
        // The simulator stopped and started again between two bot runs on the same journal: a new process each time.
        var first = connected()
        var second = connected()
        let one = executions(buy(&first, 1))
        let other = executions(buy(&second, 1))
        #expect(one.count == 1 && other.count == 1)
        #expect(one.first?.executionID != other.first?.executionID, "\(one.map(\.executionID)) \(other.map(\.executionID))")
        #expect(first.executionPrefix != second.executionPrefix)
        let parts = other.first?.executionID.split(separator: ".").map(\.count)
        #expect(parts == [8, 8, 2, 2], "IB's form: 0000e0d5.6558a1b2.01.01")
    }
}
