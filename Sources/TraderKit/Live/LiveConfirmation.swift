import Foundation
import TWSClient
import TraderConfig

/// The operator's confirmation of a live (non-`DU…`) account, and the checked command-line values of `run`.
public enum LiveConfirmation {
    /// Asks on the terminal to type the account's code; the account when typed, `nil` for a paper account.
    /// - Throws: `TraderError` when the answer does not match.
    public static func ask(account: String) throws(TraderError) -> String? {
        guard !account.hasPrefix("DU") else { return nil }
        Terminal.printError("LIVE account \(account): real money. Type the account code to continue: ")
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces), answer == account else {
            throw TraderError("live trading of \(account) not confirmed; nothing was sent")
        }
        return account
    }

    /// Connects to learn the managed accounts, then asks for `account` (default: the first one).
    public static func ask(connection: TWSConnectionConfiguration, account: String?) async throws -> String? {
        let managed = try await TWSConnection.connect(connection) { _, session in session.accounts }
        return try ask(account: account ?? managed.first ?? "")
    }

    /// `--duration`: `60s`, `5m`, `2h`, `1d` or seconds, from 1 second to 365 days.
    public static func duration(_ text: String) throws(TraderError) -> Duration {
        guard let value = HumanDuration.parse(text), value >= .seconds(1), value <= .seconds(365 * 86_400) else {
            throw TraderError("--duration must be a duration from 1s to 365d (30s, 5m, 2h, 1d), got '\(text)'")
        }
        return value
    }

    /// `--speed`: a replay multiplier above 0 and at most 1000000, or `max`.
    public static func speed(_ text: String) throws(TraderError) -> Double {
        if text == "max" { return 10_000 }
        guard let value = Double(text), value > 0, value <= 1_000_000 else {
            throw TraderError("--speed must be a number above 0 and at most 1000000, or 'max', got '\(text)'")
        }
        return value
    }
}
