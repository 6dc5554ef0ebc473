/// `IBTRADER_<SECTION>_<KEY>` variables: each names a key path, with camelCase keys in snake case
/// (`IBTRADER_CONNECTION_CLIENT_ID`) or run together (`IBTRADER_CONNECTION_CLIENTID`); nested keys go on the same
/// way (`IBTRADER_STRATEGY_PARAMETERS_LOOKBACK`). Any other `IBTRADER_` variable is an error naming the nearest key,
/// like a typo in a file (a misspelt section would otherwise leave the bot on its default port), unless it is one of
/// the program's own (`reserved`) or listed in `IBTRADER_IGNORE`.
enum EnvironmentOverrides {
    /// The variable listing a user's own `IBTRADER_` variables that are not configuration keys: names separated by
    /// commas or spaces, a trailing `*` for a prefix (`IBTRADER_IGNORE=IBTRADER_DEPLOY_*,IBTRADER_HOST_TAG`).
    static let ignoreList = "IBTRADER_IGNORE"

    /// Variables of the `IBTRADER_` family that are not configuration keys: the program's, its tests' and its
    /// scripts' (a test's environment reaches the program it starts).
    static let reserved: Set<String> = [
        "IBTRADER_KILL_SWITCH", "IBTRADER_CRASH_AT", "IBTRADER_LOG_LEVEL", "IBTRADER_BUNDLED_DATA", "IBTRADER_PYTHON",
        "IBTRADER_BIN", "IBTRADER_REPORT_OUT", "IBTRADER_JOURNAL_CRASH_MODE", "IBTRADER_JOURNAL_CRASH_CHILD",
        "IBTRADER_TEST_MAX_SERVER_VERSION", "IBTRADER_KEEP_SCREENSHOT", "IBTRADER_FULLDISK", "IBTRADER_BUILD_EXAMPLE",
        "IBTRADER_RUNS", ignoreList,
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
        let ignored = ignorePatterns(variables)
        var result: [(path: String, node: ConfigNode)] = []
        for variable in variables.sorted(by: { $0.name < $1.name }) where variable.name.hasPrefix("IBTRADER_") {
            guard !reserved.contains(variable.name), !ignored.contains(where: { $0.matches(variable.name) }) else { continue }
            let rest = String(variable.name.dropFirst("IBTRADER_".count))
            if let path = byFolded[fold(rest)] {
                result.append((path, try ConfigText.value(variable.value, origin: variable.origin)))
                continue
            }
            // Within the section it starts with, else among every key.
            let section = TraderConfiguration.sections.first { rest.hasPrefix($0.uppercased() + "_") }
            let candidates = keys.filter { key in
                !key.isSection && (section.map { key.path.hasPrefix($0 + ".") } ?? true)
            }
            var byName: [String: String] = [:]
            for key in candidates where byName[key.environmentName] == nil { byName[key.environmentName] = key.path }
            let nearest = KeySuggestion.nearest(to: variable.name, in: candidates.map(\.environmentName))
            let suggestion = nearest.map { "; did you mean \($0) (\(byName[$0] ?? ""))?" } ?? "."
            throw ConfigError(
                "names no configuration key\(suggestion) A variable of your own that starts with IBTRADER_: list it in "
                    + "\(ignoreList) (comma-separated; NAME_* for a prefix).",
                at: variable.origin)
        }
        return result
    }

    /// One entry of `IBTRADER_IGNORE`.
    struct IgnorePattern {
        var text: String
        func matches(_ name: String) -> Bool {
            text.hasSuffix("*") ? name.hasPrefix(text.dropLast()) : name == text
        }
    }

    static func ignorePatterns(_ variables: [Variable]) -> [IgnorePattern] {
        guard let list = variables.first(where: { $0.name == ignoreList })?.value else { return [] }
        return list.split(whereSeparator: { $0 == "," || $0 == " " }).map { IgnorePattern(text: String($0)) }
    }

    /// Upper case without word breaks: `connection.clientId` and `CONNECTION_CLIENT_ID` both fold to
    /// `CONNECTIONCLIENTID`.
    static func fold(_ text: String) -> String {
        String(text.uppercased().filter { $0 != "_" && $0 != "." })
    }
}
