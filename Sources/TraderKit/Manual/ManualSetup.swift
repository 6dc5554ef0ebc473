import Foundation
import InteractiveBrokers
import Storage
import TWSClient
import TWSProtocol
import TraderConfig
import TradingModel

/// What the manual commands (`order`, `modify`, `cancel`, `orders`, `positions`, `account`) take from a loaded
/// configuration: where TWS listens, the account, the risk limits and the journal. The client id is the command's
/// own (`--client-id`, 901 by default), so a bot running on the config's client id is not disturbed.
public struct ManualSetup: Sendable {
    /// Where to connect.
    public var connection: TWSConnectionConfiguration
    /// Account, risk limits, journal, kill switch, clock.
    public var settings: ManualSettings
    /// The journal in use, if journaling.
    public var journalPath: String?
    /// When this command created the journal: a note saying where, for standard error (a manual command that
    /// silently leaves `journal.sqlite` in the current folder surprises; issue 83).
    public var journalNote: String?

    /// The wall clock the manual commands run on (their sessions' time; what a local symbol's year is read against).
    public static func wallTime() -> Timestamp { Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9)) }

    /// The manual commands' client id when none is given.
    public static let defaultClientID = 901

    /// Reads the setup from a loaded configuration.
    /// - Parameters:
    ///   - loaded: the configuration (`--config`, the environment and the flags).
    ///   - clientID: the command's client id.
    ///   - timeout: how long the connection and each answer may take.
    ///   - journaling: open the journal (commands that send orders).
    ///   - journalIfPresent: open the journal when its file exists (`orders` follows manual orders up in it).
    ///   - environment: the process environment (`IBTRADER_KILL_SWITCH`).
    /// - Throws: `ConfigError` when journaling with `journal: none`, or the journal cannot be opened.
    public init(
        _ loaded: LoadedConfiguration, clientID: Int, timeout: Duration, journaling: Bool,
        journalIfPresent: Bool = false, environment: [String: String]
    ) throws(ConfigError) {
        let config = loaded.settings
        connection = TWSConnectionConfiguration(
            host: config.connection.host, port: config.connection.port, clientID: clientID)
        connection.versions = TWSProtocolConstants.minimumServerVersion...config.connection.maxServerVersion
        connection.errorOverrides = config.connection.errorOverrides
        connection.readyTimeout = timeout
        connection.requestTimeout = timeout
        settings = ManualSettings(clock: Self.wallTime)
        settings.timeout = timeout
        settings.account = config.connection.account
        settings.cancelOtherClients = config.orders.cancelOtherClients
        settings.risk = config.risk.effectiveLimits(for: config.strategy.spec)
        settings.commissionReserve = config.backtest.commissionModel.reserve
        settings.futuresRollDays = config.backtest.futuresRollDays
        let kill = environment["IBTRADER_KILL_SWITCH"]?.lowercased()
        settings.killSwitchEngaged = ["1", "true", "yes", "on"].contains(kill ?? "")
        let present = config.journal.path.map { FileManager.default.fileExists(atPath: $0) } ?? false
        guard journaling || (journalIfPresent && present) else { return }
        guard let path = config.journal.path else {
            throw ConfigError(
                "manual orders are always journaled; the config says journal: none (give --journal PATH)",
                key: "journal", at: loaded.record.origins["journal.path"])
        }
        do {
            settings.journal = try OrderJournal(path: path)
        } catch {
            throw ConfigError("\(error)", key: "journal.path", at: loaded.record.origins["journal.path"])
        }
        journalPath = path
        if !present {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            journalNote = "note: created the order journal \(absolute): every manual order is journaled there "
                + "(--journal PATH, or journal.path in a --config file, puts it elsewhere)"
        }
    }
}
