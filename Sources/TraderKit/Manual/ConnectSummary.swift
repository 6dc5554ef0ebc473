import TWSClient
import TWSProtocol

/// What `ibtrader connect` prints about a session.
public enum ConnectSummary {
    /// The lines: address and client, server version and framing, connection time, accounts, next order id, the
    /// server's time, IB's desupport warning (2172) when the gateway sent one, and whether the account is paper.
    public static func lines(
        _ client: TWSConnection, _ session: TWSSessionInfo, _ configuration: TWSConnectionConfiguration
    ) async -> [String] {
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
}
