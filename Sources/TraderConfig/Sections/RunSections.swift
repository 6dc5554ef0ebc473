import LiveSession
import TradingEngine
import TradingModel

/// `health:` the event loop's watchdog and the check of the positions against the broker's.
public struct HealthSettings: Hashable, Sendable {
    /// No input taken by the event loop for this long raises a critical ALERT (zero: off).
    public var stuckLoopTimeout: Duration = .seconds(30)
    /// How often a running bot compares its positions with the broker's (`nil`: only after a reconnect).
    public var positionCheck: Duration? = .seconds(300)
    /// What a confirmed difference does: `pause` new orders until they agree, or `alert` only.
    public var positionMismatch = "pause"

    /// Creates the defaults.
    public init() {}

    /// The schema of the section.
    public static var schema: ConfigSection<HealthSettings> {
        ConfigSection([
            .value(
                "stuckLoopTimeout", \.stuckLoopTimeout,
                // The idle loop ticks every second: a shorter timeout would alert on a quiet loop.
                ConfigKind.duration(.zero ... .seconds(86_400)).checked { value in
                    value == .zero || value >= .seconds(2) ? nil : "must be 0s (off) or at least 2s (the idle loop ticks every second)"
                },
                summary: "No input taken by the event loop for this long raises a critical ALERT (0s: off)."),
            .value(
                "positionCheck", \.positionCheck, ConfigKind.duration(.seconds(10) ... .seconds(86_400)).optional,
                summary: "run: compare the bot's positions with the broker's this often, and after every reconnect "
                    + "(none: after reconnects only). A difference seen twice, 15 s apart, is an ALERT."),
            .value(
                "positionMismatch", \.positionMismatch, .choice(["pause", "alert"]),
                summary: "run: a confirmed position difference stops new orders until the positions agree (pause; "
                    + "working orders stay), or is an ALERT only (alert)."),
        ])
    }
}

/// `orders:` how the bot's orders are sent and what happens to them at exit and restart.
public struct OrderSettings: Hashable, Sendable {
    /// A time limit for orders the strategy sends without one (`nil`: none).
    public var timeout: Duration?
    /// Orders may fill outside regular trading hours.
    public var outsideRth = false
    /// Orders may also work in IB's overnight session for US stocks (`includeOvernight`).
    public var includeOvernight = false
    /// Cancel the open orders at exit (else they keep working at the broker).
    public var cancelOnExit = true
    /// At exit, cancel every order and close every position at market (else positions stay with their protection).
    public var flattenOnExit = false
    /// An intent journaled but never sent is resent at restart only when younger than this (zero: never).
    public var resendMaxAge: Duration = .seconds(300)
    /// Our orders at the broker that no journal intent knows: `adopt` or `cancel`.
    public var unknownOrders = "adopt"
    /// `ibtrader cancel` may cancel an order another API client placed (TWS accepts it on the same login).
    public var cancelOtherClients = true
    /// At start, take every position the broker holds in the universe as the bot's (else only its own, per its
    /// journal; the rest is listed and never traded).
    public var adoptExternalPositions = false
    /// How entries are sent: `market`, `limit`, `adaptive` or `midprice`.
    public var entry = "market"
    /// A limit entry's distance from `limitFrom` (positive pays up).
    public var limitOffset = ExecutionStyle.PriceOffset.ticks(0)
    /// The price a limit entry (or a midprice entry's cap) is set from: `last`, `bid` or `ask`.
    public var limitFrom = "last"
    /// A midprice entry's cap: its distance from `limitFrom` (positive pays up); `nil`: no cap.
    public var midpriceCap: ExecutionStyle.PriceOffset?
    /// A stop entry's distance beyond the last close, in the trade's direction.
    public var stopOffset = ExecutionStyle.PriceOffset.ticks(1)
    /// A trailing stop entry's trail: ticks (an amount) or bps (a percent).
    public var trailOffset = ExecutionStyle.PriceOffset.basisPoints(50)
    /// The Adaptive algo's priority: `urgent`, `normal` or `patient`.
    public var adaptivePriority = "normal"
    /// What an entry unfilled at its timeout becomes: `cancel`, `reprice` or `market`.
    public var onTimeout = "cancel"
    /// Reprices before `afterReprices`.
    public var reprices = 2
    /// How far each reprice moves the limit.
    public var repriceStep = ExecutionStyle.PriceOffset.ticks(1)
    /// What an entry still unfilled after its reprices becomes: `cancel` or `market`.
    public var afterReprices = "cancel"
    /// Entries' time in force: `gtc`, `day`, `ioc` or `gtd`.
    public var entryTimeInForce = "gtc"
    /// A GTD entry's lifetime.
    public var goodFor: Duration?

    /// Creates the defaults.
    public init() {}

    /// The execution style these settings describe (`nil`: the strategy's orders as they are, no time limit).
    public var executionStyle: ExecutionStyle? {
        var style = ExecutionStyle()
        switch entry {
        case "limit": style.entry = .limit(offset: limitOffset, from: ExecutionStyle.PriceReference(rawValue: limitFrom) ?? .last)
        case "adaptive": style.entry = .adaptive(AdaptivePriority(name: adaptivePriority) ?? .normal)
        case "stop": style.entry = .stop(offset: stopOffset)
        case "trailing": style.entry = .trailing(trail: trailOffset)
        case "midprice":
            style.entry = .midprice(
                cap: midpriceCap, from: midpriceCap == nil ? nil : ExecutionStyle.PriceReference(rawValue: limitFrom) ?? .last)
        default: style.entry = .market
        }
        style.timeout = timeout.map { TimeSpan(nanoseconds: $0.nanosecondsValue) }
        style.onTimeout = ExecutionStyle.TimeoutAction(rawValue: onTimeout) ?? .cancel
        if style.onTimeout == .reprice {
            style.reprices = reprices
            style.repriceStep = repriceStep
            style.afterReprices = ExecutionStyle.TimeoutAction(rawValue: afterReprices) ?? .cancel
        }
        if entryTimeInForce != "gtc" { style.timeInForce = TimeInForce(rawValue: entryTimeInForce.uppercased()) }
        style.goodFor = goodFor.map { TimeSpan(nanoseconds: $0.nanosecondsValue) }
        return style == ExecutionStyle() ? nil : style
    }

    /// The schema of the section.
    public static var schema: ConfigSection<OrderSettings> {
        ConfigSection([
            .value(
                "timeout", \.timeout, ConfigKind.duration(.seconds(1) ... .seconds(30 * 86_400)).optional,
                summary: "Cancel an order the strategy sent without a time limit after this long (none: never)."),
            .value("outsideRth", \.outsideRth, .boolean, summary: "Orders may fill outside regular trading hours."),
            .value(
                "includeOvernight", \.includeOvernight, .boolean,
                summary: "Orders may also work in IB's overnight session for US stocks (SMART orders; TWS API server "
                    + "version 189 or later, checked when the bot connects)."),
            .value(
                "cancelOnExit", \.cancelOnExit, .boolean,
                summary: "Cancel the open orders when the run ends; the stops and take-profits of open positions stay "
                    + "at the broker, to protect them while no bot runs."),
            .value(
                "flattenOnExit", \.flattenOnExit, .boolean,
                summary: "When the run ends (a signal, --duration, a failed feed), cancel every order and close every "
                    + "position at market instead of leaving the positions protected at the broker (not while the "
                    + "journal fails: the closes could not be journaled, so the protection stays)."),
            .value(
                "resendMaxAge", \.resendMaxAge, .duration(.zero ... .seconds(7 * 86_400)),
                summary: "At restart, an order journaled but never sent is sent only when younger than this (0s: never)."),
            .value(
                "unknownOrders", \.unknownOrders, .choice(["adopt", "cancel"]),
                summary: "At start, orders of ours at the broker that the journal does not know are adopted or cancelled."),
            .value(
                "cancelOtherClients", \.cancelOtherClients, .boolean,
                summary: "ibtrader cancel: an order placed by another API client of the login (or in TWS) may be "
                    + "cancelled by its id or orderRef, as TWS allows from client 0 and from other clients (true); false "
                    + "refuses it, naming the client that placed it. A modify stays the placing client's alone."),
            .value(
                "adoptExternalPositions", \.adoptExternalPositions, .boolean,
                summary: "run: at start, take every position the broker holds in the universe as the bot's (true), or "
                    + "only those its journal shows it opened (false: another bot's or a manual position is listed and "
                    + "never traded)."),
            .value(
                "entry", \.entry, .choice(["market", "limit", "stop", "trailing", "adaptive", "midprice"]),
                summary: "How entries (orders that open or add to a position) are sent: market, limit (limitOffset from "
                    + "limitFrom), stop (stopOffset beyond the last close: a breakout), trailing (a trailing stop by "
                    + "trailOffset), adaptive (IB's Adaptive algo) or midprice (IB's MIDPRICE, at the quote's midpoint). "
                    + "Exits stay market orders. Backtests and runs alike.", flag: true),
            .value(
                "limitOffset", \.limitOffset, Self.offsetKind(allowNegative: true),
                summary: "A limit entry's distance from limitFrom, in ticks or bps; positive pays up (a buy above, a "
                    + "sell below), negative waits for a better price.", flag: true),
            .value(
                "stopOffset", \.stopOffset, Self.offsetKind(allowNegative: false),
                summary: "entry: stop: how far beyond the last close the entry's stop is, in the trade's direction (a "
                    + "buy above, a sell below), in ticks or bps.", flag: true),
            .value(
                "trailOffset", \.trailOffset, Self.offsetKind(allowNegative: false),
                summary: "entry: trailing: the trailing stop's trail, in ticks (an amount) or bps (a percent).", flag: true),
            .value(
                "limitFrom", \.limitFrom, .choice(["last", "bid", "ask"]),
                summary: "The price a limit entry (or a midprice entry's cap) is set from: the last close, or the "
                    + "quote's bid or ask (a backtest on bars has no quotes and uses the last close)."),
            .value(
                "midpriceCap", \.midpriceCap, Self.offsetKind(allowNegative: true).optional,
                summary: "entry: midprice: the most a buy pays (the least a sell takes), as a distance from limitFrom "
                    + "in ticks or bps; positive pays up (none: no cap)."),
            .value(
                "adaptivePriority", \.adaptivePriority, .choice(["urgent", "normal", "patient"]),
                summary: "The Adaptive algo's priority (entry: adaptive)."),
            .value(
                "onTimeout", \.onTimeout, .choice(["cancel", "reprice", "market"]),
                summary: "What an entry not filled within timeout becomes: cancelled, repriced (limit entries) or "
                    + "cancelled and its rest sent at market."),
            .value(
                "reprices", \.reprices, .integer(1...20),
                summary: "With onTimeout: reprice, how many times the limit is moved, one timeout apart."),
            .value(
                "repriceStep", \.repriceStep, Self.offsetKind(allowNegative: false),
                summary: "How far each reprice moves the limit towards paying up, in ticks or bps."),
            .value(
                "afterReprices", \.afterReprices, .choice(["cancel", "market"]),
                summary: "What an entry still unfilled one timeout after its last reprice becomes."),
            .value(
                "entryTimeInForce", \.entryTimeInForce, .choice(["gtc", "day", "ioc", "gtd"]),
                summary: "Entries' time in force (gtd: for goodFor)."),
            .value(
                "goodFor", \.goodFor, ConfigKind.duration(.seconds(1) ... .seconds(365 * 86_400)).optional,
                summary: "A GTD entry's lifetime (entryTimeInForce: gtd)."),
        ], validate: { (orders, record, path) throws(ConfigError) in try orders.check(record: record, path: path) })
    }

    /// A distance in ticks or basis points: `2 ticks`, `-1 tick`, `5 bps`.
    static func offsetKind(allowNegative: Bool) -> ConfigKind<ExecutionStyle.PriceOffset> {
        let allowed = allowNegative
            ? "N ticks or N bps (e.g. 2 ticks, -1 tick, 5 bps)" : "N ticks or N bps above zero (e.g. 1 tick, 2 bps)"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                let text = try ConfigKind<String>.text(node, key, expecting: allowed)
                guard let offset = ExecutionStyle.PriceOffset(text: text), allowNegative || offset.isPositive else {
                    throw ConfigError("must be \(allowed), got '\(text)'", key: key, at: node.origin)
                }
                return offset
            },
            format: { $0.description })
    }

    /// Keys that only mean something with another one (a value other than its default is an error without it, so
    /// a config that `config show` printed whole still loads).
    private func check(record: ConfigRecord, path: String) throws(ConfigError) {
        func key(_ name: String) -> String { ConfigSection<Self>.join(path, name) }
        func fail(_ name: String, _ message: String) -> ConfigError {
            ConfigError(message, key: key(name), at: record.origins[key(name)])
        }
        let defaults = OrderSettings()
        if entry != "limit" {
            if limitOffset != defaults.limitOffset { throw fail("limitOffset", "applies only with \(key("entry")): limit") }
            if limitFrom != defaults.limitFrom, entry != "midprice" || midpriceCap == nil {
                throw fail("limitFrom", "applies only with \(key("entry")): limit, or midprice with \(key("midpriceCap"))")
            }
            if onTimeout == "reprice" { throw fail("onTimeout", "reprice moves a limit: it needs \(key("entry")): limit") }
        }
        if entry != "midprice", midpriceCap != nil {
            throw fail("midpriceCap", "applies only with \(key("entry")): midprice")
        }
        if entry != "stop", stopOffset != defaults.stopOffset { throw fail("stopOffset", "applies only with \(key("entry")): stop") }
        if entry != "trailing", trailOffset != defaults.trailOffset {
            throw fail("trailOffset", "applies only with \(key("entry")): trailing")
        }
        if entry != "adaptive", adaptivePriority != defaults.adaptivePriority {
            throw fail("adaptivePriority", "applies only with \(key("entry")): adaptive")
        }
        if onTimeout != "cancel", timeout == nil {
            throw fail("onTimeout", "needs \(key("timeout")) as well (how long an entry may wait)")
        }
        if onTimeout != "reprice" {
            let given = [
                ("reprices", reprices != defaults.reprices), ("repriceStep", repriceStep != defaults.repriceStep),
                ("afterReprices", afterReprices != defaults.afterReprices),
            ]
            for (name, isSet) in given where isSet { throw fail(name, "applies only with \(key("onTimeout")): reprice") }
        }
        if (entryTimeInForce == "gtd") != (goodFor != nil) {
            throw entryTimeInForce == "gtd"
                ? fail("entryTimeInForce", "gtd needs \(key("goodFor")) (how long an entry stays good)")
                : fail("goodFor", "applies only with \(key("entryTimeInForce")): gtd")
        }
        if entryTimeInForce == "ioc", timeout != nil, onTimeout != "cancel" {
            throw fail("onTimeout", "an IOC entry is cancelled at once when it does not fill: it never waits for a timeout")
        }
    }
}

/// `logging:` the run's log.
public struct LoggingSettings: Hashable, Sendable {
    /// The lowest level written.
    public var level = "info"
    /// A file that receives the log besides standard error (`nil`: none).
    public var file: String?
    /// The file's size at which it is rotated, in bytes.
    public var maxSize = 10_000_000
    /// Rotated files kept (`<file>.1` the newest … `<file>.N`).
    public var keep = 5
    /// Time between portfolio summaries in the log.
    public var summaryInterval: Duration = .seconds(30)

    /// Creates the defaults.
    public init() {}

    /// The levels, from the most verbose.
    public static let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// The schema of the section.
    public static var schema: ConfigSection<LoggingSettings> {
        ConfigSection([
            .value("level", \.level, .choice(levels), summary: "The lowest level logged."),
            .value(
                "file", \.file, ConfigKind.path.optional,
                summary: "Also write the log to this file (rotated at logging.maxSize; none: standard error only)."),
            .value(
                "maxSize", \.maxSize, .byteSize(10_000 ... 10_000_000_000),
                summary: "The log file's size at which it is renamed with .1 added to its name and a new one is started."),
            .value(
                "keep", \.keep, .integer(1 ... 100),
                summary: "Rotated log files kept (.1 the newest, then .2 and on); older ones are deleted."),
            .value(
                "summaryInterval", \.summaryInterval, .duration(.seconds(1) ... .seconds(86_400)),
                summary: "Time between portfolio summaries in the log."),
        ])
    }
}

/// `journal:` the order journal (SQLite) that makes restarts safe. `journal: none` runs without one, which also
/// needs `--no-journal` on the command line and is refused for live accounts.
public struct JournalSettings: Hashable, Sendable {
    /// The journal file; `nil` only with `journal: none`.
    public var path: String? = "journal.sqlite"
    /// `normal` (crash-safe, on disk within a second) or `full` (an fsync per commit).
    public var durability = "normal"

    /// Creates the defaults.
    public init() {}

    /// Whether the journal is switched off (`journal: none`).
    public var isDisabled: Bool { path == nil }

    /// The schema of the section.
    public static var schema: ConfigSection<JournalSettings> {
        ConfigSection([
            .value(
                "path", \.path, ConfigKind<String?>(
                    allowed: "a file path (relative to the config file's folder)",
                    read: { (node, key) throws(ConfigError) in
                        if node.isNull || node.scalar?.trimmingSpaces.isEmpty == true {
                            throw ConfigError(
                                "empty; name the journal file, or write 'journal: none' (and pass --no-journal) to run "
                                    + "without one", key: key, at: node.origin)
                        }
                        return try ConfigKind.path.read(node, key)
                    },
                    format: { $0.map(ConfigFormat.string) ?? "none" }),
                summary: "The journal file (relative to the config file's folder).", flag: false),
            .value(
                "durability", \.durability, .choice(["normal", "full"]),
                summary: "normal: crash-safe at once, on disk within a second; full: an fsync per commit (power-loss safe)."),
        ])
    }

    /// The section as a field, taking `journal: none` and `journal: PATH` as short forms.
    static var field: ConfigField<TraderConfiguration> {
        let section = ConfigField<TraderConfiguration>.section(
            "journal", \.journal, schema, summary: "The order journal (SQLite), or none.")
        return ConfigField(
            key: "journal",
            decode: { (node, root, path, record) throws(ConfigError) in
                if let text = node.scalar?.trimmingSpaces {
                    if text.isEmpty {
                        throw ConfigError(
                            "empty; name the journal file, or write 'journal: none' (and pass --no-journal) to run "
                                + "without one", key: path + ".path", at: node.origin)
                    }
                    if text.lowercased() == "none" {
                        root.journal.path = nil
                        record.origins[path + ".path"] = node.origin
                        return
                    }
                    root.journal.path = try ConfigKind.path.read(node, path + ".path")
                    record.origins[path + ".path"] = node.origin
                    return
                }
                try section.decode(node, &root, path, &record)
            },
            show: section.show, describe: section.describe)
    }
}

/// `dashboard:` the web dashboard, metrics, health and controls of a running bot.
public struct DashboardConfig: Hashable, Sendable {
    /// The port (`nil`: no dashboard).
    public var port: Int? = 8420
    /// The address to listen on; anything but loopback needs a token for every request.
    public var bind = "127.0.0.1"
    /// The controls' bearer token (`nil`: `IBTRADER_DASHBOARD_TOKEN`, else a file made beside the journal).
    public var token: String?

    /// Creates the defaults.
    public init() {}

    /// The schema of the section.
    public static var schema: ConfigSection<DashboardConfig> {
        ConfigSection(
            [
                .value(
                    "port", \.port, ConfigKind.integer(1...65_535).optional,
                    summary: "run: serve the dashboard, /metrics and /health on this port (none: no dashboard). "
                        + "Another bot on the same port: this one runs without it, with an ALERT."),
                .value(
                    "bind", \.bind, .host,
                    summary: "The dashboard's address: 127.0.0.1 (this machine only) unless you need it elsewhere; any "
                        + "other address needs the token for every request and prints a warning."),
                .value(
                    "token", \.token, ConfigKind.text.optional.checked { value in
                        guard let value else { return nil }
                        return value.count >= 16 ? nil : "must be at least 16 characters"
                    },
                    summary: "The bearer token of the controls (pause, resume, kill, flatten). None: "
                        + "IBTRADER_DASHBOARD_TOKEN, else one generated into dashboard.token beside the journal.",
                    secret: true),
            ])
    }
}

/// `alerts:` where a running bot's alerts go (webhook, Telegram, SMS), and how many.
public struct AlertSettings: Hashable, Sendable {
    /// A URL that receives each alert as a JSON POST (`nil`: none).
    public var webhook: String?
    /// `json` (every field), `slack` or `discord`.
    public var webhookFormat = "json"
    /// A Telegram bot's token and the chats it writes to.
    public var telegramToken: String?
    public var telegramChats: [String] = []
    /// Telegram's Bot API (another address only for tests or a proxy).
    public var telegramApi = "https://api.telegram.org"
    /// An SMS gateway taking Twilio's form (To, From, Body; basic authentication).
    public var smsUrl: String?
    public var smsUser: String?
    public var smsPassword: String?
    public var smsFrom: String?
    public var smsTo: [String] = []
    /// An SMTP relay for e-mail alerts.
    public var smtpHost: String?
    public var smtpPort = 587
    public var smtpSecurity = "starttls"
    public var smtpUser: String?
    public var smtpPassword: String?
    public var emailFrom: String?
    public var emailTo: [String] = []
    /// The least severe alert sent (resolutions of sent alerts always go).
    public var minimumSeverity = "warning"
    /// Alerts of one kind within this of the last one sent are held back and counted.
    public var cooldown: Duration = .seconds(300)
    /// The bot's name in messages (`nil`: `ibtrader` and the account).
    public var name: String?
    /// Channels by alert kind, severity or `default` (empty: every alert to every channel).
    public var routes: [String: [String]] = [:]
    /// When the daily report is made, `HH:MM` UTC (`nil`: never).
    public var dailyReportAt: String? = "21:15"

    /// `dailyReportAt` in seconds after midnight UTC.
    public var dailyReportSecond: Int? {
        guard let text = dailyReportAt else { return nil }
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2 else { return nil }
        return parts[0] * 3600 + parts[1] * 60
    }

    /// Creates the defaults.
    public init() {}

    static func url(_ value: String?) -> String? {
        guard let value else { return nil }
        guard let scheme = value.split(separator: ":").first?.lowercased(), scheme == "http" || scheme == "https",
            value.contains("://")
        else { return "must be an http:// or https:// URL" }
        return nil
    }

    /// The schema of the section.
    public static var schema: ConfigSection<AlertSettings> {
        let list = ConfigKind<[String]>.list(of: .text, allowed: "a list, e.g. [\"123456789\"]", distinct: true)
        return ConfigSection([
            .value(
                "webhook", \.webhook, ConfigKind.text.optional.checked(url),
                summary: "POST each alert as JSON to this URL (none: no webhook); Slack's and Discord's hold their token.",
                secret: true),
            .value(
                "webhookFormat", \.webhookFormat, .choice(["json", "slack", "discord"]),
                summary: "json: {bot, kind, severity, text, time, resolves}; slack: {text}; discord: {content}."),
            .value(
                "telegramToken", \.telegramToken, ConfigKind.text.optional,
                summary: "A Telegram bot token (from @BotFather); with telegramChats (none: no Telegram).", secret: true),
            .value("telegramChats", \.telegramChats, list, summary: "The chat ids the bot writes to; no other chat gets anything."),
            .value(
                "telegramApi", \.telegramApi, ConfigKind.text.checked(url),
                summary: "Telegram's Bot API address (another one only for a proxy or a test)."),
            .value(
                "smsUrl", \.smsUrl, ConfigKind.text.optional.checked(url),
                summary: "An SMS gateway taking Twilio's form post, e.g. "
                    + "https://api.twilio.com/2010-04-01/Accounts/SID/Messages.json (none: no SMS)."),
            .value("smsUser", \.smsUser, ConfigKind.text.optional, summary: "The SMS gateway's user (Twilio: the account SID)."),
            .value(
                "smsPassword", \.smsPassword, ConfigKind.text.optional,
                summary: "The SMS gateway's password (Twilio: the auth token); prefer IBTRADER_ALERTS_SMSPASSWORD.",
                secret: true),
            .value("smsFrom", \.smsFrom, ConfigKind.text.optional, summary: "The sending number."),
            .value("smsTo", \.smsTo, list, summary: "The numbers that get SMS."),
            .value(
                "smtpHost", \.smtpHost, ConfigKind.text.optional,
                summary: "An SMTP relay for e-mail alerts, e.g. smtp.gmail.com (none: no e-mail)."),
            .value("smtpPort", \.smtpPort, .integer(1...65_535), summary: "The relay's port: 587 with starttls, 465 with tls."),
            .value(
                "smtpSecurity", \.smtpSecurity, .choice(["starttls", "tls", "none"]),
                summary: "starttls (then TLS before anything is sent), tls (TLS from the start), none (a local relay only)."),
            .value("smtpUser", \.smtpUser, ConfigKind.text.optional, summary: "The relay's user (none: no AUTH)."),
            .value(
                "smtpPassword", \.smtpPassword, ConfigKind.text.optional,
                summary: "The relay's password (an app password); prefer IBTRADER_ALERTS_SMTPPASSWORD.", secret: true),
            .value("emailFrom", \.emailFrom, ConfigKind.text.optional, summary: "The sender's address."),
            .value("emailTo", \.emailTo, list, summary: "The addresses that get e-mail alerts."),
            .value(
                "minimumSeverity", \.minimumSeverity, .choice(["info", "warning", "critical"]),
                summary: "The least severe alert sent: critical (ALERT lines), warning (lost connection, kill switch, "
                    + "flatten, the bot stopped), info (resume)."),
            .value(
                "cooldown", \.cooldown, .duration(.seconds(0) ... .seconds(86_400)),
                summary: "Alerts of one kind within this of the last one sent are held back and counted in the next."),
            .value("name", \.name, ConfigKind.text.optional, summary: "The bot's name in messages (none: ibtrader and the account)."),
            .value(
                "routes", \.routes, routesKind,
                summary: "Which channels get which alerts: {fill: [telegram], critical: [sms, email], default: [webhook]}. "
                    + "An alert takes its kind's route, else its severity's, else default's, else every channel; a "
                    + "kind named here is sent whatever its severity (fill is sent only so)."),
            .value(
                "dailyReportAt", \.dailyReportAt, ConfigKind.text.optional.checked(Self.timeOfDay),
                summary: "run: when the day's report is made from the journal, HH:MM UTC (after the US close by "
                    + "default): written beside the journal as daily-DATE.html and sent as a daily alert (none: never)."),
        ])
    }

    static func timeOfDay(_ value: String?) -> String? {
        guard let value else { return nil }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let h = parts[0], let m = parts[1], (0...23).contains(h), (0...59).contains(m) else {
            return "must be a time of day HH:MM (UTC), e.g. 21:15, got '\(value)'"
        }
        return nil
    }

    /// `{KIND|SEVERITY|default: [CHANNEL, …]}`.
    static var routesKind: ConfigKind<[String: [String]]> {
        let keys = AlertRoutes.kinds + OperatorAlert.Severity.allCases.map(\.rawValue) + ["default"]
        let allowed = "a mapping of alert kinds, severities or default to lists of channels (\(AlertRoutes.channels.joined(separator: ", ")))"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                if node.isNull { return [:] }
                guard let entries = node.entries else {
                    throw ConfigError("expected \(allowed), got \(node.shapeDescription)", key: key, at: node.origin)
                }
                var routes: [String: [String]] = [:]
                for entry in entries {
                    let entryKey = key + "." + entry.key
                    guard keys.contains(entry.key) else {
                        throw ConfigError(
                            "'\(entry.key)' is not an alert kind, a severity or default; use one of \(keys.joined(separator: ", "))"
                                + KeySuggestion.phrase(for: entry.key, in: keys),
                            key: entryKey, at: entry.value.origin)
                    }
                    let channels = try ConfigKind<[String]>.list(
                        of: .text, allowed: "a list of channels", distinct: true
                    ).read(entry.value, entryKey)
                    for channel in channels where !AlertRoutes.channels.contains(channel) {
                        throw ConfigError(
                            "'\(channel)' is not a channel; use \(AlertRoutes.channels.joined(separator: ", "))"
                                + KeySuggestion.phrase(for: channel, in: AlertRoutes.channels),
                            key: entryKey, at: entry.value.origin)
                    }
                    routes[entry.key] = channels
                }
                return routes
            },
            format: { routes in
                "{" + routes.keys.sorted().map { "\($0): [\(routes[$0]?.joined(separator: ", ") ?? "")]" }
                    .joined(separator: ", ") + "}"
            })
    }
}
