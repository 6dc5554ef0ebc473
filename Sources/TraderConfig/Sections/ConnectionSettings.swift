import LiveSession
import TWSProtocol

/// `connection:` where TWS / IB Gateway listens, the account, and how outages are ridden out.
public struct ConnectionSettings: Hashable, Sendable {
    /// TWS / IB Gateway host.
    public var host = "127.0.0.1"
    /// API port.
    public var port = 7497
    /// API client id of the bot.
    public var clientId = 7
    /// The account to trade (`nil`: the login's only account; a login with several needs one named).
    public var account: String?
    /// The highest TWS API server version advertised: 226 (the official client 10.51's maximum; binary message ids
    /// and protobuf from 201), or 200 to stay on the text protocol. The lowest is 176.
    public var maxServerVersion = 226
    /// How long `run` waits at start for TWS / IB Gateway to answer (zero: it gives up at once).
    public var waitForGateway: Duration = .seconds(120)
    /// How long a 1100 "connectivity lost" may last before the run treats it as an outage.
    public var gracePeriod: Duration = .seconds(30)
    /// Silence before a reqCurrentTime probe (zero: off).
    public var heartbeat: Duration = .seconds(30)
    /// How long the probe's answer may take.
    public var heartbeatTimeout: Duration = .seconds(10)
    /// IB's daily reset window `HH:MM-HH:MM` (`none`: no window).
    public var resetWindow = "23:45-00:45"
    /// The time zone of the window (IANA name).
    public var resetTimeZone = "America/New_York"
    /// Days on which the whole day may see resets (weekend maintenance).
    public var resetDays: [String] = ["sunday"]
    /// The user's reclassifications of TWS's errMsg codes: code → `notice` (the request goes on) or `terminal` (it
    /// is over), applied before the built-in table.
    public var errorCodes: [Int: String] = [:]

    /// Creates the defaults.
    public init() {}

    /// `{CODE: notice|terminal}`.
    static var errorCodesKind: ConfigKind<[Int: String]> {
        // The connection's own words and fixed codes, so the check and the connection never disagree.
        let choices = TWSErrorOverride.allCases.map(\.rawValue)
        let fixed = TWSErrorOverride.fixedCodes
        let allowed = "a mapping of TWS error codes to notice or terminal, e.g. {10349: notice}"
        return ConfigKind(
            allowed: allowed,
            read: { (node, key) throws(ConfigError) in
                if node.isNull { return [:] }
                guard let entries = node.entries else {
                    throw ConfigError("expected \(allowed), got \(node.shapeDescription)", key: key, at: node.origin)
                }
                var codes: [Int: String] = [:]
                for entry in entries {
                    let entryKey = key + "." + entry.key
                    guard let code = Int(entry.key), (0...99_999).contains(code) else {
                        throw ConfigError(
                            "'\(entry.key)' is not a TWS error code (a number such as 10349)", key: entryKey,
                            at: entry.value.origin)
                    }
                    guard !fixed.contains(code) else {
                        throw ConfigError(
                            "\(code) keeps its meaning (a connection or client code); codes that cannot be reclassified: "
                                + fixed.sorted().map(String.init).joined(separator: ", "),
                            key: entryKey, at: entry.value.origin)
                    }
                    codes[code] = try ConfigKind<String>.choice(choices).read(entry.value, entryKey)
                }
                return codes
            },
            format: { codes in
                "{" + codes.keys.sorted().map { "\($0): \(codes[$0] ?? "")" }.joined(separator: ", ") + "}"
            })
    }

    /// The schema of the section.
    public static var schema: ConfigSection<ConnectionSettings> {
        ConfigSection(
            [
                .value("host", \.host, .host, summary: "TWS / IB Gateway host.", flag: true),
                .value(
                    "port", \.port, .integer(1...65_535),
                    summary: "API port: 7497 paper TWS, 4002 paper gateway, 7496 / 4001 live.", flag: true),
                .value(
                    "clientId", \.clientId, .integer(0...2_147_483_647),
                    summary: "API client id; unique per connection to one TWS.", flag: true),
                .value(
                    "account", \.account, ConfigKind.text.optional,
                    summary: "The account to trade (default: the login's only account; a login that manages several needs one named).", flag: true),
                .value(
                    "maxServerVersion", \.maxServerVersion, .integer(176...226),
                    summary: "The highest TWS API server version advertised: 226, protobuf from 201; 200 keeps to the "
                        + "text protocol (176 is the lowest served). TWS answers with the highest both speak."),
                .value(
                    "waitForGateway", \.waitForGateway, .duration(.zero ... .seconds(86_400)),
                    summary: "How long run waits at start for TWS / IB Gateway to answer, trying again with backoff "
                        + "(0s: give up at once)."),
                .value(
                    "gracePeriod", \.gracePeriod, .duration(.zero ... .seconds(86_400)),
                    summary: "How long a 1100 'connectivity lost' may last before the run treats it as an outage."),
                .value(
                    "heartbeat", \.heartbeat, .duration(.zero ... .seconds(3600)),
                    summary: "Silence before a reqCurrentTime probe checks the connection (0s: off)."),
                .value(
                    "heartbeatTimeout", \.heartbeatTimeout, .duration(.seconds(1) ... .seconds(600)),
                    summary: "How long the heartbeat probe's answer may take."),
                .value(
                    "resetWindow", \.resetWindow, .text,
                    summary: "IB's daily reset window, HH:MM-HH:MM in resetTimeZone, or none."),
                .value("resetTimeZone", \.resetTimeZone, .text, summary: "The time zone of the reset window (IANA)."),
                .value(
                    "resetDays", \.resetDays,
                    .list(of: .text, allowed: "a list of day names (monday … sunday, or mon … sun)", distinct: true),
                    summary: "Days on which resets may come at any hour (weekend maintenance)."),
                .value(
                    "errorCodes", \.errorCodes, errorCodesKind,
                    summary: "TWS errMsg codes the bot should read otherwise than its built-in table, without a new "
                        + "release: {10349: notice, 10052: terminal}. notice: the request goes on (a warning); terminal: "
                        + "the request it names is over. 1100, 1101, 1102, 326, 502 and 504 keep their meaning."),
            ],
            validate: { (settings, record, path) throws(ConfigError) in
                do throws(ResetScheduleError) {
                    _ = try settings.resetSchedule()
                } catch {
                    let key = ["resetWindow", "resetTimeZone", "resetDays"].map { ConfigSection<Self>.join(path, $0) }
                        .first { record.origins[$0] != nil } ?? ConfigSection<Self>.join(path, "resetWindow")
                    throw ConfigError(error.description, key: key, at: record.origins[key])
                }
            })
    }

    /// `monday` … `sunday`.
    public static let dayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// IB's reset window (`nil` when there is no window and no whole days).
    public func resetSchedule() throws(ResetScheduleError) -> ResetSchedule? {
        let schedule = try ResetSchedule(window: resetWindow, timeZone: resetTimeZone, days: resetDays)
        return schedule.dailyStart == nil && schedule.days.isEmpty ? nil : schedule
    }
}
