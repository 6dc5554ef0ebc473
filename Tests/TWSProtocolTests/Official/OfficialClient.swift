import Foundation
import Testing
import TWSTestSupport

/// IB's official Python client (`ibapi-latest`, pinned by scripts/setup-python.sh in the venv that IBTRADER_PYTHON
/// names), run at test time through `Tests/Interop/ibapi_vectors.py`: its outputs are the expected values of the
/// protobuf conformance tests. Nothing of IB's code is kept in the repository.
///
/// Without IBTRADER_PYTHON the tests are skipped on a developer's machine; under CI (`CI` set) they run and fail,
/// so a missing venv cannot pass unnoticed.
enum OfficialClient {
    static let python = ProcessInfo.processInfo.environment["IBTRADER_PYTHON"] ?? ""
    static let isCI = ProcessInfo.processInfo.environment["CI"] != nil
    /// Whether the official-client tests run: with a python, or under CI (where a missing one fails them).
    static let runs = !python.isEmpty || isCI

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop/ibapi_vectors.py")

    /// The JSON lines the script prints in `mode`.
    static func records(_ mode: String) async throws -> [TWSJSON] {
        guard !python.isEmpty else {
            throw OfficialClientError("IBTRADER_PYTHON is not set: run scripts/setup-python.sh and export its python")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, mode]
        process.currentDirectoryURL = script.deletingLastPathComponent()
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes drain at once: a child that fills one while we wait on the other would never end.
        async let errorData = errors.fileHandleForReading.readAll()
        let data = await output.fileHandleForReading.readAll()
        let errorText = String(decoding: await errorData, as: UTF8.self)
        await process.exited()
        guard process.terminationStatus == 0 else {
            throw OfficialClientError("ibapi_vectors.py \(mode) exited \(process.terminationStatus): \(errorText)")
        }
        let decoder = JSONDecoder()
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            try decoder.decode(TWSJSON.self, from: Data(line.utf8))
        }
    }
}

struct OfficialClientError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
