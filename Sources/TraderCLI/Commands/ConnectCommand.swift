import ArgumentParser
import TraderKit

/// `ibtrader connect`: server version, connection time, accounts, next order id, IB's desupport warning (2172).
struct ConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Connect to TWS / IB Gateway (or the simulator) and print what the session looks like."
    )

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let configuration = connection.configuration
        let lines = try await connection.withConnection { client, session in
            var lines = [
                "connected: \(configuration.host):\(configuration.port) as client \(configuration.clientID)",
                "server version: \(session.serverVersion) (\(session.framing))",
                "connection time: \(session.connectionTime)",
                "accounts: \(session.accounts.joined(separator: ","))",
                "next order id: \(session.nextValidOrderID)",
            ]
            if let time = try? await client.currentTime() {
                lines.append("server time: \(CLITime.iso(time))")
            }
            if let warning = await client.desupportWarning {
                lines.append("gateway build: \(warning.summary): upgrade it (docs/operations.md, \"Upgrading IB Gateway\")")
            }
            let paper = session.accounts.allSatisfy { $0.hasPrefix("DU") || $0.hasPrefix("DF") }
            lines.append("account type: \(paper ? "paper" : "LIVE — orders would trade real money")")
            return lines
        }
        for line in lines { print(line) }
    }
}
