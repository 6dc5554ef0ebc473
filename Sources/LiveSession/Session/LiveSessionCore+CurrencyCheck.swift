import JournalModel
import TradingEngine
import TradingModel

// IB's account currency and exchange rates beside the bot's (issue 47). The account-values request of the position
// check (`MarginCheck`) also asks for `$LEDGER:ALL`: IB's `ExchangeRate` of each currency (the base currency per unit
// of it) and, from NetLiquidation's row, the account's base currency. An account at IB in another currency than
// `strategy.currency` is said once, and IB's figures are converted at IB's own rate before the margin and settled-cash
// checks compare them; a rate of the bot's (the pair's latest price) more than `CurrencyCheck.tolerance` from IB's is a
// warning, journaled, once until they agree again.

/// What the currency check remembers between looks.
struct CurrencyCheckState: Sendable {
    /// The base currency IB reported last (said when it first differs from the bot's, and when it changes).
    var reportedBase: String?
    /// The currencies whose rate differs from IB's (warned once until they agree again).
    var disagreeing: Set<String> = []
}

public enum CurrencyCheck {
    /// How far a rate may be from IB's before it is a warning (fraction).
    static let tolerance = 0.01

    /// The dictionary the session core reads from reqAccountSummary's rows of one account: each tag in the account's
    /// base currency (the one NetLiquidation is in), `BaseCurrency`, and `ExchangeRate.XXX` for each currency IB
    /// lists under `$LEDGER:ALL` (the base currency per unit of XXX). A ledger row of a tag in another currency, or
    /// the `BASE` aggregate, is left out: it would overwrite the account's own figure.
    /// - Parameter rows: the account's rows, as TWS sent them.
    public static func values(_ rows: [(tag: String, value: String, currency: String)]) -> [String: String] {
        let base = rows.first { $0.tag == "NetLiquidation" && !$0.currency.isEmpty && $0.currency != "BASE" }?.currency
        var values: [String: String] = [:]
        if let base { values["BaseCurrency"] = base }
        for row in rows {
            if row.tag == "ExchangeRate" {
                if row.currency != "BASE", !row.currency.isEmpty { values["ExchangeRate.\(row.currency)"] = row.value }
            } else if base == nil || row.currency == base || row.currency.isEmpty, values[row.tag] == nil {
                values[row.tag] = row.value
            }
        }
        return values
    }
}

extension LiveSessionCore {
    /// The account's currency per unit of IB's base currency: 1 when IB's account is in the bot's currency (or IB
    /// does not say), IB's own rate when in another; `nil` when IB gives no rate for the bot's currency (its figures
    /// are then not compared). Says the base once, and checks the pairs' rates against IB's.
    mutating func ibFigureRate(_ values: [String: String], _ out: inout Actions) -> Double? {
        let mine = engine.portfolio.conversion.accountCurrency
        guard let base = values["BaseCurrency"], base != mine else {
            currencyCheck.reportedBase = values["BaseCurrency"]
            compareRates(values, basePerMine: 1, base: mine, &out)
            return 1
        }
        let basePerMine = values["ExchangeRate.\(mine)"].flatMap(Double.init).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        if currencyCheck.reportedBase != base {
            currencyCheck.reportedBase = base
            let text =
                "IB reports account \(account) in \(base); the bot counts in \(mine) (strategy.currency): "
                + (basePerMine.map {
                    "IB's figures are compared at IB's rate, \(Self.rateText(1 / $0)) \(mine) per \(base)"
                } ?? "IB gives no rate for \(mine), so its margin and cash figures are not compared")
            out.log(basePerMine == nil ? .warning : .notice, text)
            if settings.journaled { out.append(journalEvent(.note, text)) }
        }
        guard let basePerMine else { return nil }
        compareRates(values, basePerMine: basePerMine, base: base, &out)
        return 1 / basePerMine
    }

    /// Each other currency's rate (the pair's latest price) against IB's `ExchangeRate`, converted to the bot's
    /// currency: logged; one more than `CurrencyCheck.tolerance` away is a warning, journaled, once until it agrees.
    private mutating func compareRates(_ values: [String: String], basePerMine: Double, base: String, _ out: inout Actions) {
        var lines: [String] = []
        for balance in engine.portfolio.balances where balance.rate > 0 {
            let basePer = balance.currency == base ? 1 : values["ExchangeRate.\(balance.currency)"].flatMap(Double.init)
            guard let basePer, basePer > 0, basePer.isFinite else { continue }
            let theirs = basePer / basePerMine
            lines.append("\(balance.currency) \(Self.rateText(balance.rate)) (IB \(Self.rateText(theirs)))")
            let apart = abs(balance.rate / theirs - 1)
            if apart > CurrencyCheck.tolerance {
                guard currencyCheck.disagreeing.insert(balance.currency).inserted else { continue }
                let pair = engine.portfolio.conversion.rateSource(of: balance.currency).map {
                    ($0.inverted ? "1 / " : "") + universe.instruments[$0.instrument].symbol.rawValue
                } ?? "its pair"
                let text =
                    "the bot values \(balance.currency) at \(Self.rateText(balance.rate)) \(engine.portfolio.conversion.accountCurrency) "
                    + "(\(pair)), IB's exchange rate gives \(Self.rateText(theirs)): \(String(format: "%.1f", apart * 100)) % "
                    + "apart. Equity, sizes and limits follow the bot's; check the pair's market data"
                out.log(.warning, text)
                if settings.journaled { out.append(journalEvent(.note, text)) }
            } else if currencyCheck.disagreeing.remove(balance.currency) != nil {
                out.log(.notice, "the bot's rate for \(balance.currency) agrees with IB's again: \(lines.last ?? "")")
            }
        }
        if !lines.isEmpty { out.log(.info, "exchange rates against IB's: \(lines.joined(separator: ", "))") }
    }

    static func rateText(_ rate: Double) -> String { String(format: "%.6g", rate) }
}
