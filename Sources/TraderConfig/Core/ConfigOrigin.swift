/// Where a configuration value came from: the schema's default, a file (with its line and column), an environment
/// variable (set in the process or in a `.env` file), or a command-line flag.
public enum ConfigOrigin: Hashable, Sendable, CustomStringConvertible {
    /// The schema's default.
    case defaultValue
    /// A default that follows from another setting (e.g. momentum's position cap from its holdings).
    case derived(String)
    /// A YAML or JSON file, at a 1-based line and column.
    case file(path: String, line: Int, column: Int)
    /// An environment variable; `dotEnv` names the `.env` file (and line) it was read from, if any.
    case environment(name: String, dotEnv: String?)
    /// A command-line flag, as the user spelt it (`--port`, `--set risk.maxDrawdownPercent`).
    case flag(String)

    /// `file.yaml:12:5`, `IBTRADER_CONNECTION_PORT (environment)`, `--port`, `default`.
    public var description: String {
        switch self {
        case .defaultValue: "default"
        case .derived(let reason): "default (\(reason))"
        case .file(let path, let line, let column): "\(path):\(line):\(column)"
        case .environment(let name, nil): "\(name) (environment)"
        case .environment(let name, let dotEnv?): "\(name) (\(dotEnv))"
        case .flag(let name): name
        }
    }

    /// The kind of source, as `config show` prints it: default, file, env or flag.
    public var kind: String {
        switch self {
        case .defaultValue, .derived: "default"
        case .file: "file"
        case .environment: "env"
        case .flag: "flag"
        }
    }
}
