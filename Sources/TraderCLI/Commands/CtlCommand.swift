import ArgumentParser
import TraderKit

/// `ibtrader ctl`: steer a running bot through its dashboard port (OperatorClient).
struct CtlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl", abstract: "Steer a running bot: status, pause, resume, kill, flatten, reload (risk limits).",
        discussion: """
            Talks to the bot's dashboard (dashboard.port of --config, default 127.0.0.1:8420). pause: no new entries; \
            resume: lift pause and kill switch; kill: no new orders, working orders stay; flatten: kill, cancel every \
            order, close every position at market. Controls need the dashboard token (dashboard.token, \
            IBTRADER_DASHBOARD_TOKEN, or dashboard.token beside the config's journal) and are journaled with --reason.
            """)

    @Argument(help: "status, pause, resume, kill, flatten or reload.") var action: String
    @OptionGroup var config: ConfigOptions
    @Option(name: .long, help: "Why (journaled with the control).") var reason: String = ""
    @Flag(name: .long, help: "Do not ask before kill or flatten.") var yes = false
    @Flag(name: .long, help: "Print the bot's JSON answer.") var json = false

    func run() async throws {
        let loaded = try config.load(flags: [])
        print(try await OperatorClient.run(action, loaded: loaded, reason: reason, json: json) { yes || Terminal.confirm($0) })
    }
}
