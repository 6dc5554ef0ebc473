import Foundation
import JournalModel
import Testing
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 47: IB's account currency and exchange rates beside the bot's, at each position check. The bot counts in
/// euros (`MultiCurrencySessionTests`: ES with EUR.USD at 1.25 watched for its rate, 0.8 EUR per USD).
struct CurrencyCheckTests {
    typealias Harness = SessionCoreHarness<HoldTwo>

    /// reqAccountSummary's rows: the account's figures in its base currency, IB's rate of each currency, and the
    /// ledger rows of other currencies left out.
    @Test func theAccountsRowsBecomeItsFiguresItsBaseAndEachRate() {
        let values = CurrencyCheck.values([
            ("ExchangeRate", "1.00", "BASE"), ("NetLiquidation", "1250000.00", "USD"), ("SettledCash", "1250000.00", "USD"),
            ("ExchangeRate", "1.0000", "USD"), ("ExchangeRate", "1.2500", "EUR"), ("SettledCash", "-3.00", "EUR"),
            ("CashBalance", "-2.25", "USD"), ("AccountType", "INDIVIDUAL", ""),
        ])
        #expect(values == [
            "BaseCurrency": "USD", "NetLiquidation": "1250000.00", "SettledCash": "1250000.00", "ExchangeRate.USD": "1.0000",
            "ExchangeRate.EUR": "1.2500", "CashBalance": "-2.25", "AccountType": "INDIVIDUAL",
        ])
        // Without NetLiquidation IB says nothing of its base: every tag is kept (the first of each).
        #expect(CurrencyCheck.values([("SettledCash", "5", "USD"), ("SettledCash", "6", "EUR")]) == ["SettledCash": "5"])
    }

    /// The position check's account values, answered with `values` (the positions: the account's euros as IB lists
    /// them, which the bot watches for the rate and never owns).
    static func check(_ harness: inout Harness, _ values: [String: String]) -> [SessionAction] {
        harness.send(.tick, after: .minutes(5))
        harness.answerAll { $0 == .positions || $0 == .accountValues }
        var actions: [SessionAction] = []
        if let positions = harness.outstanding.first(where: { $0.1 == .positions }) {
            let euros = TWSPosition(
                account: "DU111", contract: TWSContract(symbol: "EUR", securityType: "CASH", exchange: "IDEALPRO", currency: "USD"),
                quantity: 50_000, averageCost: 1.2)
            actions += harness.send(.answer(positions.0, .positions([euros])))
        }
        guard let request = harness.outstanding.first(where: { $0.1 == .accountValues }) else {
            Issue.record("no account values asked: \(harness.outstanding)")
            return actions
        }
        return actions + harness.send(.answer(request.0, .accountValues(values)))
    }

    @Test func anAccountAtIBInDollarsIsSaidOnceAndItsRatesAreCompared() throws {
        var (harness, started) = MultiCurrencySessionTests.restarted(JournalRestartData())
        #expect(harness.core.phase == .running, "\(started.logs)")
        let dollars = ["BaseCurrency": "USD", "ExchangeRate.USD": "1", "ExchangeRate.EUR": "1.25", "SettledCash": "1250000"]
        var actions = Self.check(&harness, dollars)
        #expect(actions.contains(.log(.notice,
            "IB reports account DU111 in USD; the bot counts in EUR (strategy.currency): IB's figures are compared at IB's "
                + "rate, 0.8 EUR per USD")), "\(actions.logs)")
        #expect(actions.logs.contains("exchange rates against IB's: USD 0.8 (IB 0.8)"), "\(actions.logs)")
        actions = Self.check(&harness, dollars)
        #expect(!actions.logs.contains { $0.hasPrefix("IB reports account") }, "said once")

        // IB's euro at 1.35: its dollar is 0.740741 euros, 8 % from the bot's 0.8: a warning, journaled, once.
        var apart = dollars
        apart["ExchangeRate.EUR"] = "1.35"
        actions = Self.check(&harness, apart)
        let warning =
            "the bot values USD at 0.8 EUR (1 / EUR.USD), IB's exchange rate gives 0.740741: 8.0 % apart. Equity, sizes "
            + "and limits follow the bot's; check the pair's market data"
        #expect(actions.logs.contains(warning), "\(actions.logs)")
        #expect(actions.contains { if case .journal(.event(.note, let text, _)) = $0 { text.hasPrefix(warning) } else { false } })
        actions = Self.check(&harness, apart)
        #expect(!actions.logs.contains(warning), "once until they agree again")
        actions = Self.check(&harness, dollars)
        #expect(actions.logs.contains("the bot's rate for USD agrees with IB's again: USD 0.8 (IB 0.8)"), "\(actions.logs)")

        // IB without a usable rate for the euro (none, zero, negative): its figures cannot be compared, a warning.
        for (base, rate) in [("CHF", nil), ("GBP", "0"), ("JPY", "-1.25")] as [(String, String?)] {
            var values = ["BaseCurrency": base, "ExchangeRate.USD": "0.9"]
            values["ExchangeRate.EUR"] = rate
            actions = Self.check(&harness, values)
            let text =
                "IB reports account DU111 in \(base); the bot counts in EUR (strategy.currency): IB gives no rate for EUR, "
                + "so its margin and cash figures are not compared"
            #expect(actions.contains(.log(.warning, text)), "\(base) \(rate ?? "none"): \(actions.logs)")
            #expect(!actions.logs.contains { $0.hasPrefix("exchange rates against IB's") })
        }
    }

    /// A rate not known on either side is not compared: the bot's before the pair's first price (no warm-up, no
    /// checkpoint), IB's when it gives zero.
    @Test func aRateNotKnownOnEitherSideIsNotCompared() throws {
        var (harness, _) = MultiCurrencySessionTests.restarted(JournalRestartData(), pairClose: nil)
        #expect(harness.core.engine.portfolio.rate(for: MultiCurrencySessionTests.es) == 0)
        var actions = Self.check(&harness, ["BaseCurrency": "EUR", "ExchangeRate.USD": "0.8"])
        #expect(!actions.logs.contains { $0.hasPrefix("exchange rates against IB's") || $0.hasPrefix("the bot values") }, "\(actions.logs)")
        (harness, _) = MultiCurrencySessionTests.restarted(JournalRestartData())
        actions = Self.check(&harness, ["BaseCurrency": "EUR", "ExchangeRate.USD": "0"])
        #expect(!actions.logs.contains { $0.hasPrefix("exchange rates against IB's") || $0.hasPrefix("the bot values") }, "\(actions.logs)")
    }

    /// An account at IB in euros, as the bot's: nothing to say of the base; IB's dollar (0.8 euros) agrees.
    @Test func anAccountAtIBInTheBotsCurrencyComparesItsRatesOnly() throws {
        var (harness, _) = MultiCurrencySessionTests.restarted(JournalRestartData())
        let actions = Self.check(&harness, ["BaseCurrency": "EUR", "ExchangeRate.EUR": "1", "ExchangeRate.USD": "0.8003"])
        #expect(!actions.logs.contains { $0.hasPrefix("IB reports account") }, "\(actions.logs)")
        #expect(actions.logs.contains("exchange rates against IB's: USD 0.8 (IB 0.8003)"), "\(actions.logs)")
    }
}
