import InteractiveBrokers
import TradingModel
import LiveSession

extension LiveRunSummary {
    /// The line `ibtrader run` prints when the run ends.
    public var endLine: String {
        let positions = brokerPositions.filter { $0.value != .zero }
            .map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
        return "run ended (\(stopReason)): account \(account), \(bars) bars after \(warmupBars) warm-up bars, "
            + "\(commands) orders/cancels, \(fills) fills, \(denials) risk denials, realized P&L "
            + "\(realizedPnL.centsDescription) before commissions; broker positions: [\(positions)]"
    }
}
