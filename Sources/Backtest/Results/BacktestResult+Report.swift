import Analytics
import TradingEngine
import TradingModel

/// A position still open when the run ended, valued at its last price.
public struct OpenPosition: Hashable, Sendable {
    /// The symbol.
    public var symbol: Symbol
    /// Signed quantity.
    public var quantity: Quantity
    /// Average entry price.
    public var averagePrice: Price
    /// Last price (the final mark).
    public var lastPrice: Price
    /// `quantity × lastPrice`.
    public var marketValue: Money
    /// `quantity × (lastPrice − averagePrice)`.
    public var unrealizedPnL: Money
}

/// The parts of the report a backtest adds to the standard metrics: the risk profile, what the risk rules
/// changed, positions closed because their data ended, and the positions open at the end.
extension BacktestResult {
    /// Positions open at the end, by symbol order of the universe.
    public var openPositions: [OpenPosition] {
        positions.enumerated().compactMap { index, position in
            guard !position.isFlat else { return nil }
            let last = marks[index]
            return OpenPosition(
                symbol: universe.instruments[index].symbol, quantity: position.quantity,
                averagePrice: position.averagePrice, lastPrice: last, marketValue: position.marketValue(at: last),
                unrealizedPnL: position.unrealizedPnL(at: last))
        }
    }

    /// Warnings a reader must see: positions closed because their data ended.
    /// - Parameter format: how times are printed (dates for daily data).
    public func warnings(format: (Timestamp) -> String) -> [String] {
        dataEndings.map { ending in
            "\(ending.symbol.rawValue): its data ends on \(format(ending.lastBarTime)); the position of "
                + "\(ending.quantity) was closed at its last price \(ending.price) on \(format(ending.closedAt))."
        }
    }

    /// Denials and scale-downs per rule, e.g. `maxActivePositions 3 denied, settledCash 2 scaled down`.
    public var riskActionsText: String {
        let rules = Set(riskDenialCounts.keys).union(riskAdjustmentCounts.keys).sorted()
        guard !rules.isEmpty else { return "none" }
        return rules.map { rule in
            var parts: [String] = []
            if let denied = riskDenialCounts[rule] { parts.append("\(denied) denied") }
            if let scaled = riskAdjustmentCounts[rule] { parts.append("\(scaled) scaled down") }
            return "\(rule.rawValue) " + parts.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    /// The report sections: risk profile (and what it did), open positions.
    /// - Parameter profile: the limits in effect.
    public func reportSections(profile: RiskProfile) -> [HTMLReportSection] {
        let rows = profile.lines.map { [$0.key, $0.value, $0.origin.rawValue + ($0.reason.map { ": \($0)" } ?? "")] }
        var sections = [
            HTMLReportSection(
                heading: "Risk profile", caption: "The limits in effect and where each came from.",
                bodies: [
                    .table(columns: ["Limit (risk.…)", "Value", "Origin"], rows: rows),
                    .notes(["Orders denied or scaled down: \(riskActionsText)."]),
                ])
        ]
        let open = openPositions
        let body: HTMLReportSection.Body =
            open.isEmpty
            ? .notes(["No position is open at the end."])
            : .table(
                columns: ["Symbol", "Quantity", "Average price", "Last price", "Market value", "Unrealized P&L"],
                rows: open.map {
                    [
                        $0.symbol.rawValue, "\($0.quantity)", "\($0.averagePrice)", "\($0.lastPrice)",
                        $0.marketValue.centsDescription, $0.unrealizedPnL.centsDescription,
                    ]
                })
        sections.append(HTMLReportSection(heading: "Open positions at the end", bodies: [body]))
        return sections
    }
}
