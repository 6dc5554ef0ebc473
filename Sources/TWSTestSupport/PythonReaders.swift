import Foundation
import TradingModel

/// pyarrow, DuckDB and Polars (pinned by scripts/setup-python.sh in the venv that IBTRADER_PYTHON names), reading
/// Parquet files we write through Tests/Interop/parquet_read.py. Without IBTRADER_PYTHON the tests that use it are
/// skipped on a developer's machine; under CI (`CI` set) they run and fail, so a missing venv cannot pass unnoticed.
public enum PythonReaders {
    public static let python = ProcessInfo.processInfo.environment["IBTRADER_PYTHON"] ?? ""
    /// Whether the reader tests run: with a python, or under CI (where a missing one fails them).
    public static let runs = !python.isEmpty || ProcessInfo.processInfo.environment["CI"] != nil
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/Interop/parquet_read.py")

    /// What one reader saw: the columns in its order with their Arrow types, and every row as text.
    public struct View: Decodable, Sendable {
        public var columns: [String]
        public var types: [String]
        public var rows: [[String]]

        /// Each column's Arrow type by name.
        public var schema: [String: String] { Dictionary(uniqueKeysWithValues: zip(columns, types)) }

        /// The rows cut to `names`, in that order (rows sorted, for readers that order a dataset's files differently).
        public func rows(_ names: [String]) -> [[String]] {
            let indices = names.map { name in columns.firstIndex(of: name) ?? -1 }
            return rows.map { row in indices.map { $0 >= 0 && $0 < row.count ? row[$0] : "(missing)" } }
                .sorted { $0.lexicographicallyPrecedes($1) }
        }
    }

    /// What each reader saw, by reader name.
    public static func read(_ path: String, hive: Bool = false) async throws -> [String: View] {
        guard !python.isEmpty else {
            throw ReaderError(description: "IBTRADER_PYTHON is not set: run scripts/setup-python.sh and export its python")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, path] + (hive ? ["hive"] : [])
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes drain at once: a child that fills one while we wait on the other would never end.
        async let errorData = Task.detached { errors.fileHandleForReading.readDataToEndOfFile() }.value
        let data = await Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
        let errorText = String(decoding: await errorData, as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ReaderError(description: "parquet_read.py exited \(process.terminationStatus): \(errorText)")
        }
        return try JSONDecoder().decode([String: View].self, from: data)
    }

    /// `2023-11-14T22:13:20.000000000Z`: `Timestamp`'s text with the nanoseconds written out.
    public static func iso(nanoseconds: Int64) -> String {
        let nanos = String((nanoseconds % 1_000_000_000 + 1_000_000_000) % 1_000_000_000)
        return Timestamp(nanoseconds: nanoseconds).description.dropLast() + "."
            + String(repeating: "0", count: 9 - nanos.count) + nanos + "Z"
    }

    /// `-0.50000000` for -50,000,000 at scale 8.
    public static func decimal(_ units: Int64, scale: Int) -> String {
        let magnitude = String(units.magnitude)
        let padded = String(repeating: "0", count: max(0, scale + 1 - magnitude.count)) + magnitude
        return (units < 0 ? "-" : "") + padded.dropLast(scale) + "." + padded.suffix(scale)
    }

    public struct ReaderError: Error, CustomStringConvertible { public var description: String }
}
