import TWSClient

/// Runs `body`, its child tasks and the default actors they call on a thread of its own instead of the shared pool:
/// a one-thread event loop as their task executor (`TWSSessionThread`, the one a live session runs on).
///
/// Why: Swift concurrency's pool has one thread per core (two on the CI machine). While CPU-bound tests (backtests,
/// fuzz campaigns, sandboxes) hold both, a loopback test's handshake, simulator and 10-second timeout all wait for a
/// turn, and the timeout can win once a thread frees. On a thread of its own the test shares the cores through the
/// kernel's scheduler like any process, however busy the pool is. Used by the tests that talk to a real socket on
/// the wall clock and by the CPU-bound suites (`.ownThread`); virtual-time tests run on their `VirtualLoop` instead.
public func onOwnThread<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
    try await TWSSessionThread.run { _ in try await body() }
}
