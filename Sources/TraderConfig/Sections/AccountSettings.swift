import Simulation
import TradingModel

/// `account:` what kind of IB account the run trades (the cash sizing leaves is `risk.cashBufferPercent`).
///
/// The kind decides buying power at the fill (`FundsAtFill`), in the backtest and in the simulator alike:
/// - `cash`: cash pays every purchase (IB's cash account); leverage is an error.
/// - `margin` (IB's default for a new account): without `risk.allowLeverage` the run is unlevered and cash still pays
///   every purchase; with it, Reg T's initial margin (`risk.initialMarginPercent`, 50 unless set) must be available
///   when an order fills.
public struct AccountSettings: Hashable, Sendable {
    /// `cash` or `margin`.
    public var type = "margin"

    /// Creates the defaults.
    public init() {}

    /// `true` for a cash account.
    public var isCash: Bool { type == "cash" }

    /// The rule a fill meets (`FundsAtFill.Rule`): cash pays unless the account is a margin account with leverage
    /// allowed, where the initial margin must be available (Reg T's 50 % unless `initialMarginPercent` is set).
    public func fundsRule(allowLeverage: Bool, initialMarginPercent: Double?) -> FundsAtFill.Rule {
        guard !isCash, allowLeverage else { return .cash }
        return .margin(initial: (initialMarginPercent ?? 50) / 100)
    }

    /// The schema of the section.
    public static var schema: ConfigSection<AccountSettings> {
        ConfigSection([
            .value(
                "type", \.type, .choice(["margin", "cash"]),
                summary: "The IB account kind: margin (IB's default) or cash. Cash pays every purchase unless a margin "
                    + "account has risk.allowLeverage; a fill that cash cannot pay is cut to what it pays, or refused."),
        ])
    }
}

extension TraderConfiguration {
    /// The rule every fill of this configuration meets (`AccountSettings.fundsRule` with `risk.allowLeverage` and
    /// `risk.initialMarginPercent`): the backtest's, the sandbox's simulator's, `run --simulated`'s.
    public var fundsRule: FundsAtFill.Rule {
        account.fundsRule(allowLeverage: risk.allowLeverage, initialMarginPercent: risk.limits.initialMarginPercent)
    }
}
