import Foundation
import TraderConfig

/// The config file's fuzz body, apart from `FuzzTargets`: the schema pulls in the live stack, which the CI's fuzz
/// build does without (`scripts/fuzz.sh config-file` and `--campaign` build it).
public enum ConfigFuzz {
    /// The target by name, as `FuzzTargets.all` lists the others.
    public static let target: (name: String, run: @Sendable (UnsafeRawBufferPointer) -> Void) = ("config-file", configFile)

    /// A config file's text (YAML, or JSON when it starts with `{`) through the whole loader: parsing, the schema's
    /// keys and ranges, the strategies' parameters, the cross-checks. Every input must load or give a `ConfigError`.
    public static func configFile(_ bytes: UnsafeRawBufferPointer) {
        let text = String(decoding: bytes, as: UTF8.self)
        var sources = ConfigSources()
        sources.embedded = (text: text, name: text.hasPrefix("{") ? "fuzz.json" : "fuzz.yaml")
        sources.readsDotEnv = false
        _ = try? ConfigLoader.load(sources)
    }
}
