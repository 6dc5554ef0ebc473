import Backtest
import Simulation
import TradingModel

/// `backtest:` the data and costs of `backtest`, `optimize` and `walkforward`.
public struct BacktestSettings: Hashable, Sendable {
    /// `bundled:NAME`, `synthetic:N[:SEED]`, a folder, a CSV file, `sqlite:PATH` or `parquet:DIR` (`nil`: momentum on
    /// bundled:sp500, the performance allocator on bundled:stocks, else bundled:stocks with GOOG).
    public var data: String?
    /// With `sqlite:PATH`: the bar size to read (`nil`: the store's only one, else `1 day`).
    public var barSize: String?
    /// First date, inclusive (`YYYY-MM-DD`).
    public var start: String?
    /// Last date, inclusive.
    public var end: String?
    /// `bundled` (^GSPC), `none` or a file (`nil`: bundled for daily data, none otherwise).
    public var benchmark: String?
    /// Market orders fill at the `next-open` or at the signal bar's `close`.
    public var fill = "next-open"
    /// How resting limit orders fill: `trades` (when a bar trades through them) or `quotes` (when the quote on their
    /// side, the bar's open or close across a 2 bp / one-tick spread, reaches them: the gateway simulator's and IB's
    /// rule).
    public var limitFills = "trades"
    /// `none`, `ibkr-fixed`, `ibkr-tiered` or `percent:P`. IB's fixed schedule by default: IB charges every order,
    /// and a backtest without costs overstates what the bot would earn.
    public var commission = "ibkr-fixed"
    /// Slippage in basis points of the fill price.
    public var slippageBps: Double = 0
    /// A slippage model as text (`bps:N`, `impact:K`, `spread:BPS`, `none`; `SlippageModel(text:)`), instead of
    /// `slippageBps`.
    public var slippage: String?
    /// The slippage of entries worked by IB's Adaptive algo (`orders.entry: adaptive`), as `slippage` (`nil`: the
    /// same as other market orders).
    public var adaptiveSlippage: String?
    /// The largest share of a bar's volume one order may take (the rest rests: partial fills); `nil`: no cap.
    public var participation: Double?
    /// Fills (volume-capped partial ones too) and orders may be fractions of a share (IB's fractional trading);
    /// `false`: whole shares, as IB trades stocks.
    public var fractionalShares = false
    /// Milliseconds between an order's submission and its becoming active.
    public var latencyMs: Double = 0
    /// `all` bars, or `regular`: only US regular-hours bars (09:30–16:00 New York) of intraday data.
    public var session = "all"
    /// Days until sale proceeds settle (with `risk.requireSettledCash`).
    public var settlementDays = 0
    /// Business days before a futures contract's last trading day that a position leaves it for the next.
    public var futuresRollDays = FutureSpec.defaultRollDays
    /// When a continuous future leaves a contract month: `days` (`futuresRollDays` before its last trading day) or
    /// `volume` (the business day after the next month traded more, at the latest then).
    public var futuresRollBy = "days"
    /// How a continuous future's contract months are spliced: `back-adjusted` or `unadjusted`.
    public var futuresPrices = "back-adjusted"
    /// Return periods per year of the annual figures (CAGR, volatility, Sharpe, Sortino, Calmar, alpha; the sweeps'
    /// PSR and DSR); `nil`: inferred from the data's spacing (`Annualization`: 252 daily, 52 weekly, 12 monthly, 4
    /// quarterly, 252 × the bars of a session intraday).
    public var periodsPerYear: Int?
    /// A malformed CSV row stops the run (`fail`) or is skipped and counted (`skip`); `auto`: skip in the bundled data
    /// sets (whose few published bars outside their own range PROVENANCE.md lists), fail in the user's files.
    public var badRows = "auto"

    /// Creates the defaults.
    public init() {}

    /// The schema of the section.
    public static var schema: ConfigSection<BacktestSettings> {
        ConfigSection(
            [
                .value(
                    "data", \.data, dataKind.optional(auto: "auto"),
                    summary: "bundled:NAME (sp500, sp500-unadjusted, stocks, stocks-unadjusted, stocks-1min, spy, "
                        + "spy-1min, spy-5min, benchmark, futures, fx), synthetic:N[:SEED[:1min|5min]] (N generated symbols, daily "
                        + "or a year of minute bars), a folder, a CSV file, "
                        + "sqlite:PATH (a bar store) or parquet:DIR (a catalogue: data import) (auto: "
                        + "bundled:sp500 for momentum, bundled:stocks for the performance allocator, else bundled:stocks "
                        + "with GOOG).", flag: true),
                .value(
                    "barSize", \.barSize, MarketDataSettings.barSizeKind.optional(auto: "auto"),
                    summary: "With sqlite:PATH or parquet:DIR data: the bar size to read (auto: the store's only one, else 1 day).",
                    flag: true),
                .value("start", \.start, ConfigKind.date.optional, summary: "First date, inclusive.", flag: true),
                .value("end", \.end, ConfigKind.date.optional, summary: "Last date, inclusive.", flag: true),
                .value(
                    "benchmark", \.benchmark, benchmarkKind.optional(auto: "auto"),
                    summary: "bundled (^GSPC), none or a price file (auto: bundled for daily data, none otherwise).",
                    flag: true),
                .value(
                    "limitFills", \.limitFills, .choice(["trades", "quotes"]),
                    summary: "Resting limits fill when a bar trades through them (trades), or only when the quote on "
                        + "their side, the bar's open or close across the simulator's 2 bp spread, reaches them "
                        + "(quotes: stricter, as the gateway simulator and IB)."),
                .value(
                    "fill", \.fill, .choice(["next-open", "close"]),
                    summary: "Market orders fill at the next bar's open or the signal bar's close.", flag: true),
                .value(
                    "commission", \.commission, commissionKind,
                    summary: "The commission model: IB's fixed or tiered US stock schedule, a percentage, or none. "
                        + "Backtests charge it; backtests and the bot alike size entries to leave room for it.",
                    flag: true),
                .value(
                    "slippageBps", \.slippageBps, .number(.init(0...10_000)),
                    summary: "Slippage in basis points of the fill price.", flag: true),
                .value(
                    "slippage", \.slippage, slippageKind.optional,
                    summary: "A slippage model instead of slippageBps: bps:N (fixed), impact:K (K × (quantity ÷ bar "
                        + "volume)² of the price), spread:BPS (crossing a quoted spread of BPS, a currency pair's one tick); none: slippageBps.", flag: true),
                .value(
                    "adaptiveSlippage", \.adaptiveSlippage, slippageKind.optional,
                    summary: "The slippage of adaptive entries (orders.entry: adaptive), which a backtest fills as "
                        + "market orders: bps:N, impact:K or spread:BPS; none: as other market orders."),
                .value(
                    "participation", \.participation, ConfigKind<Double>.number(.above(0, atMost: 1)).optional,
                    summary: "Partial fills: the largest share of a bar's volume an order may take; the rest rests "
                        + "(none: no cap).", flag: true),
                .value(
                    "fractionalShares", \.fractionalShares, .boolean,
                    summary: "Fills, partial ones too, and orders may be fractions of a share (IB's fractional "
                        + "trading); false: whole shares, as IB trades stocks (an order for a fraction is rejected)."),
                .value(
                    "latencyMs", \.latencyMs, .number(.init(0...86_400_000)),
                    summary: "Milliseconds between an order's submission and its becoming active.", flag: true),
                .value(
                    "session", \.session, .choice(["all", "regular"]),
                    summary: "all bars, or regular: only US regular-hours bars (09:30-16:00 New York) of intraday data.",
                    flag: true),
                .value(
                    "settlementDays", \.settlementDays, .integer(0...10),
                    summary: "Trading days (weekdays without the exchanges' holidays) until sale proceeds settle (T+N; 1 for US stocks), in backtests and runs alike "
                        + "(with risk.requireSettledCash, buys spend settled cash only).", flag: true),
                .value(
                    "futuresRollDays", \.futuresRollDays, .integer(0...30),
                    summary: "Business days before a futures contract's last trading day that a position leaves it for "
                        + "the next, in backtests and runs alike: a continuous future (ES continuous) rolls then, paying "
                        + "both legs (the bot sends them), and no contract month is entered from then on."),
                .value(
                    "futuresRollBy", \.futuresRollBy, .choice(["days", "volume"]),
                    summary: "When a continuous future leaves a contract month: days (futuresRollDays before its last "
                        + "trading day) or volume (on the trading day after the next month traded more contracts, at the "
                        + "latest on that day), in backtests and runs alike."),
                .value(
                    "futuresPrices", \.futuresPrices, .choice(["back-adjusted", "unadjusted"]),
                    summary: "A continuous future's prices: back-adjusted (each roll's gap taken out of the earlier bars, "
                        + "so P&L on it is the rolled position's) or unadjusted (as traded; at each roll the strategy's history moves "
                        + "to the new month's prices and a held position rolls at the two months' opens at the roll bar, as the bot's "
                        + "legs do; its trade ends there and a new one begins)."),
                .value(
                    "periodsPerYear", \.periodsPerYear, ConfigKind.integer(1...1_000_000).optional(auto: "auto"),
                    summary: "Return periods per year of the annual figures (CAGR, volatility, Sharpe, Sortino, "
                        + "Calmar, alpha, PSR/DSR) (auto: from the data's median spacing: 252 daily, 52 weekly, 12 "
                        + "monthly, 4 quarterly, 252 × the median bars per UTC day intraday; the summary states which).",
                    flag: true),
                .value(
                    "badRows", \.badRows, .choice(["auto", "fail", "skip"]),
                    summary: "A malformed CSV row stops the run (fail) or is skipped and counted (skip); auto: skip in "
                        + "bundled data (sp500 has 78 published bars outside their own range), fail in your files.",
                    flag: true),
            ],
            validate: { (settings, record, path) throws(ConfigError) in
                if let start = settings.start, let end = settings.end, end < start {
                    let key = path + ".end"
                    throw ConfigError("\(end) is before start \(start)", key: key, at: record.origins[key])
                }
                if settings.slippage != nil, settings.slippageBps > 0 {
                    let key = path + ".slippage"
                    throw ConfigError(
                        "set one of slippage and slippageBps (slippage: bps:\(ConfigFormat.number(settings.slippageBps)) "
                            + "says the same)", key: key, at: record.origins[key])
                }
            })
    }

    /// The commission model.
    public var commissionModel: CommissionModel {
        switch commission {
        case "ibkr-fixed": return .ibkrFixed(IBKRFixedSchedule())
        case "ibkr-tiered": return .ibkrTiered(IBKRTieredSchedule())
        default:
            if commission.hasPrefix("percent:"), let value = Double(commission.dropFirst("percent:".count)) {
                return .percentage(value)
            }
            return .none
        }
    }

    /// The slippage model the settings name (`slippage`, else `slippageBps`).
    public var slippageModel: SlippageModel {
        if let slippage, let model = SlippageModel(text: slippage) { return model }
        return slippageBps > 0 ? .fixedBasisPoints(slippageBps) : .none
    }

    /// What a malformed CSV row does: `badRows`, with `auto` skipping in bundled data (`data` `bundled:NAME` or auto,
    /// which is bundled) and failing in the user's files.
    public var badRowPolicy: BadRowPolicy {
        switch badRows {
        case "skip": return .skip
        case "fail": return .fail
        default: return data.map { $0.hasPrefix("bundled:") } ?? true ? .skip : .fail
        }
    }

    /// `session: regular`.
    public var regularHoursOnly: Bool { session == "regular" }

    static var slippageKind: ConfigKind<String> {
        let allowed = "bps:N | impact:K | spread:BPS (N, K, BPS ≥ 0)"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try ConfigKind<String>.text(node, key, expecting: allowed)
                guard SlippageModel(text: text) != nil else {
                    throw ConfigError("must be \(allowed), got '\(text)'", key: key, at: node.origin)
                }
                return text
            },
            format: ConfigFormat.string)
    }

    static var dataKind: ConfigKind<String> {
        ConfigKind(
            allowed: "bundled:NAME | synthetic:N[:SEED[:BAR]] | DIR | FILE | sqlite:PATH | parquet:DIR",
            read: { (node, key) throws(ConfigError) in
                let text = try ConfigKind<String>.text(node, key, expecting: "a data source")
                do throws(SyntheticArgumentError) {
                    if try SyntheticMarketConfig.fromDataArgument(text) != nil { return text }
                } catch {
                    throw ConfigError("\(error)", key: key, at: node.origin)
                }
                for (prefix, example) in [("sqlite:", "sqlite:bars.sqlite"), ("parquet:", "parquet:catalogue")]
                where text.hasPrefix(prefix) {
                    let path = String(text.dropFirst(prefix.count))
                    guard !path.isEmpty else { throw ConfigError("\(prefix) needs a path (\(example))", key: key, at: node.origin) }
                    return prefix + ConfigPaths.resolve(path, from: node.origin)
                }
                if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy(\.isLetter), colon != text.startIndex {
                    return text  // bundled:NAME and other named sources
                }
                return ConfigPaths.resolve(text, from: node.origin)
            },
            format: ConfigFormat.string)
    }

    static var benchmarkKind: ConfigKind<String> {
        ConfigKind(
            allowed: "bundled | none | FILE",
            read: { (node, key) throws(ConfigError) in
                let text = try ConfigKind<String>.text(node, key, expecting: "bundled, none or a file")
                return ["bundled", "none"].contains(text) ? text : ConfigPaths.resolve(text, from: node.origin)
            },
            format: ConfigFormat.string)
    }

    static var commissionKind: ConfigKind<String> {
        let allowed = "none | ibkr-fixed | ibkr-tiered | percent:P (P from 0 to 100)"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try ConfigKind<String>.text(node, key, expecting: allowed)
                if ["none", "ibkr-fixed", "ibkr-tiered"].contains(text) { return text }
                if text.hasPrefix("percent:"), let value = Double(text.dropFirst("percent:".count)), (0...100).contains(value) {
                    return text
                }
                throw ConfigError(
                    "must be \(allowed), got '\(text)'"
                        + KeySuggestion.phrase(for: text, in: ["none", "ibkr-fixed", "ibkr-tiered"]),
                    key: key, at: node.origin)
            },
            format: { $0 })
    }
}

extension ConfigKind {
    /// The same kind, with a word (`auto`) meaning "not set: chosen from other settings".
    public func optional(auto word: String) -> ConfigKind<Value?> {
        let read = self.read, format = self.format
        return ConfigKind<Value?>(
            allowed: "\(allowed), or \(word)",
            read: { (node, key) throws(ConfigError) in
                if node.isNull || node.scalar?.lowercased() == word { return nil }
                return try read(node, key)
            },
            format: { $0.map(format) ?? word })
    }
}
