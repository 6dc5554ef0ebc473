/// `IBTRADER_<SECTION>_<KEY>` variables: each names a key path, with camelCase keys in snake case
/// (`IBTRADER_CONNECTION_CLIENT_ID`) or run together (`IBTRADER_CONNECTION_CLIENTID`); nested keys go on the same
/// way (`IBTRADER_STRATEGY_PARAMETERS_LOOKBACK`). A variable that names a known section but no key of it is an
/// error with a suggestion, like a typo in a file.
enum EnvironmentOverrides {
    /// Variables of the `IBTRADER_` family that are not configuration keys.
    static let reserved: Set<String> = [
        "IBTRADER_KILL_SWITCH", "IBTRADER_CRASH_AT", "IBTRADER_LOG_LEVEL", "IBTRADER_BUNDLED_DATA", "IBTRADER_PYTHON",
        "IBTRADER_BIN", "IBTRADER_REPORT_OUT", "IBTRADER_JOURNAL_CRASH_MODE", "IBTRADER_JOURNAL_CRASH_CHILD",
    ]

    /// One variable with where it was set.
    struct Variable {
        var name: String
        var value: String
        var origin: ConfigOrigin
    }

    /// The overrides among `variables` as (key path, value) pairs, in a stable order.
    /// - Parameters:
    ///   - variables: the process's variables and those of the `.env` file.
    ///   - keys: the key paths that take a value.
    static func overrides(
        _ variables: [Variable], keys: [ConfigKeyInfo]
    ) throws(ConfigError) -> [(path: String, node: ConfigNode)] {
        var byFolded: [String: String] = [:]
        for key in keys where !key.isSection { byFolded[fold(key.path)] = key.path }
        var result: [(path: String, node: ConfigNode)] = []
        for variable in variables.sorted(by: { $0.name < $1.name }) where variable.name.hasPrefix("IBTRADER_") {
            guard !reserved.contains(variable.name) else { continue }
            let rest = String(variable.name.dropFirst("IBTRADER_".count))
            if let path = byFolded[fold(rest)] {
                result.append((path, try ConfigText.value(variable.value, origin: variable.origin)))
                continue
            }
            guard let section = TraderConfiguration.sections.first(where: { rest.hasPrefix($0.uppercased() + "_") })
            else { continue }
            let candidates = keys.filter { !$0.isSection && $0.path.hasPrefix(section + ".") }.map(\.environmentName)
            throw ConfigError(
                "no key \(section).… is named by this variable" + KeySuggestion.phrase(for: variable.name, in: candidates),
                at: variable.origin)
        }
        return result
    }

    /// Upper case without word breaks: `connection.clientId` and `CONNECTION_CLIENT_ID` both fold to
    /// `CONNECTIONCLIENTID`.
    static func fold(_ text: String) -> String {
        String(text.uppercased().filter { $0 != "_" && $0 != "." })
    }
}
