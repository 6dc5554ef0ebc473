import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 47: an account in euros trading ES (priced in dollars) live. EUR.USD is watched for its rate alone (bars
/// only, never traded, never adopted), the restart restores the euros and the dollars apart from the journal's
/// checkpoint and the fills since, converts at the pair's latest price, and journals the next checkpoint per currency.
struct MultiCurrencySessionTests {
    typealias Harness = SessionCoreHarness<HoldTwo>
    static let es = InstrumentID(index: 0)
    static let pair = InstrumentID(index: 1)

    static func settings() -> SessionSettings {
        var settings = Harness.settings(symbols: ["ES 2024-03", "EUR.USD"])
        settings.engine = EngineConfig(initialCash: Money(1_000_000))
        settings.engine.accountCurrency = "EUR"
        settings.engine.rateOnlySymbols = ["EUR.USD"]
        settings.journaled = true
        settings.adoptExternalPositions = true  // adopts every broker position of the universe, but not the pair
        return settings
    }

    static func fill(_ seq: Int64, _ side: Side, at price: String) -> JournalFill {
        var fill = JournalFill(
            execID: "e\(seq)", symbol: "ES 2024-03", side: side, quantity: Quantity(1), price: Price(price)!,
            time: Harness.start - .hours(20))
        fill.sequence = seq
        fill.orderRef = ClientOrderID("IBT:R1:O-\(seq)")
        fill.account = "DU111"
        fill.commission = Money(approximately: 2.25)
        return fill
    }

    /// The start-up: the pair's warm-up closes at 1.25 dollars a euro, the broker holds 50,000 EUR.USD (an account's
    /// euros, as IB lists them) and no ES, and the journal has the checkpoint and the fills since.
    static func restarted(_ journal: JournalRestartData, pairClose: Double? = 1.25) -> (Harness, [SessionAction]) {
        var harness = Harness(HoldTwo(bought: true), settings: settings())
        harness.send(.start)
        var actions = harness.send(.connected(Harness.connection()))
        for _ in 0..<30 {
            guard let (tag, request) = harness.outstanding.first else { break }
            switch request {
            case .contractDetails(let contract):
                var qualified = contract
                qualified.contractID = contract.symbol == "EUR" ? 12_087_792 : 495_512_563
                actions += harness.send(.answer(tag, .contractDetails([TWSContractDetails(contract: qualified)])))
            case .historicalBars(let query) where query.contract.symbol == "EUR":
                let time = "\(Harness.start.nanoseconds / 1_000_000_000 - 60)"
                let bars = pairClose.map {
                    [TWSBar(date: time, open: $0, high: $0, low: $0, close: $0, volume: 0, wap: nil, barCount: 0)]
                }
                actions += harness.send(.answer(tag, .bars(bars ?? [])))
            case .brokerState:
                let euros = TWSPosition(
                    account: "DU111", contract: TWSContract(symbol: "EUR", securityType: "CASH", exchange: "IDEALPRO", currency: "USD"),
                    quantity: 50_000, averageCost: 1.2)
                actions += harness.send(.answer(tag, .brokerState(BrokerAnswers(openOrders: [], executions: [], positions: [euros]))))
            case .journalRestart:
                actions += harness.send(.answer(tag, .journalRestart(journal)))
            default:
                actions += harness.send(.answer(tag, Harness.answer(to: request)))
            }
        }
        return (harness, actions)
    }

    /// Checkpoint: 1,000,000 EUR and −2.25 USD, 1 ES held (bought at 4,500 for 2.25 USD, 1.80 EUR). Since: ES sold at
    /// 4,510 for 2.25. By hand: USD −2.25 + (4,510 − 4,500) × 50 − 2.25 = 495.50; at 0.8 EUR per USD (1 / 1.25)
    /// 396.40 EUR; cash 1,000,396.40 EUR; commissions 1.80 + 2.25 × 0.8 = 3.60 EUR; realized 500 USD = 400 EUR.
    static func journal() -> JournalRestartData {
        var journal = JournalRestartData()
        var checkpoint = JournalCashCheckpoint(
            time: Harness.start - .days(1), account: "DU111", cash: Money(1_000_000),
            commissions: Money(approximately: 1.80), fillCheckpoint: 1, fillCommissions: .zero,
            positions: ["ES 2024-03": Quantity(1)])
        checkpoint.foreignCash = ["USD": Money(approximately: -2.25)]
        checkpoint.foreignFillCommissions = ["USD": Money(approximately: 2.25)]
        checkpoint.foreignRates = ["USD": 0.8]
        journal.cashCheckpoint = checkpoint
        journal.fills = [Self.fill(1, .buy, at: "4500"), Self.fill(2, .sell, at: "4510")]
        return journal
    }

    @Test func aRestartRestoresEachCurrencyAndConvertsAtThePairsLatestPrice() throws {
        let (harness, actions) = Self.restarted(Self.journal())
        #expect(harness.core.phase == .running, "\(actions.logs)")

        let portfolio = harness.core.engine.portfolio
        #expect(portfolio.position(for: Self.pair).isFlat, "the account's euros are not the bot's position")
        #expect(portfolio.position(for: Self.es).isFlat)
        #expect(portfolio.rate(for: Self.es) == 0.8)
        #expect(portfolio.homeCash == Money(1_000_000))
        #expect(portfolio.foreignCash == ["USD": Money(approximately: 495.50)])
        #expect(portfolio.cash == Money(approximately: 1_000_396.40))
        #expect(portfolio.commissions == Money(approximately: 3.60))
        #expect(portfolio.realizedPnL == Money(400))
        #expect(actions.logs.contains { $0.hasPrefix("engine cash 1000396.40 (1000000.00 EUR and 495.50 USD) restored") }, "\(actions.logs)")
        #expect(actions.logs.contains("account in EUR: equity, cash, P&L and limits in EUR; USD at 1 / EUR.USD, watched for its rate alone"))
        #expect(
            actions.logs.contains(
                "positions at the broker that are not this bot's: 50000 EUR.USD (watched for its rate alone); listed, never traded"),
            "\(actions.logs)")
        #expect(!actions.logs.contains { $0.contains("reconciliation alert") }, "the account's euros are no difference: \(actions.logs)")

        // The next restart's checkpoint keeps each currency apart, with the rate.
        let saved = actions.compactMap { action -> JournalCashCheckpoint? in
            if case .journal(.cashCheckpoint(let checkpoint, _)) = action { checkpoint } else { nil }
        }
        let next = try #require(saved.last)
        #expect(next.cash == Money(1_000_000))
        #expect(next.foreignCash == ["USD": Money(approximately: 495.50)])
        #expect(next.fillCommissions == .zero)
        #expect(next.foreignFillCommissions == ["USD": Money(approximately: 4.50)])
        #expect(next.foreignRates == ["USD": 0.8])
        #expect(next.fillCheckpoint == 2)

        // The operator sees the account's currency and the dollars beside it.
        let money = harness.core.status(at: harness.now).money
        #expect(money.currency == "EUR")
        #expect(money.balances?.map(\.currency) == ["USD"])
        #expect(money.balances?.first?.cash == 495.5)
        #expect(money.balances?.first?.rate == 0.8)
        #expect(money.cash == 1_000_396.4)
    }

    /// Without a warm-up price of the pair the run before's rate holds until the first bar (and is said); the first
    /// bar's price then converts.
    @Test func withoutAPriceOfThePairTheRunBeforesRateHoldsUntilTheFirstBar() throws {
        var (harness, actions) = Self.restarted(Self.journal(), pairClose: nil)
        #expect(harness.core.phase == .running, "\(actions.logs)")
        #expect(harness.core.engine.portfolio.rate(for: Self.es) == 0.8)
        #expect(harness.core.engine.portfolio.cash == Money(approximately: 1_000_396.40))
        #expect(actions.logs.contains("no price of EUR.USD yet (none in the warm-up): USD converts at the run before's rate, 0.8, until its first bar"), "\(actions.logs)")
        let price = Price("1.6")!
        let bar = Bar(timestamp: harness.now, open: price, high: price, low: price, close: price, volume: Quantity(0))
        actions = harness.send(.market(harness.feed, .bar(Self.pair, bar)), after: .seconds(5))
        #expect(harness.core.engine.portfolio.rate(for: Self.es) == 0.625)
        #expect(harness.core.engine.portfolio.cash == Money(approximately: 1_000_000 + 495.50 * 0.625))
    }

    /// A commission IB reports after the checkpoint for a fill it had counted is charged in the fill's currency.
    @Test func aLateCommissionIsChargedInItsFillsCurrency() {
        var checkpoint = JournalCashCheckpoint(
            time: Harness.start - .days(1), account: "DU111", cash: Money(900_000), fillCheckpoint: 1,
            positions: ["ES 2024-03": Quantity(1)])
        checkpoint.foreignCash = ["USD": Money(-1_000)]
        var fill = Self.fill(1, .buy, at: "4500")
        fill.commission = Money(approximately: 2.25)  // unknown (0) when the checkpoint was written
        let outcome = CashRestore.restore(
            checkpoint: checkpoint, fills: [fill], account: "DU111", universe: ["ES 2024-03", "AAPL"],
            brokerPositions: ["ES 2024-03": Quantity(1)], averageCosts: [:], accountCurrency: "EUR", rates: ["USD": 0.8])
        #expect(outcome.cash == Money(900_000))
        #expect(outcome.foreign == ["USD": Money(approximately: -1_002.25)])
        #expect(outcome.commissions == Money(approximately: 1.80))

        // A stock (priced in dollars) bought since: its price and commission leave the dollars.
        var stock = JournalFill(
            execID: "s", symbol: "AAPL", side: .buy, quantity: Quantity(10), price: Price("100")!, time: Harness.start)
        stock.sequence = 2
        stock.account = "DU111"
        stock.commission = Money(1)
        let bought = CashRestore.restore(
            checkpoint: checkpoint, fills: [fill, stock], account: "DU111", universe: ["ES 2024-03", "AAPL"],
            brokerPositions: ["ES 2024-03": Quantity(1), "AAPL": Quantity(10)], averageCosts: [:], accountCurrency: "EUR",
            rates: ["USD": 0.8])
        #expect(bought.foreign == ["USD": Money(approximately: -2_003.25)])
        #expect(bought.cash == Money(900_000))
        #expect(bought.adjustments.isEmpty)
    }
}
