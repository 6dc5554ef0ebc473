import Testing
import TradingEngine
import TradingModel

@Suite struct PortfolioTests {
    /// `equity == cash + Σ quantity × mark` after every operation.
    func checkInvariant(_ p: Portfolio) {
        var value = Money.zero
        var gross = Money.zero
        for (i, position) in p.positions.enumerated() {
            value += position.marketValue(at: p.marks[i])
            gross += position.marketValue(at: p.marks[i]).magnitude
        }
        #expect(p.equity == p.cash + value)
        #expect(p.grossExposure == gross)
    }

    @Test func accountsForFillsMarksAndCommissions() {
        var p = Portfolio(cash: Money(10_000), instrumentCount: 2)
        p.apply(E.fill(OrderID(1), .buy, 10, "100", commission: Money(1)))
        checkInvariant(p)
        #expect(p.cash == Money(8_999))
        #expect(p.equity == Money(9_999))
        p.mark(E.a, at: Price(110))
        checkInvariant(p)
        #expect(p.equity == Money(10_099))
        #expect(p.unrealizedPnL == Money(100))
        p.apply(E.fill(OrderID(2), .sell, 5, "20", instrument: E.b, commission: Money(1)))
        checkInvariant(p)
        #expect(p.grossExposure == Money(1_200))
        #expect(p.activePositionCount == 2)
        p.apply(E.fill(OrderID(3), .sell, 10, "105", commission: Money(1)))
        checkInvariant(p)
        #expect(p.realizedPnL == Money(50))
        #expect(p.commissions == Money(3))
        #expect(p.activePositionCount == 1)
        #expect(p.cash == Money(8_999) + Money(99) + Money(1_049))
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
