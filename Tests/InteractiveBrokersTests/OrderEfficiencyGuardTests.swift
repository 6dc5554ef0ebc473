import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

@Suite("OrderEfficiencyGuard")
struct OrderEfficiencyGuardTests {
    let day1 = Timestamp(seconds: 1_700_000_000)
    var day2: Timestamp { day1 + .days(1) }

    @Test("below the minimum number of actions nothing is denied, even without fills")
    func minimumThreshold() {
        var efficiency = OrderEfficiencyGuard(limit: OrderEfficiencyLimit(maxRatio: 2, minimumOrders: 5))
        efficiency.recordSubmitted(3, at: day1)
        #expect(efficiency.denial(forEntryOf: 1, at: day1) == nil)  // 4 actions < 5
        #expect(efficiency.denial(forEntryOf: 2, at: day1) != nil)  // 5 actions, no fill: ratio ∞
    }

    @Test("submits, modifies and cancels count; an order's fills count once")
    func ratioCounting() {
        var efficiency = OrderEfficiencyGuard(limit: OrderEfficiencyLimit(maxRatio: 3, minimumOrders: 0))
        efficiency.recordSubmitted(2, at: day1)
        efficiency.recordModified(at: day1)
        efficiency.recordCancelled(at: day1)
        efficiency.recordExecution(of: OrderID(1), at: day1)
        efficiency.recordExecution(of: OrderID(1), at: day1)  // a partial fill of the same order
        efficiency.recordExecution(of: OrderID(2), at: day1)
        #expect(efficiency.orderActions == 4 && efficiency.executed == 2)
        #expect(efficiency.ratio == 2)
        #expect(efficiency.denial(forEntryOf: 2, at: day1) == nil)  // (4 + 2) / 2 = 3, not above 3
        let denial = efficiency.denial(forEntryOf: 3, at: day1)  // 7 / 2 = 3.5
        #expect(denial?.contains("3.5 would exceed 3.0") == true)
    }

    @Test("a new UTC day starts from zero")
    func dayRoll() {
        var efficiency = OrderEfficiencyGuard(limit: OrderEfficiencyLimit(maxRatio: 1, minimumOrders: 1))
        efficiency.recordSubmitted(10, at: day1)
        #expect(efficiency.denial(forEntryOf: 1, at: day1) != nil)
        #expect(efficiency.denial(forEntryOf: 1, at: day2) != nil)  // 1 action, 0 fills: still ∞ > 1
        var lenient = OrderEfficiencyGuard(limit: OrderEfficiencyLimit(maxRatio: 1, minimumOrders: 2))
        lenient.recordSubmitted(10, at: day1)
        #expect(lenient.denial(forEntryOf: 1, at: day2) == nil)  // yesterday's 10 do not count
        lenient.recordCancelled(at: day2)
        #expect(lenient.orderActions == 1 && lenient.submitted == 0)
    }

    @Test("without a limit nothing is denied; the summary still reports the counts")
    func noLimit() {
        var efficiency = OrderEfficiencyGuard(limit: nil)
        efficiency.recordSubmitted(100, at: day1)
        #expect(efficiency.denial(forEntryOf: 1, at: day1) == nil)
        #expect(efficiency.summary.contains("100 submitted") && efficiency.summary.contains("ratio ∞"))
    }
}
