import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveSession
import TraderConfig

/// `ibtrader ctl`: the operator's commands against a running bot's dashboard port (`dashboard.port` of the same
/// config). `status` reads; `pause`, `resume`, `kill` and `flatten` need the dashboard token (`dashboard.token`,
/// `IBTRADER_DASHBOARD_TOKEN`, or the token file beside the config's journal).
public enum OperatorClient {
    /// What `ctl ACTION` prints.
    /// - Parameters:
    ///   - action: `status` or a control.
    ///   - loaded: the bot's config (its dashboard's address and token).
    ///   - reason: journaled with a control.
    ///   - confirm: asked before kill and flatten (returns `false`: nothing is sent).
    ///   - json: the server's JSON instead of text.
    /// - Throws: `TraderError` with a sentence (no bot listening, a wrong token, a refused control).
    public static func run(
        _ action: String, loaded: LoadedConfiguration, reason: String, json: Bool,
        confirm: (String) -> Bool
    ) async throws -> String {
        let dashboard = loaded.settings.dashboard
        guard let base = address(of: dashboard) else {
            throw TraderError("this config has dashboard.port: none; the bot serves no controls")
        }
        func url(_ path: String) throws -> URL {
            guard let url = URL(string: base + path) else {
                throw TraderError("dashboard.bind '\(dashboard.bind)' does not make an address to reach the bot at")
            }
            return url
        }
        if action == "status" {
            let body = try await fetch(try url("/api/status"), method: "GET", token: nil, body: nil, base: base)
            return json ? body.text : try StatusText.render(body.data)
        }
        guard let control = OperatorAction(rawValue: action) else {
            throw TraderError("unknown action '\(action)'; use status, pause, resume, kill, flatten or reload")
        }
        let token = try self.token(loaded)
        if control == .kill || control == .flatten, !confirm("\(control.rawValue.uppercased()): \(control.effect). Go on?") {
            throw TraderError("nothing sent: \(control.rawValue) asks for confirmation on a terminal (answer yes), or give --yes")
        }
        let request = try JSONEncoder().encode(["reason": reason, "by": "ctl (\(ProcessInfo.processInfo.userName))"])
        let answer = try await fetch(
            try url("/api/control/\(control.rawValue)"), method: "POST", token: token, body: request, base: base)
        if json { return answer.text }
        let reply = try JSONDecoder().decode(OperatorReply.self, from: answer.data)
        return "\(control.rawValue): \(reply.message)"
    }

    /// Where the bot of this dashboard config answers (`http://HOST:PORT`; a wildcard bind is reached on loopback), or
    /// `nil` with `dashboard.port: none`.
    static func address(of dashboard: DashboardConfig) -> String? {
        guard let port = dashboard.port else { return nil }
        let host = dashboard.bind == "0.0.0.0" || dashboard.bind == "::" ? "127.0.0.1" : dashboard.bind
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The controls' token: the config's (or `IBTRADER_DASHBOARD_TOKEN`), else the file beside the journal.
    static func token(_ loaded: LoadedConfiguration) throws -> String {
        if let token = loaded.settings.dashboard.token { return token }
        let path = DashboardSetup.tokenFile(journal: loaded.settings.journal.path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TraderError(
                "no dashboard token: \(path) does not exist. Give the bot's --config (its journal's folder keeps "
                    + "dashboard.token), or set IBTRADER_DASHBOARD_TOKEN")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func fetch(
        _ url: URL, method: String, token: String?, body: Data?, base: String
    ) async throws -> (data: Data, text: String) {
        var request = URLRequest(url: url, timeoutInterval: 15)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw TraderError("no bot answers at \(base) (dashboard.port of this config): \(error.localizedDescription)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 200: return (data, text)
        case 401, 403: throw TraderError("the bot refused the token (\(status)): check dashboard.token or the token file")
        case 409:
            let reply = try? JSONDecoder().decode(OperatorReply.self, from: data)
            throw TraderError("the bot did not do it: \(reply?.message ?? text)")
        default: throw TraderError("the bot answered \(status): \(text)")
        }
    }
}

/// `ctl status` as text.
enum StatusText {
    static func render(_ data: Data) throws -> String {
        struct Body: Decodable { var status: SessionStatus? }
        guard let status = try JSONDecoder().decode(Body.self, from: data).status else { return "no session yet" }
        func money(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "–" }
        var lines = [
            "\(status.mode.isEmpty ? "not connected" : status.mode) \(status.account) \(status.strategy): \(status.phase), "
                + "\(status.trading.state)" + (status.trading.reasons.isEmpty ? "" : " (\(status.trading.reasons.joined(separator: "; ")))"),
            "equity \(money(status.money.equity)), cash \(money(status.money.cash)), today \(money(status.money.todayPnL)), "
                + "realized \(money(status.money.realizedPnL)), unrealized \(money(status.money.unrealizedPnL))"
                + (status.money.currency.map { $0 == "USD" ? "" : " (in \($0))" } ?? ""),
            "connection: \(status.connection.connected ? "up" : "down"), IB \(status.connection.ib), "
                + "\(status.connection.reconnects) reconnects; data time \(status.dataTime)",
        ]
        for balance in status.money.balances ?? [] {
            lines.append(
                "\(balance.currency) balance: cash \(money(balance.cash)), positions \(money(balance.positionsValue)) \(balance.currency); "
                    + (balance.rate > 0 ? "at \(balance.rate.formatted(.number.precision(.significantDigits(6)))) \(status.money.currency ?? "") per \(balance.currency)" : "no rate yet"))
        }
        lines.append(status.positions.isEmpty ? "positions: none" : "positions:")
        for p in status.positions {
            lines.append(
                "  \(p.symbol)\(p.contract.map { " [\($0)]" } ?? "") \(p.quantity.formatted()) @ \(money(p.averageCost))\(p.currency.map { " \($0)" } ?? ""), last "
                    + "\(money(p.price)), unrealized "
                    + "\(money(p.unrealizedPnL))\(p.protected ? ", protected" : "")")
        }
        lines.append("working orders: \(status.orders.count); risk denials this run: \(status.risk.denials)")
        return lines.joined(separator: "\n")
    }
}
