import InteractiveBrokers
import TradingModel
import LiveSession

extension LiveRunSummary {
    /// The line `ibtrader run` prints when the run ends.
    public var endLine: String {
        let positions = brokerPositions.filter { $0.value != .zero }
            .map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
        let left = leftAtBrokerText.map { "; \($0)" } ?? ""
        return "run ended (\(stopReason)): account \(account), \(bars) bars after \(warmupBars) warm-up bars, "
            + "\(commands) orders/cancels, \(fills) fills, \(denials) risk denials, "
            + (tradingHalts > 0 ? "\(tradingHalts) trading halt\(tradingHalts == 1 ? "" : "s"), " : "")
            + (deadFeeds > 0 ? "\(deadFeeds) dead feed\(deadFeeds == 1 ? "" : "s") resubscribed, " : "")
            + (buyingPowerCuts > 0 ? "\(buyingPowerCuts) cut at the fill for buying power, " : "") + "realized P&L "
            + "\(realizedPnL.centsDescription)\(currency == "USD" ? "" : " \(currency)") before commissions; broker positions: "
            + "[\(positions)]\(left)"
    }

    /// The end line, and where the journal is with the commands that read it.
    public func endText(journal: String?) -> String {
        guard let journal else { return endLine }
        let quoted = journal.contains(" ") ? "'\(journal)'" : journal
        return endLine + "\njournal: \(journal) (see it with `ibtrader journal --journal \(quoted)`, "
            + "re-run its decisions with `ibtrader replay \(quoted)`, compare them with a backtest over the same "
            + "bars with `ibtrader replay \(quoted) --drift`)"
    }
}
