import ArgumentParser
import Foundation
import InteractiveBrokers
import TraderConfig
import TraderKit
import TWSClient
import TWSProtocol

/// Options shared by the manual commands: the config, the account and its live confirmation, the journal, JSON.
struct ManualOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "A config (as for `run`): its connection host/port/account, risk limits and journal. Repeatable.",
        valueName: "file"))
    var config: [String] = []

    @Option(name: .long, help: "The account (key connection.account; default: the config's, else the login's only account; a login with several needs one named).")
    var account: String?

    @Option(name: .long, help: "The order journal (key journal.path; default: the config's, else journal.sqlite here).")
    var journal: String?

    @Flag(name: .long, help: "JSON lines instead of tables.") var json = false

    @Flag(name: .long, help: "Allow a live (non-paper) account after an interactive confirmation.") var live = false

    @Option(name: .customLong("confirm-live"), help: "Use this live account without asking (unattended use).")
    var confirmLive: String?

    /// `--account` and `--journal` as configuration overrides.
    var overrides: [ConfigOverride] {
        [override("connection.account", account), override("journal.path", journal).map {
            ConfigOverride(path: $0.path, value: $0.value, flag: "--journal")
        }].compactMap { $0 }
    }
}

/// What a manual command prints, and whether it succeeded (a denial or rejection exits non-zero).
struct ManualCommandOutput: Sendable {
    var lines: [String]
    var succeeded = true

    /// Prints the lines; exits non-zero when the command did not succeed.
    func emit() throws {
        for line in lines { print(line) }
        if !succeeded { throw ExitCode.failure }
    }
}

/// Connects with the manual commands' settings (`ManualSetup`: the config, then the flags).
struct ManualContext {
    var connection: ConnectionOptions
    var manual: ManualOptions
    /// The account, risk limits, journal and kill switch.
    var setup: ManualSetup
    /// The configuration loaded (a running bot on it is asked before an order).
    var loaded: LoadedConfiguration
    /// The journal path in use, if journaling.
    var journalPath: String? { setup.journalPath }

    /// Loads the config (if any) with the flags over it, and opens the journal when `journaling`.
    init(
        connection: ConnectionOptions, manual: ManualOptions, journaling: Bool, overrides: [ConfigOverride] = [],
        journalIfPresent: Bool = false
    ) throws {
        self.connection = connection
        self.manual = manual
        let environment = ProcessInfo.processInfo.environment
        loaded = try ConfigLoader.load(ConfigSources(
            files: manual.config, environment: environment,
            flags: connection.overrides + manual.overrides + overrides, catalog: StrategyCatalogContext.current))
        setup = try ManualSetup(
            loaded, clientID: connection.clientIDValue, timeout: connection.timeoutValue, journaling: journaling,
            journalIfPresent: journalIfPresent, environment: environment)
        setup.settings.confirmedLiveAccount = manual.confirmLive
        if let note = setup.journalNote { FileHandle.standardError.write(Data((note + "\n").utf8)) }
    }

    /// Connects, confirms a live account when `--live` asks for it, runs `body`, disconnects.
    func run<Result: Sendable>(
        _ body: (TWSConnection, TWSSessionInfo, ManualSettings) async throws -> Result
    ) async throws -> Result {
        let settings = setup.settings
        let live = manual.live
        return try await connection.withConnection(setup.connection) { client, info in
            var settings = settings
            if live, settings.confirmedLiveAccount == nil {
                settings.confirmedLiveAccount = try? LiveConfirmation.ask(account: settings.account ?? info.accounts.first ?? "")
            }
            do {
                return try await body(client, info, settings)
            } catch let error as ManualTradingError {
                throw CLIError(error.description)
            }
        }
    }
}
