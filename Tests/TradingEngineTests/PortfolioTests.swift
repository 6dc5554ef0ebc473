import Testing
import TradingEngine
import TradingModel

@Suite struct PortfolioTests {
    @Test func accountsForFillsMarksAndCommissions() {
        var p = Portfolio(cash: Money(10_000), instrumentCount: 2)
        p.apply(E.fill(OrderID(1), .buy, 10, "100", commission: Money(1)))
        E.checkInvariant(p)
        #expect(p.cash == Money(8_999))
        #expect(p.equity == Money(9_999))
        p.mark(E.a, at: Price(110))
        E.checkInvariant(p)
        #expect(p.equity == Money(10_099))
        #expect(p.unrealizedPnL == Money(100))
        p.apply(E.fill(OrderID(2), .sell, 5, "20", instrument: E.b, commission: Money(1)))
        E.checkInvariant(p)
        #expect(p.grossExposure == Money(1_200))
        #expect(p.activePositionCount == 2)
        p.apply(E.fill(OrderID(3), .sell, 10, "105", commission: Money(1)))
        E.checkInvariant(p)
        #expect(p.realizedPnL == Money(50))
        #expect(p.commissions == Money(3))
        #expect(p.activePositionCount == 1)
        #expect(p.cash == Money(8_999) + Money(99) + Money(1_049))
    }

    /// Fractional positions (fractional trading configured) are revalued on the exact path: 2.5 shares bought at 100
    /// and marked at 110 are worth 275 (not 2 shares' 220), and a short of 1.5 marked from 50 to 40 is worth -60,
    /// 60 of gross exposure. Found by the generated mutation run over this file (issue 42): no test held a fraction.
    @Test func fractionalPositionsAreMarkedExactly() {
        var p = Portfolio(cash: Money(10_000), instrumentCount: 2)
        p.apply(Fill(
            orderID: OrderID(1), instrument: E.a, side: .buy, quantity: Quantity("2.5")!, price: Price(100),
            commission: .zero, timestamp: E.time(1)))
        p.mark(E.a, at: Price(110))
        E.checkInvariant(p)
        #expect(p.positionValue(for: E.a) == Money(275))
        #expect(p.equity == Money(10_025))
        #expect(p.grossExposure == Money(275))
        p.apply(Fill(
            orderID: OrderID(2), instrument: E.b, side: .sell, quantity: Quantity("1.5")!, price: Price(50),
            commission: .zero, timestamp: E.time(2)))
        p.mark(E.b, at: Price(40))
        E.checkInvariant(p)
        #expect(p.positionValue(for: E.b) == Money(-60))
        #expect(p.grossExposure == Money(335))
        #expect(p.equity == Money(10_040))
        // Back up again: the exposure follows the magnitude, not the signed value.
        p.mark(E.b, at: Price(60))
        E.checkInvariant(p)
        #expect(p.grossExposure == Money(365))
        #expect(p.equity == Money(10_010))
    }

    /// Adding to a position, or turning it from long to short in one fill, leaves it one position; only opening
    /// and closing change the count the max-positions rule reads. (Generated mutation run, issue 42.)
    @Test func addingToOrFlippingAPositionKeepsItOnePosition() {
        var p = Portfolio(cash: Money(10_000), instrumentCount: 2)
        p.apply(E.fill(OrderID(1), .buy, 10, "10"))
        #expect(p.activePositionCount == 1)
        p.apply(E.fill(OrderID(2), .buy, 5, "10"))
        #expect(p.activePositionCount == 1)
        p.apply(E.fill(OrderID(3), .sell, 20, "10"))  // 15 long to 5 short
        #expect(p.position(for: E.a).quantity == Quantity(-5))
        #expect(p.activePositionCount == 1)
        p.apply(E.fill(OrderID(4), .buy, 5, "10"))
        #expect(p.activePositionCount == 0)
    }

    /// Without settlement days (a cash-settled or T+0 account), a sale's proceeds are settled at once: nothing waits
    /// for a later `settle(upTo:)`. (Generated mutation run, issue 42.)
    @Test func withoutSettlementDaysProceedsAreSettledAtOnce() {
        var p = Portfolio(cash: Money(1_000), instrumentCount: 1, settlementDays: 0)
        p.apply(E.fill(OrderID(1), .buy, 10, "10"))
        p.apply(E.fill(OrderID(2), .sell, 10, "12"))
        #expect(p.cash == Money(1_020))
        #expect(p.unsettledCash == .zero)
        #expect(p.settledCash == Money(1_020))
    }

    @Test func saleProceedsSettleAfterTPlusTwoBusinessDays() {
        var p = Portfolio(cash: Money(1_000), instrumentCount: 1, settlementDays: 2)
        p.apply(E.fill(OrderID(1), .buy, 10, "10"))
        #expect(p.settledCash == Money(900))
        // Sold on Thursday 2020-01-02: settles Monday 2020-01-06 00:00 UTC.
        p.apply(E.fill(OrderID(2), .sell, 10, "12"))
        #expect(p.cash == Money(1_020))
        #expect(p.settledCash == Money(900))
        p.settle(upTo: Timestamp(year: 2020, month: 1, day: 5))
        #expect(p.settledCash == Money(900))
        p.settle(upTo: Timestamp(year: 2020, month: 1, day: 6))
        #expect(p.settledCash == Money(1_020))
        #expect(Portfolio.settlementTime(of: E.time(0), days: 2) == Timestamp(year: 2020, month: 1, day: 6))
    }

    /// Issue 44: settlement counts the exchanges' trading days, not weekdays (IB's SettledCash does).
    @Test func settlementSkipsTheExchangesHolidays() {
        func settles(_ y: Int, _ m: Int, _ d: Int, days: Int) -> Timestamp {
            Portfolio.settlementTime(of: Timestamp(year: y, month: m, day: d, secondOfDay: 15 * 3600), days: days)
        }
        #expect(settles(2024, 11, 27, days: 1) == Timestamp(year: 2024, month: 11, day: 29), "over Thanksgiving")
        #expect(settles(2024, 8, 30, days: 1) == Timestamp(year: 2024, month: 9, day: 3), "over Labor Day")
        #expect(settles(2024, 12, 23, days: 2) == Timestamp(year: 2024, month: 12, day: 26), "over Christmas")
        #expect(settles(2024, 12, 23, days: 0) == Timestamp(year: 2024, month: 12, day: 23))
    }
}
