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
        }
    }

    @Test func anAccountInDollarsSaysNothingAboutCurrencies() async throws {
        try await withTemporaryDirectory { folder in
            let backtest = try await WrittenBacktest(Self.momentum, folder: folder)
            #expect(!backtest.table.contains("Account currency"))
            #expect(try backtest.summary()["currencies"] as? [Any] != nil)
            #expect(try backtest.summary()["account_currency"] as? String == "USD")
        }
    }

    @Test func aUniverseWithoutThePairIsRefusedWithTheFix() async {
        await withTemporaryDirectory { folder in
            var sets = Self.momentum
            sets["strategy.currency"] = "EUR"
            sets["universe.symbols"] = "[ES continuous, GBP.USD]"
            await #expect {
                _ = try await WrittenBacktest(sets, folder: folder)
            } throws: { error in
                "\(error)" == "strategy.currency: 'GBP.USD', 'ES continuous' are priced in USD and the account is in EUR: "
                    + "add USD.EUR or EUR.USD to the universe, whose prices convert USD to EUR"
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
