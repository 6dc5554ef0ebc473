import Configuration
import Foundation

/// swift-configuration's YAML snapshot over YAML text held in memory.
///
/// `FileProvider<YAMLSnapshot>` reads a file; the embedded default of `ibtrader run --simulated` and the tests have
/// the YAML as text, so this provider parses the same way (`YAMLSnapshot`) without a file.
// The watch methods take `nonisolated(nonsending)` handlers: the library is built with NonisolatedNonsendingByDefault.
struct ConfigYAMLTextProvider: ConfigProvider {
    private let yaml: YAMLSnapshot

    /// Parses `text`.
    /// - Parameters:
    ///   - text: YAML whose top level is a mapping.
    ///   - name: the provider's name in access reports.
    /// - Throws: swift-configuration's YAML errors (not a mapping, a list holding mappings, …).
    init(text: String, name: String) throws {
        let data = Data(text.utf8)
        yaml = try YAMLSnapshot(data: data.bytes, providerName: name, parsingOptions: .default)
    }

    var providerName: String { yaml.providerName }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try yaml.value(forKey: key, type: type)
    }

    nonisolated(nonsending) func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws
        -> LookupResult
    {
        try value(forKey: key, type: type)
    }

    nonisolated(nonsending) func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler: nonisolated(nonsending) (
            _ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>
        ) async throws -> Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    func snapshot() -> any ConfigSnapshot { yaml }

    nonisolated(nonsending) func watchSnapshot<Return: ~Copyable>(
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>)
            async throws -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}
