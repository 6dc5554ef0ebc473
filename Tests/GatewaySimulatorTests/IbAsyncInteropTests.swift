import BundledData
import Foundation
import GatewayCore
import GatewaySimulator
import Testing

/// The real ib_async client (pinned by scripts/setup-python.sh) through a whole session against the simulator.
@Suite struct IbAsyncInteropTests {
    static let python = ProcessInfo.processInfo.environment["IBTRADER_PYTHON"] ?? ""
    /// Skipped (and said so) without a python on a developer's machine; under CI a missing one fails.
    static let runs = !python.isEmpty || ProcessInfo.processInfo.environment["CI"] != nil

    @Test(.enabled(if: runs, "set IBTRADER_PYTHON to the python of scripts/setup-python.sh (.venv)"),
          .timeLimit(.minutes(3)))
    func wholeSession() async throws {
        try #require(!Self.python.isEmpty, "IBTRADER_PYTHON is not set: run scripts/setup-python.sh")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/ib_async_session.py")
        let data = try MarketDataSet.bundled(.stocksUnadjusted)
        // On daily data one quote can fill up to the day's volume: a participation of 5,000 AAPL of it makes the
        // script's 12,000-share order fill in parts (ib_async's handling of partial executions), its 100 at once.
        var gateway = GatewayConfiguration()
        let aapl = try #require(data.instruments.first { $0.symbol == "AAPL" })
        let liquidity = try #require(QuoteModel.top(aapl, at: data.defaultStart)).liquidity
        gateway.simulation.maxVolumeParticipation = 5_000 / liquidity.doubleValue
        let (status, output) = try await withSimulator(clock: .speed(60, tick: 0.05), data: data, gateway: gateway) { _, port in
            try await Self.run(Self.python, [script.path, "--port", String(port), "--timeout", "90"])
        }
        #expect(status == 0, "ib_async session failed:\n\(output)")
        #expect(output.contains("PASS"), "\(output)")
    }

    /// ib_async's own Future and Forex contracts against the simulator's bundled ES months and EUR.USD: qualified,
    /// traded, and its decoded fills, positions, portfolio and cash count the multiplier as IB's do
    /// (Interop/ib_async_futures_forex.py).
    @Test(.enabled(if: runs, "set IBTRADER_PYTHON to the python of scripts/setup-python.sh (.venv)"),
          .timeLimit(.minutes(3)), arguments: [("futures", BundledDataSet.futures), ("fx", BundledDataSet.fx)])
    func futuresAndCurrencies(kind: String, set: BundledDataSet) async throws {
        try #require(!Self.python.isEmpty, "IBTRADER_PYTHON is not set: run scripts/setup-python.sh")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/ib_async_futures_forex.py")
        let data = try MarketDataSet.bundled(set)
        let (status, output) = try await withSimulator(clock: .speed(60, tick: 0.05), data: data) { _, port in
            try await Self.run(Self.python, [script.path, "--port", String(port), "--kind", kind, "--timeout", "90"])
        }
        #expect(status == 0, "ib_async \(kind) session failed:\n\(output)")
        #expect(output.contains("PASS"), "\(output)")
    }

    /// Runs a process and collects its output without blocking a cooperative thread.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let collected = OutputBox()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { collected.append(data) }
        }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        pipe.fileHandleForReading.readabilityHandler = nil
        if let rest = try? pipe.fileHandleForReading.readToEnd() { collected.append(rest) }
        return (status, collected.text)
    }
}

/// Output bytes gathered from a readability handler thread.
final class OutputBox: @unchecked Sendable {
    // Guarded by `lock`: the handler runs on a Foundation thread, the test reads after termination.
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) {
        lock.lock()
        data.append(more)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
