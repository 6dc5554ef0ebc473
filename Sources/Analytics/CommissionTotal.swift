/// A run's commissions as the one figure every output prints: what all its fills paid — the closed trades' and those
/// of positions still open at the end (their entries) — and what it charged without a fill (a futures roll's two legs),
/// in cents of the account's currency.
///
/// The producer rounds each part once, from the exact sum (a backtest: `BacktestResult.commissionTotal`), so the
/// terminal, `summary.json` (`total_commission`, `open_position_commission`) and `report.html` print the same cents,
/// and the exact per-row commissions of `trades.csv` and `orders.csv` add up to them.
public struct CommissionTotal: Sendable, Equatable {
    /// The run's total, in cents.
    public var cents: Int64
    /// Of which the fills of positions still open at the end paid, in cents.
    public var openPositionCents: Int64
    /// Of which futures rolls cost, in cents (both legs' commissions and slippage, booked as commission).
    public var futuresRollCents: Int64

    /// Creates a total from its parts, each already rounded to the cent.
    public init(cents: Int64, openPositionCents: Int64 = 0, futuresRollCents: Int64 = 0) {
        self.cents = cents
        self.openPositionCents = openPositionCents
        self.futuresRollCents = futuresRollCents
    }

    /// The total in currency units (`290.18`).
    public var amount: Double { Double(cents) / 100 }
    /// The part on positions still open, in currency units.
    public var openPositionAmount: Double { Double(openPositionCents) / 100 }

    /// The total alone, to the cent: `290.18`.
    public var totalText: String { Self.format(cents) }

    /// What the total includes besides the closed trades' fills, or `nil` when nothing:
    /// `of which 11.00 on positions still open`.
    public var inclusions: String? {
        var parts: [String] = []
        if openPositionCents != 0 { parts.append("\(Self.format(openPositionCents)) on positions still open") }
        if futuresRollCents != 0 { parts.append("\(Self.format(futuresRollCents)) in futures rolls") }
        return parts.isEmpty ? nil : "of which " + parts.joined(separator: " and ")
    }

    /// The total as the reports print it, labelled with what it includes besides the closed trades' fills:
    /// `290.18 (of which 11.00 on positions still open)`.
    public var text: String { totalText + (inclusions.map { " (\($0))" } ?? "") }

    /// Cents as `1234.05` (`-0.50` below zero).
    static func format(_ cents: Int64) -> String {
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return (cents < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
