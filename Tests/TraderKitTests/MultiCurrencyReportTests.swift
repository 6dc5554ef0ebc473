import Backtest
import Foundation
import Testing
import TraderConfig
import TraderKit

/// `strategy.currency` as a user meets it: the summary names the account's currency and each other balance with the
/// rate that converted it, summary.json carries them, and a universe without the converting pair is refused with
/// the fix.
struct MultiCurrencyReportTests {
    static let momentum = [
        "backtest.data": "bundled:futures-fx", "universe.symbols": "[ES continuous, EUR.USD, GBP.USD]",
        "strategy.name": "momentum", "strategy.cash": "1000000", "strategy.parameters.lookback": "5",
        "strategy.parameters.rebalance": "5", "strategy.parameters.ranking": "vol-adjusted",
        "strategy.parameters.weighting": "inverse-vol", "strategy.parameters.holdings": "2",
        "risk.allowLeverage": "true", "risk.maxGrossExposureRatio": "3", "backtest.benchmark": "none",
    ]

    @Test func anAccountInEurosIsReportedInEuros() async throws {
        try await withTemporaryDirectory { folder in
            var sets = Self.momentum
            sets["strategy.currency"] = "EUR"
            let backtest = try await WrittenBacktest(sets, folder: folder)
            let table = backtest.table
            #expect(table.contains("Account currency                  EUR: equity, cash, P&L and commissions above are in EUR"), "\(table)")
            let row = try #require(table.split(separator: "\n").first { $0.hasPrefix("USD balance") })
            #expect(row.contains(" USD; at 0.72527 EUR per USD (1 / EUR.USD 1.37879, its last close)"), "\(row)")
            let summary = try backtest.summary()
            #expect(summary["account_currency"] as? String == "EUR")
            let currencies = try #require(summary["currencies"] as? [[String: Any]])
            #expect(currencies.count == 1)
            #expect(currencies.first?["currency"] as? String == "USD")
            #expect(currencies.first?["rate_pair"] as? String == "EUR.USD")
            #expect(currencies.first?["rate_inverted"] as? Bool == true)
            #expect(abs((currencies.first?["rate"] as? Double ?? 0) - 1 / 1.37879) < 1e-5)
            // Each row of trades.csv says its prices' currency and its P&L's; each order its own.
            let trades = try backtest.text("trades.csv").split(separator: "\n")
            #expect(trades.first?.hasSuffix(",pnl,commission,price_currency,pnl_currency") == true, "\(trades.first ?? "")")
            #expect(trades.dropFirst().contains { $0.hasPrefix("ES continuous,") && $0.hasSuffix(",USD,EUR") }, "\(trades)")
            #expect(trades.dropFirst().contains { $0.hasPrefix("GBP.USD,") && $0.hasSuffix(",USD,EUR") }, "\(trades)")
            #expect(trades.dropFirst().allSatisfy { $0.hasSuffix(",USD,EUR") })
            let orders = try backtest.text("orders.csv").split(separator: "\n")
            #expect(orders.first?.hasSuffix(",commission,reason,currency") == true, "\(orders.first ?? "")")
            #expect(orders.count > 1 && orders.dropFirst().allSatisfy { $0.hasSuffix(",USD") }, "\(orders)")
        }
    }

    @Test func anAccountInDollarsSaysNothingAboutCurrencies() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await WrittenBacktest(Self.momentum, folder: folder)
            #expect(!backtest.table.contains("Account currency"))
            #expect(try backtest.summary()["currencies"] as? [Any] != nil)
            #expect(try backtest.summary()["account_currency"] as? String == "USD")
            #expect(try backtest.text("trades.csv").hasPrefix("symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission\n"))
            #expect(try backtest.text("orders.csv").split(separator: "\n").first?.hasSuffix(",commission,reason") == true)
        }
    }

    /// Without the pair in the universe, the data's pair is loaded for its rate alone: never traded, never seen by
    /// the strategy, named in the report.
    @Test func thePairComesFromTheDataForItsRateAlone() async throws {
        try await withTemporaryDirectory { folder in
            var sets = Self.momentum
            sets["strategy.currency"] = "EUR"
            sets["universe.symbols"] = "[ES continuous, GBP.USD]"
            let backtest = try await WrittenBacktest(sets, folder: folder)
            let result = backtest.run.summary.result
            #expect(result.universe.instruments.map(\.symbol.rawValue).sorted() == ["ES continuous", "EUR.USD", "GBP.USD"])
            #expect(!result.fills.isEmpty)
            #expect(!result.fills.contains { result.universe[$0.instrument].symbol == "EUR.USD" })
            #expect(!result.orders.contains { result.universe[$0.instrument].symbol == "EUR.USD" })
            #expect(result.balances.first?.rate ?? 0 > 0.7)
            let summary = try backtest.summary()
            let data = (summary["parameters"] as? [String: Any])?["data"] as? String ?? ""
            #expect(data.contains("EUR.USD for the rate from USD to EUR (not traded)"), "\(data)")
        }
    }

    /// Fixed sizing trades the same contracts in either account: the P&L in euros is the dollar run's, every dollar
    /// of it (commissions and the roll included) converted at EUR.USD's close on ES's last day, 2013-12-26: 1.369455
    /// (the pair, loaded for its rate, ends with the traded series; its file goes on to 12-31).
    @Test func theEuroRunIsTheDollarRunConverted() async throws {
        try await withTemporaryDirectory { folder in
            let sets = [
                "backtest.data": "bundled:futures-fx", "universe.symbols": "[ES continuous]", "strategy.name": "sma-cross",
                "strategy.parameters.fastPeriod": "3", "strategy.parameters.slowPeriod": "10",
                "strategy.parameters.sizing": "{fixed: 2}", "backtest.benchmark": "none",
            ]
            let dollars = try await WrittenBacktest(sets, folder: folder + "/usd").run.summary.result
            var inEuros = sets
            inEuros["strategy.currency"] = "EUR"
            let euros = try await WrittenBacktest(inEuros, folder: folder + "/eur").run.summary.result
            let trades = { (result: BacktestResult) in
                result.fills.map { "\(result.universe[$0.instrument].symbol) \($0.side) \($0.quantity) \($0.price) \($0.timestamp)" }
            }
            #expect(!trades(dollars).isEmpty)
            #expect(trades(euros) == trades(dollars))
            let expected = 100_000 + (dollars.finalEquity.doubleValue - 100_000) / 1.369455
            #expect(abs(euros.finalEquity.doubleValue - expected) < 0.01, "\(euros.finalEquity) vs \(expected)")
            #expect(euros.rateOnlySymbols == ["EUR.USD"])
        }
    }

    @Test func dataWithoutThePairIsRefusedWithTheFix() async {
        await withTemporaryDirectory { folder in
            var sets = Self.momentum
            sets["backtest.data"] = "bundled:futures"
            sets["strategy.currency"] = "EUR"
            sets["universe.symbols"] = "[ES continuous]"
            await #expect {
                _ = try await WrittenBacktest(sets, folder: folder)
            } throws: { error in
                "\(error)" == "strategy.currency: 'ES continuous' is priced in USD and the account is in EUR: the rate "
                    + "needs USD.EUR or EUR.USD bars (in the universe, or in the data beside the others: a backtest "
                    + "loads the pair for its rate alone)"
            }
        }
    }

    /// A continuous future beside one other file is loaded with it (it was streamed alone: the future was dropped).
    @Test func aContinuousFutureBesideOneFileRunsBoth() async throws {
        try await withTemporaryDirectory { folder in
            var sets = Self.momentum
            sets["universe.symbols"] = "[ES continuous, GBP.USD]"
            let backtest = try await WrittenBacktest(sets, folder: folder)
            #expect(backtest.table.contains("(2 symbols)"), "\(backtest.table)")
        }
    }
}
