/// Which account a run trades: the configured one (it must be managed by the login) or the first managed one; a live
/// (non-`DU…`) account only when confirmed by name.
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
            account = first
        }
        if !account.hasPrefix("DU"), confirmedLive != account { throw .liveAccountNotConfirmed(account: account) }
        return account
    }
}
