import TradingEngine
import TradingModel

// The margin rule's figures against IB's (issue 26): with `risk.initialMarginPercent` set, every position check also
// asks TWS for the account's margin figures (reqAccountSummary) and logs them beside the engine's. A requirement of
// IB's above the engine's by more than `MarginCheck.tolerance` is a warning, journaled: the bot's reduce-only mode
// would come after IB's margin call (other positions in the account, house margin, or rates below IB's).
public enum MarginCheck {
    /// The reqAccountSummary tags asked for (`GrossPositionValue` for a manual order's exposure check).
    public static let tags = [
        "NetLiquidation", "EquityWithLoanValue", "InitMarginReq", "MaintMarginReq", "SettledCash", "GrossPositionValue",
    ]
    /// The request's tags: `tags` and every currency's ledger (IB's `ExchangeRate` of each, `CurrencyCheck`).
    public static let request = (tags + ["$LEDGER:ALL"]).joined(separator: ",")
    /// How far above the engine's an IB requirement may be before it is a warning (fraction, and at least $100).
    static let tolerance = 0.05
}

extension LiveSessionCore {
    /// Asks for IB's figures when the margin rule is on, settlement is modelled (T+N), or an instrument is priced in
    /// another currency than the account's (IB's exchange rates).
    mutating func requestMarginCheck(_ out: inout Actions) {
        guard engine.hasMarginRule || engine.portfolio.settlementDays > 0 || engine.portfolio.hasForeign else { return }
        _ = request(.accountValues, for: .marginCheck, &out)
    }

    /// Logs the engine's figures beside IB's; warns (and journals) when IB asks for more.
    mutating func marginCheckAnswered(_ values: [String: String], _ out: inout Actions) {
        // IB's figures in the bot's currency (an account at IB in another is converted at IB's rate; none: not compared).
        let rate = ibFigureRate(values, &out)
        func ib(_ tag: String) -> Money? {
            guard let rate else { return nil }
            return values[tag].flatMap(Double.init).map { Money(approximately: $0 * rate) }
        }
        if engine.portfolio.settlementDays > 0 { settledCashAnswered(ib("SettledCash"), &out) }
        guard engine.hasMarginRule else { return }
        let initial = engine.initialMarginRequirement
        let maintenance = engine.maintenanceMarginRequirement
        let equity = engine.portfolio.equity
        func pair(_ name: String, _ mine: Money, _ theirs: Money?) -> String {
            "\(name) \(mine.centsDescription) (IB \(theirs?.centsDescription ?? "–"))"
        }
        let line =
            "margin against IB's: " + pair("initial", initial, ib("InitMarginReq")) + ", "
            + pair("maintenance", maintenance, ib("MaintMarginReq")) + ", "
            + pair("equity", equity, ib("EquityWithLoanValue") ?? ib("NetLiquidation"))
        var above: [String] = []
        for (name, mine, tag) in [("initial", initial, "InitMarginReq"), ("maintenance", maintenance, "MaintMarginReq")] {
            guard let theirs = ib(tag) else { continue }
            let excess = theirs - mine
            if excess > Money(100), excess.doubleValue > mine.doubleValue * MarginCheck.tolerance {
                above.append("\(name) \(theirs.centsDescription) against \(mine.centsDescription)")
            }
        }
        guard !above.isEmpty else {
            out.log(.info, line)
            return
        }
        let text =
            "IB's margin requirement is above the bot's (\(above.joined(separator: "; "))): IB would act before the "
            + "bot's reduce-only mode; other positions in the account, house margin, or risk.maintenanceMarginPercent / "
            + "marginPercentBySymbol below IB's rates. \(line)"
        out.log(.warning, text)
        if settings.journaled { out.append(journalEvent(.note, text)) }
    }

    /// The engine's settled cash beside IB's `SettledCash`. The engine counting more as settled than IB (beyond the
    /// tolerance) is a warning, journaled: its buys could then spend proceeds that have not settled (a good-faith
    /// violation in a cash account). IB's cash covers the whole account, so IB showing more is only logged.
    mutating func settledCashAnswered(_ theirs: Money?, _ out: inout Actions) {
        let portfolio = engine.portfolio
        let line =
            "settled cash \(portfolio.settledCash.centsDescription) (unsettled \(portfolio.unsettledCash.centsDescription), "
            + "T+\(portfolio.settlementDays)); IB's SettledCash \(theirs?.centsDescription ?? "–")"
        guard let theirs, portfolio.settledCash - theirs > Money(100),
            (portfolio.settledCash - theirs).doubleValue > theirs.doubleValue.magnitude * MarginCheck.tolerance
        else {
            out.log(.info, line)
            return
        }
        let text =
            "the bot counts more cash as settled than IB does: \(line). Its buys could spend unsettled proceeds; check "
            + "backtest.settlementDays (T+1 for US stocks) and the account's other activity"
        out.log(.warning, text)
        if settings.journaled { out.append(journalEvent(.note, text)) }
    }
}
