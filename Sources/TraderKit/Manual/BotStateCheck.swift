import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveSession
import TraderConfig
import TradingModel

/// What the bot running on the same config says about trading, asked before `ibtrader order` sends anything: a manual
/// order must not walk past the bot's kill switch, its pause or risk halt, or an exchange halt it sees. The bot is
/// asked over its dashboard (`GET /api/status`, no token needed); a config without a dashboard, or no bot answering,
/// leaves nothing to honour.
public enum BotStateCheck {
    /// What the check found.
    public enum Outcome: Sendable, Equatable {
        /// The config serves no dashboard (`dashboard.port: none`): a bot on it cannot be asked.
        case noDashboard
        /// Nothing answered at the address (no bot running on this config).
        case noBot(address: String)
        /// A bot answered (its session's status; `nil` before its session starts).
        case bot(address: String, status: SessionStatus?)
    }

    /// Asks the bot of `loaded` (its dashboard address) for its status, within `timeout`.
    public static func fetch(_ loaded: LoadedConfiguration, timeout: TimeInterval = 2) async -> Outcome {
        guard let address = OperatorClient.address(of: loaded.settings.dashboard) else { return .noDashboard }
        guard let url = URL(string: address + "/api/status") else { return .noBot(address: address) }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        // A dashboard bound elsewhere than loopback asks every request for the token.
        if let token = try? OperatorClient.token(loaded) {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        struct Body: Decodable { var status: SessionStatus? }
        guard let (data, response) = try? await URLSession.shared.data(for: request),
            (response as? HTTPURLResponse)?.statusCode == 200,
            let body = try? JSONDecoder().decode(Body.self, from: data)
        else { return .noBot(address: address) }
        return .bot(address: address, status: body.status)
    }

    /// Why the bot's state forbids a manual order of `quantity` `symbol` on `side`, or `nil` when it allows it.
    ///
    /// - kill switch, or no new orders at all (a journal that cannot be written): every order is refused;
    /// - an exchange halt of the symbol: refused (it would wait at the exchange and fill at the reopening);
    /// - entries paused or a risk halt: only an order that reduces the bot's position in the symbol passes.
    public static func refusal(
        _ status: SessionStatus, address: String, side: Side, symbol: Symbol, quantity: Quantity
    ) -> String? {
        let trading = status.trading
        let bot = "the bot at \(address) (\(status.account.isEmpty ? "not connected" : status.account))"
        let because = trading.reasons.isEmpty ? "" : " (\(trading.reasons.joined(separator: "; ")))"
        if trading.killSwitch {
            return "\(bot) has its kill switch engaged: no new orders\(because). `ibtrader ctl resume` lifts it"
        }
        if trading.state == "no new orders" {
            return "\(bot) takes no new orders\(because)"
        }
        if let halt = trading.haltedSymbols.first(where: { $0 == symbol.rawValue || $0.hasPrefix("\(symbol.rawValue):") }) {
            return "\(symbol) is halted by its exchange (\(bot) sees \(halt)); an order now would wait for the "
                + "reopening and fill there"
        }
        guard trading.state != "active" else { return nil }
        let held = status.positions.first { $0.symbol == symbol.rawValue }?.quantity ?? 0
        let reduces = side == .sell ? held > 0 && quantity.doubleValue <= held : held < 0 && quantity.doubleValue <= -held
        guard !reduces else { return nil }
        return "\(bot) is not taking new entries: \(trading.state)\(because); only an order that reduces its "
            + "\(symbol) position (\(held.formatted())) passes"
    }
}

extension BotStateCheck {
    /// What `ibtrader order` does before connecting: asks the bot, and refuses an order its state forbids unless
    /// `despite` (`--despite-bot`), which sends it with a warning.
    /// - Parameters:
    ///   - quiet: say nothing when no bot answers (no `--config` named one).
    ///   - json: the lines as JSON objects (`{"bot":"refused","message":…}`), for `--json`.
    /// - Returns: lines to print first, and whether the order is refused.
    public static func gate(
        _ loaded: LoadedConfiguration, side: Side, symbol: Symbol, quantity: Quantity, despite: Bool, quiet: Bool,
        json: Bool
    ) async -> (lines: [String], refused: Bool) {
        func line(_ kind: String, _ text: String) -> [String] {
            [json ? JSONLine.render(["bot": .string(kind), "message": .string(text)]) : "\(kind): \(text)"]
        }
        switch await fetch(loaded) {
        case .noDashboard:
            return (quiet ? [] : line("note", "this config serves no dashboard (dashboard.port: none): a bot on it was not asked"), false)
        case .noBot(let address):
            return (quiet ? [] : line("note", "no bot answered at \(address): nothing to honour, the order goes to TWS"), false)
        case .bot(_, nil):
            return ([], false)
        case .bot(let address, let status?):
            guard let refusal = refusal(status, address: address, side: side, symbol: symbol, quantity: quantity) else {
                return ([], false)
            }
            if despite { return (line("warning", "sent despite the bot's state (--despite-bot): \(refusal)"), false) }
            return (line("refused", "\(refusal). Nothing was sent; --despite-bot sends it anyway"), true)
        }
    }
}
