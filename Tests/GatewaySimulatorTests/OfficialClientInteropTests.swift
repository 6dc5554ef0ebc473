import Foundation
import GatewayCore
import GatewaySimulator
import Testing

/// IB's official Python client (ibapi-latest, pinned by scripts/setup-python.sh) against the simulator at server
/// version 226: binary message ids and protobuf both ways. Skipped on a machine without IBTRADER_PYTHON; under CI
/// (`CI` set) it runs and fails without it.
@Suite struct OfficialClientInteropTests {
    static let python = ProcessInfo.processInfo.environment["IBTRADER_PYTHON"] ?? ""
    static let runs = !python.isEmpty || ProcessInfo.processInfo.environment["CI"] != nil

    @Test(.enabled(if: runs, "set IBTRADER_PYTHON to the python of scripts/setup-python.sh (.venv)"),
          .timeLimit(.minutes(3)))
    func sessionAtServerVersion226() async throws {
        try #require(!Self.python.isEmpty, "IBTRADER_PYTHON is not set: run scripts/setup-python.sh")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/ibapi_session.py")
        let data = try MarketDataSet.bundled(.stocksUnadjusted)
        let (status, output) = try await withSimulator(clock: .speed(60, tick: 0.05), data: data) { _, port in
            try await IbAsyncInteropTests.run(Self.python, [script.path, "--port", String(port), "--timeout", "90"])
        }
        #expect(status == 0, "official client session failed:\n\(output)")
        #expect(output.contains("PASS"), "\(output)")
    }
}
