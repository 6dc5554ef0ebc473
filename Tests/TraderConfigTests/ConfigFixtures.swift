import Foundation
import TraderConfig

/// A config written to a fresh temporary folder, loaded like a command loads it.
struct ConfigFixture {
    let folder: URL
    let path: String

    init(_ text: String, name: String = "bot.yaml", dotEnv: String? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if let dotEnv { try dotEnv.write(to: folder.appendingPathComponent(".env"), atomically: true, encoding: .utf8) }
    }

    func load(environment: [String: String] = [:], flags: [ConfigOverride] = []) throws(ConfigError) -> LoadedConfiguration {
        try ConfigLoader.load(ConfigSources(files: [path], environment: environment, flags: flags))
    }

    /// The error loading gives, or `nil` when it loads.
    func error(environment: [String: String] = [:], flags: [ConfigOverride] = []) -> ConfigError? {
        do {
            _ = try load(environment: environment, flags: flags)
            return nil
        } catch {
            return error
        }
    }
}

/// Loads YAML text (no file) and returns the error, if any.
func loadError(_ yaml: String, environment: [String: String] = [:], flags: [ConfigOverride] = []) -> ConfigError? {
    do {
        _ = try load(yaml, environment: environment, flags: flags)
        return nil
    } catch {
        return error
    }
}

/// Loads YAML text as if it were the file `bot.yaml`.
func load(
    _ yaml: String, environment: [String: String] = [:], flags: [ConfigOverride] = []
) throws(ConfigError) -> LoadedConfiguration {
    var sources = ConfigSources()
    sources.embedded = (yaml, "bot.yaml")
    sources.environment = environment
    sources.flags = flags
    return try ConfigLoader.load(sources)
}
