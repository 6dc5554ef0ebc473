import Configuration
import Foundation
import Synchronization
import Yams

// MARK: - Our own pass over the file

/// What swift-configuration cannot check or hand back, from our own pass over the YAML.
///
/// A `ConfigReader` answers only the keys it is asked for and flattens nested mappings into dotted scalar leaves, so
/// a misspelt key (`connection.prot`), a mapping where a value belongs, or a list where a value belongs would pass
/// silently; and a free-form subtree (`strategy.parameters`, decoded like `ibtrader backtest`'s) cannot be read back
/// as one value. This pass checks the shape of the file against `RunSettings.keys` and keeps those subtrees.
struct RunConfigDocument {
    /// `true` when the file holds no YAML document at all (empty, or comments only).
    var isEmpty = true
    /// Paths whose value is YAML `null` (`account: ~`): absent, as if not written.
    var nullPaths: Set<String> = []
    /// Values that are mappings: `strategy.parameters`, and `risk` values with a structured form (`Money`, `TimeSpan`).
    var structured: [String: Node] = [:]

    /// Checks sections, keys and the shape of each value.
    /// - Parameters:
    ///   - text: the YAML.
    ///   - source: named in errors.
    /// - Throws: `CLIError` naming the file and the key.
    static func check(_ text: String, source: String) throws -> RunConfigDocument {
        let keys = RunSettings.keys
        var document = RunConfigDocument()
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw CLIError("\(source): not valid YAML: \(error)")
        }
        guard let root else { return document }
        document.isEmpty = false
        guard let mapping = root.mapping else { throw CLIError("\(source): the top level must be a mapping of sections") }
        for (sectionNode, body) in mapping {
            guard let section = sectionNode.string, let known = keys[section] else {
                throw CLIError(
                    "\(source): unknown section '\(sectionNode.string ?? "?")' (sections: \(keys.keys.sorted().joined(separator: ", ")))")
            }
            if case .scalar = body, body.null != nil { continue }
            guard let entries = body.mapping else { throw CLIError("\(source): '\(section)' must be a mapping") }
            for (keyNode, value) in entries {
                guard let key = keyNode.string, known.contains(key) else {
                    throw CLIError(
                        "\(source): unknown key '\(section).\(keyNode.string ?? "?")' (keys: \(known.joined(separator: ", ")))")
                }
                let path = "\(section).\(key)"
                if value.null != nil {
                    document.nullPaths.insert(path)
                } else if path == "strategy.parameters" || path == "strategy.allocation" {
                    document.structured[path] = value
                } else if path == "universe.symbols" || path == "connection.resetDays" {
                    let what = path == "universe.symbols" ? "symbols" : "day names"
                    guard let items = value.sequence else { throw CLIError("\(source): '\(path)' must be a list of \(what)") }
                    guard items.allSatisfy({ $0.scalar != nil }) else {
                        throw CLIError("\(source): '\(path)' holds a non-symbol")
                    }
                } else if value.mapping != nil, section == "risk" {
                    document.structured[path] = value
                } else if value.scalar == nil {
                    throw CLIError("\(source): '\(path)' must be a single value")
                }
            }
        }
        return document
    }
}

// MARK: - The layered reader

/// The run config as swift-configuration layers it: `IBTRADER_…` environment variables over the YAML file.
///
/// Environment names follow the key path with the prefix `IBTRADER`: swift-configuration's own encoding
/// (`connection.clientId` ← `IBTRADER_CONNECTION_CLIENT_ID`) first, then the same without word breaks
/// (`IBTRADER_CONNECTION_CLIENTID`), which the docs have always accepted. Values are read as text and parsed by
/// `RunSettings`, so both sources follow one set of rules (YAML and the environment provider disagree on `1`/`yes`
/// as booleans) and an error can quote the value; an `AccessReporter` tells which layer answered, so the error
/// names the environment variable or the file.
struct RunConfigValues {
    let reader: ConfigReader
    let origins: ConfigOrigins
    let document: RunConfigDocument
    let source: String

    /// Layers the environment over `yaml` (`nil`: an empty file).
    init(yaml: (any ConfigProvider)?, document: RunConfigDocument, environment: [String: String], source: String) {
        let variables = EnvironmentVariablesProvider(environmentVariables: environment)
        let snakeCase = variables.prefixKeys(with: "ibtrader")
        let runTogether = variables.mapKeys { key in
            AbsoluteConfigKey(["ibtrader"] + key.components.map { $0.lowercased() }, context: key.context)
        }
        var providers: [any ConfigProvider] = [snakeCase, runTogether]
        if let yaml { providers.append(yaml) }
        origins = ConfigOrigins(environmentLayers: 2)
        reader = ConfigReader(providers: providers, accessReporter: origins)
        self.document = document
        self.source = source
    }

    /// Where the value of `path` came from: `IBTRADER_X (environment)`, or the file.
    func origin(_ path: String) -> String {
        origins.environmentName(of: path).map { "\($0) (environment)" } ?? source
    }

    /// A single value as text with its origin; `nil` if absent or `null`.
    func scalar(_ path: String) throws -> (String, String)? {
        guard let text = reader.string(forKey: ConfigKey(path)) else {
            if let failure = origins.failure(of: path) { throw CLIError("\(origin(path)): '\(path)': \(failure)") }
            return nil
        }
        let from = origin(path)
        if from == source, document.nullPaths.contains(path) { return nil }
        return (text, from)
    }

    /// A list with its origin (from the environment: a comma list); `nil` if absent or `null`.
    func list(_ path: String) throws -> ([String], String)? {
        guard let items = reader.stringArray(forKey: ConfigKey(path)) else {
            if let failure = origins.failure(of: path) { throw CLIError("\(origin(path)): '\(path)': \(failure)") }
            return nil
        }
        let from = origin(path)
        if from == source, document.nullPaths.contains(path) { return nil }
        // A comma list may end in a comma; a YAML list's empty item is an error further on.
        return (from == source ? items : items.filter { !$0.isEmpty }, from)
    }

    /// A value as a YAML node (a scalar from either layer, or the file's mapping), for `Codable` sections.
    func node(_ path: String) throws -> (Node, String)? {
        if let (text, from) = try scalar(path) { return (Node(text), from) }
        if let structured = document.structured[path] { return (structured, source) }
        return nil
    }
}

/// Records, per key, which layer answered the last read (an environment variable's name, or the file) and why a
/// layer could not answer.
final class ConfigOrigins: AccessReporter {
    private struct Access {
        var environmentName: String?
        var failure: String?
    }

    private let environmentLayers: Int
    private let accesses = Mutex<[String: Access]>([:])

    /// - Parameter environmentLayers: how many of the reader's first providers are environment variables.
    init(environmentLayers: Int) { self.environmentLayers = environmentLayers }

    func report(_ event: AccessEvent) {
        var access = Access()
        for (index, provider) in event.providerResults.enumerated() {
            switch provider.result {
            case .success(let lookup):
                guard lookup.value != nil else { continue }
                if index < environmentLayers { access.environmentName = lookup.encodedKey }
            case .failure(let error):
                access.failure = "\(error)"
            }
            break
        }
        let path = event.metadata.key.components.joined(separator: ".")
        accesses.withLock { $0[path] = access }
    }

    /// The environment variable that answered the last read of `path`, if one did.
    func environmentName(of path: String) -> String? { accesses.withLock { $0[path]?.environmentName } }

    /// Why the last read of `path` failed, if it did.
    func failure(of path: String) -> String? { accesses.withLock { $0[path]?.failure } }
}
