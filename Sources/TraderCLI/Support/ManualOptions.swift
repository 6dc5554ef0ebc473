import ArgumentParser
import Foundation
import InteractiveBrokers
import Storage
import TWSClient
import TWSProtocol
import TradingModel

/// Options shared by the manual commands: the config, the account and its live confirmation, the journal, JSON.
struct ManualOptions: ParsableArguments {
    @Option(name: .long, help: "A run config (YAML, as for `run`): its connection host/port/account, risk limits and journal path.")
    var config: String?

    @Option(name: .long, help: "The account (default: the config's, else the first managed account).")
    var account: String?

    @Option(name: .long, help: "The order journal (default: the config's journal.path, else journal.sqlite).")
    var journal: String?

    @Flag(name: .long, help: "JSON lines instead of tables.")
    var json = false

    @Flag(name: .long, help: "Allow a live (non-paper) account after an interactive confirmation.")
    var live = false

    @Option(name: .customLong("confirm-live"), help: "Use this live account without asking (unattended use).")
    var confirmLive: String?
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

/// Connects with the manual commands' settings: `--config` supplies host, port, account, risk and journal
/// (the client id stays the command's own, so a bot running on the config's client id is not disturbed).
struct ManualContext {
    var connection: ConnectionOptions
    var manual: ManualOptions
    /// The risk limits (config, then command-line overrides by the caller).
    var settings: ManualSettings
    /// The journal path in use, if journaling.
    var journalPath: String?
    private var host: String
    private var port: Int

    /// Reads the config (if any) and opens the journal when `journaling`.
    init(connection: ConnectionOptions, manual: ManualOptions, journaling: Bool) throws {
        self.connection = connection
        self.manual = manual
        host = connection.host
        port = connection.port
        settings = ManualSettings(clock: { Timestamp(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9)) })
        settings.timeout = .milliseconds(Int64(connection.timeout * 1000))
        var journalPath = manual.journal
        if let config = manual.config {
            let run = try RunSettings.load(
                text: try readTextFile(config), source: config,
                baseDirectory: URL(fileURLWithPath: config).deletingLastPathComponent(),
                environment: ProcessInfo.processInfo.environment)
            host = run.host
            port = run.port
            settings.account = run.account
            settings.risk = run.risk
            journalPath = journalPath ?? run.journalPath
        }
        if let account = manual.account { settings.account = account }
        settings.confirmedLiveAccount = manual.confirmLive
        let kill = ProcessInfo.processInfo.environment["IBTRADER_KILL_SWITCH"]?.lowercased()
        settings.killSwitchEngaged = ["1", "true", "yes", "on"].contains(kill ?? "")
        if journaling {
            let path = journalPath ?? "journal.sqlite"
            do {
                try FileManager.default.createDirectory(
                    at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
                settings.journal = try OrderJournal(path: path)
            } catch {
                throw CLIError("journal '\(path)': \(error)")
            }
            self.journalPath = path
        }
    }

    /// Connects, confirms a live account when `--live` asks for it, runs `body`, disconnects.
    func run<Result: Sendable>(
        _ body: (TWSConnection, TWSSessionInfo, ManualSettings) async throws -> Result
    ) async throws -> Result {
        var options = connection
        options.host = host
        options.port = port
        let settings = settings
        let live = manual.live
        return try await options.withConnection { client, info in
            var settings = settings
            if live, settings.confirmedLiveAccount == nil {
                settings.confirmedLiveAccount = Self.askLiveConfirmation(info, account: settings.account)
            }
            do {
                return try await body(client, info, settings)
            } catch let error as ManualTradingError {
                throw CLIError(error.description)
            }
        }
    }

    /// Asks the operator to type the live account's code (as `ibtrader run --live` does).
    static func askLiveConfirmation(_ info: TWSSessionInfo, account: String?) -> String? {
        let target = account ?? info.accounts.first ?? ""
        guard !target.hasPrefix("DU") else { return nil }
        printError("LIVE account \(target): real money. Type the account code to continue: ")
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces), answer == target else { return nil }
        return target
    }
}
