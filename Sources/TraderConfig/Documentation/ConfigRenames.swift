/// Flags renamed when every flag took the name of its key: an old spelling is an error that gives the new one.
public enum ConfigRenames {
    /// Old flag → what to write now.
    public static let flags: [(old: String, new: String)] = [
        ("--fast", "--fast-period"), ("--slow", "--slow-period"), ("--short", "--allow-short"),
        ("--entry-sd", "--entry-deviations"), ("--exit-sd", "--exit-deviations"), ("--atr-stop", "--atr-stops"),
        ("--top", "--holdings (momentum's holdings; the performance allocator's is --allocation-top-count; optimize's table rows are --rows)"),
        ("--window", "--allocation-window"), ("--reallocate", "--allocation-reallocation"),
        ("--max-weight", "--allocation-max-weight"),
        ("--step", "--allocation-step (the performance allocator's; walkforward's window step stays --step)"),
        ("--min-trade", "--minimum-trade-value (momentum) or --allocation-minimum-trade-value (the performance allocator)"),
        ("--min-weight-change", "--minimum-weight-change"),
        ("--min-momentum", "--minimum-score"), ("--stop-loss", "--stop-loss-percent"),
        ("--take-profit", "--take-profit-percent"), ("--quantity", "--sizing 'fixed: N'"),
        ("--percent", "--sizing 'percentOfEquity: P' (momentum: --invested-fraction, 0 to 1)"),
        ("--sector-limit", "--max-sector-percent-of-equity"), ("--max-positions", "--max-active-positions"),
        ("--max-drawdown", "--max-drawdown-percent"), ("--max-daily-loss", "--max-daily-loss-percent"),
        ("--max-position-percent", "--max-position-percent-of-equity"),
        ("--max-gross-exposure", "--max-gross-exposure-ratio"), ("--bar", "--bar-size"), ("--param", "--parameter"),
        ("--sweep", "--config FILE, with the sweep under 'sweep:' (--config is repeatable)"),
    ]

    /// The error for an option the command does not take: the new name of a renamed flag; for a flag other commands
    /// take (`run --cash`), its key, to set in a file or with `--set`; else the nearest flag.
    /// - Parameters:
    ///   - argument: the unrecognized argument (`--fast`, `--fast=3`).
    ///   - keys: every command's flags with their config keys (`--cash`: `strategy.cash`), for a suggestion.
    public static func message(for argument: String, keys: [(flag: String, key: String)]) -> String {
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        if let renamed = flags.first(where: { $0.old == name }) { return "\(name) was renamed \(renamed.new)" }
        guard name.hasPrefix("-") else { return "unexpected argument '\(argument)'" }
        if let key = keys.first(where: { $0.flag == name })?.key {
            return "this command does not take \(name); set \(key) in a config file or with --set \(key)=…"
        }
        return "unknown option '\(name)'" + KeySuggestion.phrase(for: name, in: keys.map(\.flag))
    }
}
