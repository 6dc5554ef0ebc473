import Storage
import TradingModel

/// `data:` the live run's market data: the warm-up history, the data type and the outage back-fill.
public struct MarketDataSettings: Hashable, Sendable {
    /// The strategy's bar size, as TWS spells it: live, built from TWS's 5-second real-time bars; the warm-up and
    /// the back-fill fetch it.
    public var barSize = "5 secs"
    /// How much history warms the indicators up, as IB spells it (`3600 S`).
    public var warmup = "3600 S"
    /// `realtime`, `delayed`, `frozen` or `delayed-frozen`.
    public var marketDataType = "realtime"
    /// Fall back to delayed data when real-time data is not subscribed.
    public var delayedFallback = true
    /// Back-fill the bars missed during an outage.
    public var backfill = true
    /// The longest gap back-filled.
    public var maxBackfill: Duration = .seconds(21_600)
    /// A symbol with no 5-second bar for this long in its regular hours has a dead feed: ALERT, resubscribe,
    /// back-fill (`.zero`: off).
    public var deadFeedAfter: Duration = .seconds(120)
    /// Quotes beside the bars: `auto` (as the strategy asks), `on` or `off`.
    public var quotes = "auto"
    /// Watch each symbol's trading-halt status (TWS's HALTED tick, one reqMktData line per symbol): a halted
    /// symbol's entries are refused and its exits held until trading resumes.
    public var watchHalts = true
    /// A bar store (`ibtrader data download --store`) the warm-up and back-fill read first: IB is asked only for the
    /// bars after the store's last, and those are added to it (`nil`: every bar from IB).
    public var store: String?

    /// Creates the defaults.
    public init() {}

    /// The market data types.
    public static let marketDataTypes = ["realtime", "delayed", "frozen", "delayed-frozen"]

    /// The schema of the section.
    public static var schema: ConfigSection<MarketDataSettings> {
        ConfigSection(
            [
                .value(
                    "barSize", \.barSize, barSizeKind,
                    summary: "The strategy's bar: built live from TWS's 5-second real-time bars; the warm-up and back-fill fetch it."),
                .value("warmup", \.warmup, warmupKind, summary: "How much history warms the indicators up (0s: none)."),
                .value(
                    "marketDataType", \.marketDataType, .choice(marketDataTypes),
                    summary: "The market data type asked of TWS."),
                .value(
                    "delayedFallback", \.delayedFallback, .boolean,
                    summary: "Fall back to delayed data when real-time data is not subscribed."),
                .value("backfill", \.backfill, .boolean, summary: "Back-fill the bars missed during an outage."),
                .value(
                    "maxBackfill", \.maxBackfill, .duration(.seconds(1) ... .seconds(30 * 86_400)),
                    summary: "The longest gap back-filled after an outage."),
                .value(
                    "deadFeedAfter", \.deadFeedAfter,
                    ConfigKind.duration(.zero ... .seconds(86_400)).checked { value in
                        value == .zero || value >= .seconds(15)
                            ? nil : "must be 0s (off) or at least 15s (three 5-second bars)"
                    },
                    summary: "A symbol with no bar for this long in its regular hours has a dead feed (IB's subscriptions can "
                        + "go silent after a farm flap or the nightly reset): an ALERT, a resubscription and a back-fill "
                        + "from its last bar. Raise it for thinly traded symbols; 0s: off."),
                .value(
                    "quotes", \.quotes, quotesKind,
                    summary: "Quotes (reqMktData) beside the bars: auto (as the strategy asks), on or off."),
                .value(
                    "store", \.store, ConfigKind.path.optional,
                    summary: "run: a bar store (ibtrader data download --store) the warm-up reads first; IB is asked only "
                        + "for the bars after its last one, and those are added to it (TRADES bars, the same regular-hours "
                        + "choice as orders.outsideRth). None: every bar from IB."),
                .value(
                    "watchHalts", \.watchHalts, .boolean,
                    summary: "Watch trading halts (one reqMktData line per symbol): a halted symbol's entries are refused, its exits held until it resumes."),
            ],
            validate: { (settings, record, path) throws(ConfigError) in
                let key = ConfigSection<Self>.join(path, "warmup")
                if let problem = IBHistoricalLimits.problem(duration: settings.warmup, barSize: settings.barSize) {
                    throw ConfigError(problem, key: key, at: record.origins[key] ?? record.origins[path + ".barSize"])
                }
            })
    }

    /// A bar size TWS accepts for historical data.
    static var barSizeKind: ConfigKind<String> {
        let sizes = BarSize.supported.map(\.text)
        let allowed = "a TWS bar size: " + sizes.joined(separator: ", ")
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try ConfigKind<String>.text(node, key, expecting: allowed)
                guard let size = BarSize(text) else {
                    throw ConfigError("'\(text)' is not a bar size TWS accepts (\(sizes.joined(separator: ", ")))", key: key, at: node.origin)
                }
                return size.text
            },
            format: ConfigFormat.string)
    }

    /// A warm-up span, read as IB's `N S|D|W|M|Y` or as a human duration and kept in IB's spelling.
    static var warmupKind: ConfigKind<String> {
        let allowed = "a duration (1h, 2d, 3600s) or IB's form (3600 S, 2 D, 1 W, 1 M, 1 Y); at most 1 Y"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try ConfigKind<String>.text(node, key, expecting: allowed)
                if text.uppercased() == text, let ib = HistoricalDuration(text) {
                    guard ib.span.nanoseconds <= 365 * 86_400 * 1_000_000_000 else {
                        throw ConfigError("must be at most 1 Y, got '\(text)'", key: key, at: node.origin)
                    }
                    return ib.text
                }
                guard let duration = HumanDuration.parse(text) else {
                    throw ConfigError("must be \(allowed), got '\(text)'", key: key, at: node.origin)
                }
                guard let ib = IBHistoricalLimits.ibDuration(duration) else {
                    throw ConfigError("must be at most 1 Y, got '\(text)'", key: key, at: node.origin)
                }
                return ib
            },
            format: ConfigFormat.string)
    }

    /// `auto`, `on` or `off` (YAML's bare booleans read as on/off).
    static var quotesKind: ConfigKind<String> {
        ConfigKind(
            allowed: "auto | on | off",
            read: { (node, key) throws(ConfigError) in
                let text = try ConfigKind<String>.text(node, key, expecting: "auto, on or off").lowercased()
                let word = ["true": "on", "yes": "on", "false": "off", "no": "off"][text] ?? text
                guard ["auto", "on", "off"].contains(word) else {
                    throw ConfigError("must be auto, on or off, got '\(text)'", key: key, at: node.origin)
                }
                return word
            },
            format: { $0 })
    }
}

/// The combinations of history span and bar size that IB serves in one request (IB's "historical data
/// limitations": a span needs bars at least this large), so a warm-up TWS would refuse is an error at start.
public enum IBHistoricalLimits {
    /// For each largest span in seconds, the smallest bar size in seconds.
    static let smallestBar: [(span: Int64, bar: Int64)] = [
        (1800, 1), (3600, 5), (14_400, 10), (28_800, 30), (86_400, 60), (2 * 86_400, 120), (7 * 86_400, 180),
        (31 * 86_400, 1800), (366 * 86_400, 86_400),
    ]

    /// Why TWS would refuse a warm-up of `duration` in bars of `barSize`, or `nil` when it would serve it.
    public static func problem(duration: String, barSize: String) -> String? {
        guard let span = HistoricalDuration(duration)?.span, let bar = BarSize(barSize) else { return nil }
        let seconds = span.nanoseconds / 1_000_000_000
        if seconds == 0 { return nil }
        if duration.hasSuffix(" S"), seconds > 86_400 {
            return "'\(duration)': IB takes at most 86400 S in seconds; write days (e.g. 2 D)"
        }
        guard let limit = smallestBar.first(where: { seconds <= $0.span }) else {
            return "'\(duration)' is more history than one request serves; at most 1 Y"
        }
        guard bar.nominalSeconds >= limit.bar else {
            return "IB serves '\(duration)' of history only in bars of at least \(HumanDuration.format(.seconds(limit.bar))); "
                + "'\(barSize)' would be refused (shorten the warm-up or use larger bars)"
        }
        return nil
    }

    /// A duration in IB's spelling: seconds up to a day, whole days above (rounded up).
    public static func ibDuration(_ duration: Duration) -> String? {
        let seconds = Int64(duration.secondsValue.rounded(.up))
        if seconds <= 86_400 { return "\(seconds) S" }
        let days = (seconds + 86_399) / 86_400
        return days <= 365 ? "\(days) D" : nil
    }
}
