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
    /// - Parameters:
    ///   - journal: the journal's path (`nil`: none, no journal line).
    ///   - simulatedBroker: the broker was the in-process simulator (`run --simulated`, `sandbox`): what the end line
    ///     says is left at the broker ended with the run, and a line says so (a newcomer read "leaving 2 protective
    ///     orders working at the broker" as orders still out somewhere; issue 83).
    public func endText(journal: String?, simulatedBroker: Bool = false) -> String {
        var text = endLine
        if simulatedBroker, leftAtBrokerText != nil || brokerPositions.contains(where: { $0.value != .zero }) {
            text += "\nthe broker was the built-in simulator: its positions and orders ended with this run (against "
                + "TWS or IB Gateway they stay at the broker, as the line above says)"
        }
        guard let journal else { return text }
        let quoted = journal.contains(" ") ? "'\(journal)'" : journal
        return text + "\njournal: \(journal) (see it with `ibtrader journal --journal \(quoted)`, "
            + "re-run its decisions with `ibtrader replay \(quoted)`, compare them with a backtest over the same "
            + "bars with `ibtrader replay \(quoted) --drift`)"
    }
}
