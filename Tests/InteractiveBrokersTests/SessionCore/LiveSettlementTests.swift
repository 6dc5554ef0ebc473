import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import LiveSession

/// Issue 21: T+N settlement live, as in a backtest (`backtest.settlementDays`). A restart makes the run before's
/// recent sale proceeds unsettled again, and the position check's account values set the engine's settled cash beside
/// IB's `SettledCash`.
struct LiveSettlementTests {
    typealias Harness = SessionCoreHarness<BuyWhenFlat>

    static func fill(_ seq: Int64, _ side: Side, _ quantity: Int64, _ price: String, at time: Timestamp) -> JournalFill {
        var fill = JournalFill(
            execID: "e\(seq)", symbol: "AAPL", side: side, quantity: Quantity(quantity), price: Price(price)!, time: time)
        fill.sequence = seq
        fill.orderRef = ClientOrderID("IBT:R1:O-\(seq)")
        fill.account = "DU111"
        fill.commission = Money(1)
        return fill
    }

    @Test func aRestartMakesRecentSalesUnsettledAndTheCheckComparesWithIB() throws {
        var settings = PositionCheckTests.settings(interval: .minutes(5))
        settings.journaled = true
        settings.engine.settlementDays = 1
        var harness = Harness(BuyWhenFlat(), settings: settings)
        harness.send(.start)
        harness.send(.connected(Harness.connection()))
        // Harness.start is Tuesday 2023-11-14 22:13 UTC: Monday's sale has settled, Tuesday's settles on Wednesday.
        let monday = Timestamp(year: 2023, month: 11, day: 13) + .hours(15)
        let tuesday = Timestamp(year: 2023, month: 11, day: 14) + .hours(15)
        var journal = JournalRestartData()
        journal.cashCheckpoint = JournalCashCheckpoint(
            time: monday - .days(3), account: "DU111", cash: Money(100_000), fillCheckpoint: 0)
        journal.fills = [
            Self.fill(1, .buy, 100, "50", at: monday - .days(3)), Self.fill(2, .sell, 50, "60", at: monday),
            Self.fill(3, .sell, 50, "62", at: tuesday),
        ]
        for _ in 0..<10 {
            harness.answerAll { if case .journalRestart = $0 { true } else { false } }
            guard let (tag, _) = harness.outstanding.first(where: { if case .journalRestart = $0.1 { true } else { false } })
            else { break }
            harness.send(.answer(tag, .journalRestart(journal)))
        }
        #expect(harness.core.phase == .running)
        let portfolio = harness.core.engine.portfolio
        #expect(portfolio.cash == Money(100_000 - 5_000 + 3_000 + 3_100 - 3))
        #expect(portfolio.unsettledCash == Money(3_099), "Tuesday's proceeds, 3,100 less its commission")
        #expect(harness.core.status(at: harness.now).money.settledCash == (portfolio.cash - Money(3_099)).doubleValue)

        // The position check asks for the account's values: IB settled less than the bot counts → a warning.
        harness.send(.tick, after: .minutes(5))
        harness.answerAll { $0 == .positions || $0 == .accountValues }
        let positions = try #require(harness.outstanding.first { $0.1 == .positions })
        harness.send(.answer(positions.0, .positions([])))
        let values = try #require(harness.outstanding.first { $0.1 == .accountValues })
        let actions = harness.send(.answer(values.0, .accountValues(["SettledCash": "90000"])))
        #expect(actions.logs.contains { $0.hasPrefix("the bot counts more cash as settled than IB does: settled cash 97998.00") }, "\(actions.logs)")
        harness.send(.tick, after: .minutes(5))
        harness.answerAll { $0 == .positions || $0 == .accountValues }
        let again = try #require(harness.outstanding.first { $0.1 == .positions })
        harness.send(.answer(again.0, .positions([])))
        let next = try #require(harness.outstanding.first { $0.1 == .accountValues })
        let fine = harness.send(.answer(next.0, .accountValues(["SettledCash": "97998"])))
        #expect(fine.logs.contains { $0.hasPrefix("settled cash 97998.00 (unsettled 3099.00, T+1); IB's SettledCash 97998.00") }, "\(fine.logs)")
    }
}
