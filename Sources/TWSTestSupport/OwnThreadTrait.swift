import Testing

/// Runs each test of a suite (or one test) on a thread of its own (`onOwnThread`) instead of the shared pool.
///
/// For CPU-bound tests (a backtest over hundreds of symbols, a bundled data set's whole history): on the pool, two
/// of them hold both of its threads (one per core) for tens of seconds, and every other test, a loopback handshake
/// with its 10-second timeout among them, waits. On threads of their own they share the cores through the kernel's
/// scheduler instead. Their child tasks follow them onto that thread, so a test that fans out runs its work in turn.
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self  // around each test case, not around the suite as a whole
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await onOwnThread { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test on a thread of its own (`OwnThreadTrait`).
    public static var ownThread: Self { Self() }
}
