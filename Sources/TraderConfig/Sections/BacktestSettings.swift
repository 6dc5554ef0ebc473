import Simulation

/// `backtest:` the data and costs of `backtest`, `optimize` and `walkforward`.
public struct BacktestSettings: Hashable, Sendable {
    /// `bundled:NAME`, a folder, a CSV file or `sqlite:PATH` (`nil`: momentum on bundled:sp500, else
    /// bundled:stocks with GOOG).
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
    /// `none`, `ibkr-fixed`, `ibkr-tiered` or `percent:P`.
    public var commission = "none"
    /// Slippage in basis points of the fill price.
    public var slippageBps: Double = 0
    /// Days until sale proceeds settle (with `risk.requireSettledCash`).
    public var settlementDays = 0
    /// A malformed CSV row stops the run (`fail`) or is skipped and counted (`skip`).
    public var badRows = "fail"

    /// Creates the defaults.
    public init() {}

    /// The schema of the section.
    public static var schema: ConfigSection<BacktestSettings> {
        ConfigSection(
            [
                .value(
                    "data", \.data, dataKind.optional(auto: "auto"),
                    summary: "bundled:NAME (sp500, stocks, spy, benchmark), a folder, a CSV file or sqlite:PATH "
                        + "(auto: bundled:sp500 for momentum, else bundled:stocks with GOOG).", flag: true),
                .value(
                    "barSize", \.barSize, MarketDataSettings.barSizeKind.optional(auto: "auto"),
                    summary: "With sqlite:PATH data: the bar size to read (auto: the store's only one, else 1 day).",
                    flag: true),
                .value("start", \.start, ConfigKind.date.optional, summary: "First date, inclusive.", flag: true),
                .value("end", \.end, ConfigKind.date.optional, summary: "Last date, inclusive.", flag: true),
                .value(
                    "benchmark", \.benchmark, benchmarkKind.optional(auto: "auto"),
                    summary: "bundled (^GSPC), none or a price file (auto: bundled for daily data, none otherwise).",
                    flag: true),
                .value(
                    "fill", \.fill, .choice(["next-open", "close"]),
                    summary: "Market orders fill at the next bar's open or the signal bar's close.", flag: true),
                .value("commission", \.commission, commissionKind, summary: "The commission model.", flag: true),
                .value(
                    "slippageBps", \.slippageBps, .number(.init(0...10_000)),
                    summary: "Slippage in basis points of the fill price.", flag: true),
                .value(
                    "settlementDays", \.settlementDays, .integer(0...10),
                    summary: "Days until sale proceeds settle (T+N; with risk.requireSettledCash).", flag: true),
                .value(
                    "badRows", \.badRows, .choice(["fail", "skip"]),
                    summary: "A malformed CSV row stops the run (fail) or is skipped and counted (skip).", flag: true),
            ],
            validate: { (settings, record, path) throws(ConfigError) in
                if let start = settings.start, let end = settings.end, end < start {
                    let key = path + ".end"
                    throw ConfigError("\(end) is before start \(start)", key: key, at: record.origins[key])
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

    static var dataKind: ConfigKind<String> {
        ConfigKind(
            allowed: "bundled:NAME | DIR | FILE | sqlite:PATH",
            read: { (node, key) throws(ConfigError) in
                let text = try ConfigKind<String>.text(node, key, expecting: "a data source")
                if text.hasPrefix("sqlite:") {
                    let path = String(text.dropFirst("sqlite:".count))
                    guard !path.isEmpty else { throw ConfigError("sqlite: needs a path (sqlite:bars.sqlite)", key: key, at: node.origin) }
                    return "sqlite:" + ConfigPaths.resolve(path, from: node.origin)
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
