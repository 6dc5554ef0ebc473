import Foundation
import LiveSession
import Logging
import OperatorSurface
import TradingModel
import TraderConfig
import TradingEngine

/// What `run` serves its operator: the dashboard (`dashboard:`) and the alerts (`alerts:`).
public struct OperatorSetup: Sendable {
    /// The dashboard's settings (`nil`: `dashboard.port: none`).
    public var dashboard: DashboardSettings?
    /// The alerts' channels and rules (`nil`: no channel configured).
    public var alerts: AlertCenter?
    /// When the daily report is made (`alerts.dailyReportAt`, seconds after midnight UTC; `nil`: never).
    public var dailyReportSecond: Int?
    /// The config's sources, read again by the operator's `reload` (`nil`: the run cannot reload).
    public var sources: ConfigSources?

    /// The risk limits of `sources` as the run applies them, or the config's error (file, line, key).
    public var reloadRisk: (@Sendable () throws -> RiskConfig)? {
        guard let sources else { return nil }
        return { try Self.riskLimits(sources) }
    }

    static func riskLimits(_ sources: ConfigSources) throws -> RiskConfig {
        let settings = try ConfigLoader.load(sources).settings
        return settings.risk.effectiveLimits(for: settings.strategy.spec)
    }

    /// Reads both from a loaded config (and its sources, which `reload` reads again).
    /// - Throws: `ConfigError` naming the key (a token file that cannot be used, a URL that does not parse).
    /// - Parameter simulated: the broker is the built-in simulator (`run --simulated`): the dashboard keeps to the
    ///   data's clock.
    public init(_ loaded: LoadedConfiguration, journal: String?, logger: Logger, simulated: Bool = false) throws(ConfigError) {
        sources = loaded.sources
        dashboard = try DashboardSetup.settings(loaded, journal: journal)
        dashboard?.simulatedBroker = simulated
        alerts = try AlertSetup.center(loaded, logger: logger)
        dailyReportSecond = loaded.settings.alerts.dailyReportSecond
    }
}

/// The alert center of a config, with a channel per configured destination.
public enum AlertSetup {
    /// The center, or `nil` when no channel is configured.
    public static func center(_ loaded: LoadedConfiguration, logger: Logger) throws(ConfigError) -> AlertCenter? {
        let settings = loaded.settings.alerts
        func url(_ text: String, _ key: String) throws(ConfigError) -> URL {
            guard let url = URL(string: text), url.host != nil else {
                throw ConfigError("'\(text)' is not a URL", key: key, at: loaded.record.origins[key])
            }
            return url
        }
        var channels: [AlertChannel] = []
        if let webhook = settings.webhook {
            channels.append(.webhook(try url(webhook, "alerts.webhook"), format: settings.webhookFormat))
        }
        if let token = settings.telegramToken {
            guard !settings.telegramChats.isEmpty else {
                throw ConfigError(
                    "a Telegram token needs the chats to write to (alerts.telegramChats)", key: "alerts.telegramChats",
                    at: loaded.record.origins["alerts.telegramToken"])
            }
            channels.append(.telegram(api: try url(settings.telegramApi, "alerts.telegramApi"), token: token, chats: settings.telegramChats))
        }
        if let sms = settings.smsUrl {
            guard !settings.smsTo.isEmpty, let from = settings.smsFrom else {
                throw ConfigError(
                    "an SMS gateway needs alerts.smsFrom and alerts.smsTo", key: "alerts.smsTo", at: loaded.record.origins["alerts.smsUrl"])
            }
            channels.append(
                .sms(url: try url(sms, "alerts.smsUrl"), user: settings.smsUser ?? "", password: settings.smsPassword ?? "", from: from, to: settings.smsTo))
        }
        if let host = settings.smtpHost {
            guard let from = settings.emailFrom, !settings.emailTo.isEmpty else {
                throw ConfigError(
                    "an SMTP relay needs alerts.emailFrom and alerts.emailTo", key: "alerts.emailTo",
                    at: loaded.record.origins["alerts.smtpHost"])
            }
            if let missing = SMTPClient.unavailableReason() {
                throw ConfigError(missing, key: "alerts.smtpHost", at: loaded.record.origins["alerts.smtpHost"])
            }
            channels.append(
                .email(
                    SMTPSettings(
                        host: host, port: settings.smtpPort, security: SMTPSettings.Security(rawValue: settings.smtpSecurity) ?? .starttls,
                        username: settings.smtpUser, password: settings.smtpPassword, from: from, to: settings.emailTo)))
        }
        guard !channels.isEmpty else { return nil }
        let configured = channels.map(\.name)
        for (key, names) in settings.routes.sorted(by: { $0.key < $1.key }) {
            for name in names where !configured.contains(name) {
                throw ConfigError(
                    "routes alerts to \(name), which is not set up (configured: \(configured.joined(separator: ", ")))",
                    key: "alerts.routes.\(key)", at: loaded.record.origins["alerts.routes"])
            }
        }
        let bot = settings.name ?? "ibtrader \(loaded.settings.connection.account ?? loaded.settings.strategy.name)"
        let minimum = OperatorAlert.Severity(rawValue: settings.minimumSeverity) ?? .warning
        return AlertCenter(
            channels: channels, bot: bot, minimum: minimum, cooldown: TimeSpan(settings.cooldown), logger: logger,
            routes: AlertRoutes(settings.routes))
    }
}

/// The dashboard's settings from a loaded config: its address, and its token from `dashboard.token` (or
/// `IBTRADER_DASHBOARD_TOKEN`), else from the token file beside the journal, made on first use.
public enum DashboardSetup {
    /// The settings, or `nil` with `dashboard.port: none`.
    /// - Parameters:
    ///   - loaded: the run's config.
    ///   - journal: the journal's path (its folder keeps the token file); without one, the working directory.
    /// - Throws: `ConfigError` naming `dashboard.token` when the token file cannot be read or written.
    public static func settings(_ loaded: LoadedConfiguration, journal: String?) throws(ConfigError) -> DashboardSettings? {
        let config = loaded.settings.dashboard
        guard let port = config.port else { return nil }
        if let token = config.token {
            return DashboardSettings(bind: config.bind, port: port, token: token, tokenSource: "given by dashboard.token")
        }
        let path = tokenFile(journal: journal)
        do {
            let (token, generated) = try DashboardTokenFile.load(path)
            return DashboardSettings(
                bind: config.bind, port: port, token: token,
                tokenSource: "in \(path)\(generated ? " (generated now, readable by you only)" : "")")
        } catch {
            throw ConfigError(error.description, key: "dashboard.token", at: loaded.record.origins["dashboard.token"])
        }
    }

    /// Where the token file of a journal is kept.
    public static func tokenFile(journal: String?) -> String {
        let folder = journal.map { ($0 as NSString).deletingLastPathComponent } ?? FileManager.default.currentDirectoryPath
        return ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent("dashboard.token")
    }
}
