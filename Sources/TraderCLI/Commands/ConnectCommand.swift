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
            await ConnectSummary.lines(client, session, configuration)
        }
        for line in lines { print(line) }
    }
}
