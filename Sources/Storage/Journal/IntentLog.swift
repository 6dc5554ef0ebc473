import Foundation
import Synchronization
import TradingModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The append-only file in front of the journal's `intents` table (`<journal>-intents`): the order path appends a
/// group's intents here, with one `write(2)`, instead of committing a SQLite transaction; the journal moves them into
/// SQLite (insert-if-missing) and empties the file on its next operation, `checkpoint()` or `close()`, and whoever
/// opens the journal next does the same after a crash.
///
/// One process owns the file at a time: the owner holds an exclusive `flock` on it for as long as it has it open
/// (the kernel drops the lock when the process dies, `kill -9` included). Only the owner appends, reads or empties
/// it; any other process writes its intents to SQLite directly and leaves the file alone.
///
/// Durability as the journal's: `.processCrashSafe` appends without `fdatasync` (the page cache outlives the
/// process, as SQLite's WAL at NORMAL does); `.full` runs `fdatasync` before an append returns.
final class IntentLog: Sendable {
    /// What `acquire` found.
    enum Acquisition: Equatable {
        /// This journal owns the file now (or did already).
        case owned
        /// Another process holds the lock.
        case busy
        /// No file, and the caller asked not to create one.
        case missing
    }

    /// The file.
    let path: String
    /// `fdatasync` before an append returns (`.full`).
    let syncsEachAppend: Bool
    private let state = Mutex(State())

    private struct State {
        /// The owned file, or -1.
        var descriptor: Int32 = -1
        /// The file's length (only the owner writes it).
        var length = 0
        /// How much of it is in SQLite already: a drain reads from here. The file is emptied only on the tick
        /// (`truncating` drains), so the order path's appends mostly land in a block already allocated; what a crash
        /// leaves before this offset is read again at the next open, and inserting it again changes nothing.
        var drained = 0
        /// The frame being written, kept between appends so an append allocates nothing once warm.
        var buffer: [UInt8] = []
        /// `close()` ran: appends and acquisitions fail.
        var closed = false
        /// Appends that ran `fdatasync` (tests check that `.full` does).
        var syncedAppends = 0
    }

    init(path: String, syncsEachAppend: Bool) {
        self.path = path
        self.syncsEachAppend = syncsEachAppend
    }

    deinit {
        // Closing the descriptor drops the lock; the records stay for whoever opens the journal next.
        state.withLock { state in
            if state.descriptor >= 0 { _ = close(state.descriptor) }
        }
    }

    /// Whether this journal owns the file (its intents go there).
    var isOwned: Bool { state.withLock { $0.descriptor >= 0 } }

    /// Whether the owned file holds bytes a drain has not taken yet (cheap: no system call).
    var hasRecords: Bool { state.withLock { $0.descriptor >= 0 && $0.length > $0.drained } }

    /// How many appends ran `fdatasync` so far.
    var syncedAppends: Int { state.withLock { $0.syncedAppends } }

    /// Opens the file and takes its lock without waiting.
    /// - Parameter create: create the file when missing (an owner that will append); `false`: only drain one.
    /// - Returns: `.owned`, `.busy` (another process owns it) or `.missing`.
    /// - Throws: `OrderJournalError.database` when the file cannot be opened or locked (not when busy).
    func acquire(create: Bool) throws(OrderJournalError) -> Acquisition {
        try state.withLock { state throws(OrderJournalError) -> Acquisition in
            if state.closed { throw failure("open", reason: "the journal is closed") }
            if state.descriptor >= 0 { return .owned }
            let descriptor = open(path, O_RDWR | O_APPEND | O_CLOEXEC | (create ? O_CREAT : 0), 0o644)
            if descriptor < 0 {
                if errno == ENOENT, !create { return .missing }
                throw failure("open", errno: errno)
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                _ = close(descriptor)
                if code == EWOULDBLOCK { return .busy }
                throw failure("lock", errno: code)
            }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                let code = errno
                _ = close(descriptor)
                throw failure("stat", errno: code)
            }
            if create, syncsEachAppend {
                // At `.full` the file's directory entry must survive a power loss too, not only its bytes.
                let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
                if folder >= 0 {
                    _ = fsync(folder)
                    _ = close(folder)
                }
            }
            state.descriptor = descriptor
            state.length = Int(info.st_size)
            state.drained = 0
            return .owned
        }
    }

    /// Gives the file up (closing the descriptor drops the lock), without draining it.
    /// - Parameter closing: `true` at the journal's `close()`: later appends fail instead of falling back.
    func release(closing: Bool) {
        state.withLock { state in
            if state.descriptor >= 0 { _ = close(state.descriptor) }
            state.descriptor = -1
            state.length = 0
            state.drained = 0
            if closing { state.closed = true }
        }
    }

    /// Appends one order group as one frame, with one `write(2)` (more only if the kernel writes it short), and
    /// `fdatasync` at `.full`.
    /// - Returns: `false` when this journal does not own the file (the caller writes to SQLite instead).
    /// - Throws: `OrderJournalError.database` when the write or sync failed (the partial frame is cut off again),
    ///   or after `close()`.
    func append(_ group: [JournalIntent]) throws(OrderJournalError) -> Bool {
        try state.withLock { state throws(OrderJournalError) -> Bool in
            if state.closed { throw failure("append intents", reason: "the journal is closed") }
            guard state.descriptor >= 0 else { return false }
            state.buffer.removeAll(keepingCapacity: true)
            do {
                try IntentLogCodec.appendFrame(group, to: &state.buffer)
            } catch {
                throw failure("append intents", reason: "cannot encode: \(error)")
            }
            let descriptor = state.descriptor
            var code = state.buffer.withUnsafeBytes { Self.writeAll(descriptor, $0) }
            if code == 0, syncsEachAppend {
                code = Self.syncData(descriptor)
                state.syncedAppends += 1
            }
            if code != 0 {
                // No half frame left behind for the next append to follow (and no unsynced intent at `.full`).
                _ = ftruncate(descriptor, off_t(state.length))
                throw failure("append intents", errno: code)
            }
            state.length += state.buffer.count
            return true
        }
    }

    /// Reads what the owned file holds beyond the drained offset and hands its records to `commit` (empty when there
    /// are none or the file is not owned); once `commit` returns, those bytes count as drained. Appends wait
    /// meanwhile. A `commit` that throws leaves everything as it was.
    /// - Parameters:
    ///   - truncating: also empty the file once everything in it is drained (the tick, `close()`, a takeover). A
    ///     truncation that fails is not an error: the bytes are read again later, and inserting them is idempotent.
    ///   - commit: inserts the records (one transaction).
    /// - Throws: what `commit` throws, or `OrderJournalError.database` when the file cannot be read.
    func drain(
        truncating: Bool, _ commit: (IntentLogContents) throws(OrderJournalError) -> Void
    ) throws(OrderJournalError) {
        try state.withLock { state throws(OrderJournalError) in
            guard state.descriptor >= 0, state.length > state.drained else {
                try commit(IntentLogContents())
                if truncating, state.descriptor >= 0, state.length > 0, ftruncate(state.descriptor, 0) == 0 {
                    (state.length, state.drained) = (0, 0)
                }
                return
            }
            let descriptor = state.descriptor
            let start = state.drained
            var bytes = [UInt8](repeating: 0, count: state.length - start)
            let code = bytes.withUnsafeMutableBytes { Self.readAll(descriptor, $0, from: start) }
            if code != 0 { throw failure("read intents", errno: code) }
            try commit(bytes.withUnsafeBytes { IntentLogCodec.decode($0, base: start) })
            state.drained = state.length
            if truncating, ftruncate(descriptor, 0) == 0 { (state.length, state.drained) = (0, 0) }
        }
    }

    // MARK: - System calls

    /// Writes every byte (retrying short writes and EINTR); 0 or the errno.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let count = write(descriptor, base + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += count
        }
        return 0
    }

    /// Fills the buffer from `offset` on; 0 or the errno (EIO when the file is shorter than expected).
    private static func readAll(_ descriptor: Int32, _ bytes: UnsafeMutableRawBufferPointer, from offset: Int) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let count = pread(descriptor, base + done, bytes.count - done, off_t(offset + done))
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count == 0 { return EIO }
            done += count
        }
        return 0
    }

    private static func syncData(_ descriptor: Int32) -> Int32 {
        #if os(Linux)
            let result = fdatasync(descriptor)
        #else
            let result = fsync(descriptor)
        #endif
        return result == 0 ? 0 : errno
    }

    private func failure(_ operation: String, errno code: Int32) -> OrderJournalError {
        failure(operation, reason: "\(String(cString: strerror(code))) (errno \(code))")
    }

    private func failure(_ operation: String, reason: String) -> OrderJournalError {
        .database(path: path, operation: operation, reason: reason)
    }
}
