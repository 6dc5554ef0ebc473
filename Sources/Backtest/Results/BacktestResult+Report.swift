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
    /// `quantity × lastPrice`, in the account's currency (at the last rate for an instrument priced in another).
    public var marketValue: Money
    /// `quantity × (lastPrice − averagePrice)`, in the account's currency as `marketValue`.
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
            let rate = finalRate(of: InstrumentID(index: index))
            return OpenPosition(
                symbol: universe.instruments[index].symbol, quantity: position.quantity,
                averagePrice: position.averagePrice, lastPrice: last,
                marketValue: position.marketValue(at: last).converted(at: rate),
                unrealizedPnL: position.unrealizedPnL(at: last).converted(at: rate))
        }
    }

    /// The account currency per unit of the instrument's price currency at the end (1 in the account's currency).
    public func finalRate(of instrument: InstrumentID) -> Double { finalRates[instrument.index] }

    /// The pair whose closes convert a currency other than the account's (`nil` for the account's own), and whether
    /// the rate is one over its price.
    public func ratePair(of currency: String) -> (symbol: Symbol, inverted: Bool)? {
        conversion.rateSource(of: currency).map { (universe.instruments[$0.instrument].symbol, $0.inverted) }
    }

    /// Warnings a reader must see: positions closed because their data ended.
    /// - Parameter format: how times are printed (dates for daily data).
    public func warnings(format: (Timestamp) -> String) -> [String] {
        dataEndings.map { ending in
            "\(ending.symbol.rawValue): its data ends on \(format(ending.lastBarTime)); the position of "
                + "\(ending.quantity) was closed at its last price \(ending.price) on \(format(ending.closedAt))."
        } + (openedDaysNote.map { [$0] } ?? [])
    }

    /// Says once which days the data traded on although the exchange calendar lists them as closed (`nil`: none).
    public var openedDaysNote: String? {
        guard !openedDays.isEmpty else { return nil }
        let named = openedDays.prefix(5).map { day in
            let text = String(String(describing: Timestamp(nanoseconds: day * Timestamp.nanosecondsPerDay)).prefix(10))
            return USEquityCalendar.holiday(day).map { "\(text) (\($0))" } ?? text
        }
        let more = openedDays.count > 5 ? " and \(openedDays.count - 5) more" : ""
        return "the data has bars on \(named.joined(separator: ", "))\(more), which the exchange calendar lists as closed: "
            + "they traded as ordinary days (the data wins over the calendar)."
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
                columns: ["Symbol", "Quantity", "Average price", "Last price"]
                    + (balances.isEmpty
                        ? ["Market value", "Unrealized P&L"]
                        : ["Market value (\(accountCurrency))", "Unrealized P&L (\(accountCurrency))"]),
                rows: open.map {
                    [
                        $0.symbol.rawValue, "\($0.quantity)", "\($0.averagePrice)", "\($0.lastPrice)",
                        $0.marketValue.centsDescription, $0.unrealizedPnL.centsDescription,
                    ]
                })
        sections.append(HTMLReportSection(heading: "Open positions at the end", bodies: [body]))
        if !balances.isEmpty { sections.append(currencySection) }
        return sections
    }

    /// The account's currency and each other balance at the end with the rate that converted it.
    var currencySection: HTMLReportSection {
        let account = accountCurrency
        let rows = balances.map { balance -> [String] in
            let pair = ratePair(of: balance.currency)
            let source = pair.map {
                ($0.inverted ? "1 / " : "") + $0.symbol.rawValue + " (its last close"
                    + (rateOnlySymbols.contains($0.symbol.rawValue) ? "; loaded for the rate, not traded)" : ")")
            } ?? "–"
            return [
                balance.currency, balance.cash.centsDescription, balance.value.centsDescription,
                balance.rate > 0 ? String(format: "%.5f", balance.rate) : "–", source,
                (balance.cash + balance.value).converted(at: balance.rate).centsDescription,
            ]
        }
        return HTMLReportSection(
            heading: "Currencies",
            caption: "The account is in \(account): equity, cash, P&L and commissions in this report are in \(account). "
                + "Instruments priced in another currency book their trades, P&L and commissions in it; each balance "
                + "is converted at the latest close of the universe's pair of the two currencies.",
            bodies: [
                .table(
                    columns: ["Currency", "Cash", "Positions", "Rate (\(account) per unit)", "Rate from", "In \(account)"],
                    rows: rows)
            ])
    }
}
