import Foundation
import TraderConfig

extension FuzzTargets {
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
