/// Which account a run trades: the configured one (it must be managed by the login), or the login's only one; a live
/// (non-`DU…`) account only when confirmed by name. A login with several accounts (an advisor's, or linked ones) and
/// none configured is refused rather than guessed: the first listed is often the advisor's master account.
public enum AccountRule {
    /// Checks the account rule: paper (`DU…`) accounts run; others only when confirmed by name.
    public static func check(
        managed: [String], configured: String?, confirmedLive: String?
    ) throws(LiveRunnerError) -> String {
        let account: String
        if let configured, !configured.isEmpty {
            guard managed.contains(configured) else { throw .accountNotManaged(account: configured, managed: managed) }
            account = configured
        } else {
            guard let first = managed.first else { throw .startup("TWS reported no managed account") }
            guard managed.count == 1 else { throw .accountNotChosen(managed: managed) }
            account = first
        }
        if !account.hasPrefix("DU"), confirmedLive != account { throw .liveAccountNotConfirmed(account: account) }
        return account
    }
}
