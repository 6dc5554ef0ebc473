import Foundation
import OperatorSurface
import TraderConfig

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
