import Foundation

// Swift concurrency runs every task on one thread per core: two on this machine. A test that blocks one of them
// (waiting for a child process, reading a pipe to its end, a blocking socket read) halves the pool for every other
// test for as long; two such tests starve it, and loopback handshakes with 10-second timeouts then fail together.
// Blocking work in tests goes through `offPool` and runs on a thread of its own instead.

/// Runs `body`, which may block, on a thread of its own, and returns its result without holding a pool thread.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Runs `body`, which may block, on a thread of its own, and returns its result without holding a pool thread.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

extension Process {
    /// Waits for the process to end without holding a pool thread.
    public func exited() async {
        await offPool { self.waitUntilExit() }
    }
}

extension FileHandle {
    /// Reads to the end of the file (a child's pipe: until the child closes it) without holding a pool thread.
    public func readAll() async -> Data {
        await offPool { self.readDataToEndOfFile() }
    }

    /// Reads until the text so far contains `marker` or the file ends (a child's first line, its "ready" word), and
    /// returns that text. Blocks: inside `offPool`, or use `text(until:)`.
    public func readText(until marker: String) -> String {
        var text = ""
        while !text.contains(marker) {
            let chunk = availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// `readText(until:)` without holding a pool thread.
    public func text(until marker: String) async -> String {
        await offPool { self.readText(until: marker) }
    }
}
