import Foundation

/// A fresh folder under the system's temporary directory, removed when the test's body returns.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async rethrows -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-storage-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url.path)
}
