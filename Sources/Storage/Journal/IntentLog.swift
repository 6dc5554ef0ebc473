import Foundation
import Synchronization
import TradingModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The append-only file in front of the journal's `intents` table (`<journal>-intents`): the order path appends a
/// group's intents here, with one `pwrite(2)`, instead of committing a SQLite transaction; the journal moves them
/// into SQLite (insert-if-missing) on its next operation, and starts the file over on `checkpoint()` or `close()`;
/// whoever opens the journal next does the same after a crash.
///
/// One process owns the file at a time: the owner holds an exclusive `flock` on it for as long as it has it open
/// (the kernel drops the lock when the process dies, `kill -9` included). Only the owner appends, reads or empties
/// it; any other process writes its intents to SQLite directly and leaves the file alone.
///
/// Durability as the journal's: `.processCrashSafe` appends without `fdatasync` (the page cache outlives the
/// process, as SQLite's WAL at NORMAL does), as a copy into a shared mapping of the preallocated file (no system
/// call); `.full` appends with `pwrite` and runs `fdatasync` before an append returns.
///
/// The file is not truncated: the owner preallocates it (zeros, `preallocatedBytes`), writes each frame followed by
/// an end marker at its write offset (`pwrite`), and once everything is drained (on a checkpoint) writes the end
/// marker at offset 0 and starts over. So an append neither allocates a block nor changes the file's size, which is
/// what a truncation and the next write cost (≈ 9 µs measured on this VM's ext4) and what makes `fdatasync` flush
/// metadata. Records of earlier rounds stay behind the end marker; a crash that tears a frame lets the reader
/// resynchronise into them, and inserting them again changes nothing (they were drained before the round ended).
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

    /// The space written with zeros when the log is taken: a round of appends up to this size never grows the file.
    static let preallocatedBytes = 64 * 1024

    /// The file.
    let path: String
    /// `fdatasync` before an append returns (`.full`).
    let syncsEachAppend: Bool
    private let state = Mutex(State())

    private struct State {
        /// The owned file, or -1.
        var descriptor: Int32 = -1
        /// Where the records end: the end marker's offset, where the next frame goes.
        var length = 0
        /// How much of the records is in SQLite already: a drain reads from here. The log starts over only on a
        /// checkpoint (`truncating` drains); what a crash leaves before this offset is read again at the next open, and
        /// inserting it again changes nothing.
        var drained = 0
        /// The frame being written, kept between appends so an append allocates nothing once warm.
        var buffer: [UInt8] = []
        /// `close()` ran: appends and acquisitions fail.
        var closed = false
        /// Appends that ran `fdatasync` (tests check that `.full` does).
        var syncedAppends = 0
        /// At `.processCrashSafe`: the file's first `mappedBytes` mapped shared, so an append within them is a
        /// `memcpy` into the page cache, with no system call (`append`).
        var mapping: UnsafeMutableRawPointer?
        var mappedBytes = 0
        /// Appends that went through the mapping (tests).
        var mappedAppends = 0
    }

    init(path: String, syncsEachAppend: Bool) {
        self.path = path
        self.syncsEachAppend = syncsEachAppend
    }

    deinit {
        // Closing the descriptor drops the lock; the records stay for whoever opens the journal next.
        state.withLock { state in
            Self.unmap(&state)
            if state.descriptor >= 0 { _ = close(state.descriptor) }
        }
    }

    /// Whether this journal owns the file (its intents go there).
    var isOwned: Bool { state.withLock { $0.descriptor >= 0 } }

    /// Whether the owned file holds bytes a drain has not taken yet (cheap: no system call).
    var hasRecords: Bool { state.withLock { $0.descriptor >= 0 && $0.length > $0.drained } }

    /// How many appends ran `fdatasync` so far.
    var syncedAppends: Int { state.withLock { $0.syncedAppends } }

    /// How many appends were a copy into the mapped file so far.
    var mappedAppends: Int { state.withLock { $0.mappedAppends } }

    /// Opens the file and takes its lock without waiting.
    /// - Parameter create: create the file when missing (an owner that will append); `false`: only drain one.
    /// - Returns: `.owned`, `.busy` (another process owns it) or `.missing`.
    /// - Throws: `OrderJournalError.database` when the file cannot be opened or locked (not when busy).
    func acquire(create: Bool) throws(OrderJournalError) -> Acquisition {
        try state.withLock { state throws(OrderJournalError) -> Acquisition in
            if state.closed { throw failure("open", reason: "the journal is closed") }
            if state.descriptor >= 0 { return .owned }
            let descriptor = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), PrivateFile.permissions)
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
            var size = Int(info.st_size)
            if create, size < Self.preallocatedBytes {
                let zeros = [UInt8](repeating: 0, count: Self.preallocatedBytes - size)
                var code = zeros.withUnsafeBytes { Self.writeAll(descriptor, $0, at: size) }
                if code == 0, syncsEachAppend {
                    code = fsync(descriptor) == 0 ? 0 : errno
                    // At `.full` the file's directory entry must survive a power loss too, not only its bytes.
                    let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
                    if folder >= 0 {
                        _ = fsync(folder)
                        _ = close(folder)
                    }
                }
                if code != 0 {
                    _ = close(descriptor)
                    throw failure("preallocate", errno: code)
                }
                size = Self.preallocatedBytes
            }
            state.descriptor = descriptor
            // Until the first drain (right after this) finds the end marker, the records may reach the file's end.
            state.length = size
            state.drained = 0
            if create, !syncsEachAppend { Self.map(&state, bytes: size) }
            return .owned
        }
    }

    /// Gives the file up (closing the descriptor drops the lock), without draining it.
    /// - Parameter closing: `true` at the journal's `close()`: later appends fail instead of falling back.
    func release(closing: Bool) {
        state.withLock { state in
            Self.unmap(&state)
            if state.descriptor >= 0 { _ = close(state.descriptor) }
            state.descriptor = -1
            state.length = 0
            state.drained = 0
            if closing { state.closed = true }
        }
    }

    /// Appends one order group as one frame and the end marker after it, with one `pwrite(2)` (more only if the
    /// kernel writes it short), and `fdatasync` at `.full`.
    /// - Returns: `false` when this journal does not own the file (the caller writes to SQLite instead).
    /// - Throws: `OrderJournalError.database` when the write or sync failed (the frame's marker is zeroed, best
    ///   effort, so a later reader does not take it, and the next append overwrites it), or after `close()`.
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
            let frame = state.buffer.count
            state.buffer.append(contentsOf: IntentLogCodec.endMarker)
            let (descriptor, offset) = (state.descriptor, state.length)
            if let mapping = state.mapping, offset + state.buffer.count <= state.mappedBytes {
                // The frame and its end marker copied into the page cache: as safe against a process crash as
                // `pwrite` (the page cache outlives the process), without the system call (≈ 40 µs cold inside the
                // bot on this VM). A crash in the middle tears the frame, which the reader handles as for `pwrite`.
                state.buffer.withUnsafeBytes { bytes in
                    (mapping + offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
                }
                state.length += frame
                state.mappedAppends += 1
                return true
            }
            var code = state.buffer.withUnsafeBytes { Self.writeAll(descriptor, $0, at: offset) }
            if code == 0, syncsEachAppend {
                code = Self.syncData(descriptor)
                state.syncedAppends += 1
            }
            if code != 0 {
                // The caller does not send: make sure no reader takes the frame for an intent (best effort).
                _ = IntentLogCodec.endMarker.withUnsafeBytes { Self.writeAll(descriptor, $0, at: offset) }
                throw failure("append intents", errno: code)
            }
            state.length += frame
            return true
        }
    }

    /// Reads what the owned file holds beyond the drained offset and hands its records to `commit` (empty when there
    /// are none or the file is not owned); once `commit` returns, those bytes count as drained. Appends wait
    /// meanwhile. A `commit` that throws leaves everything as it was.
    /// - Parameters:
    ///   - truncating: also start the log over once everything in it is drained (a checkpoint, `close()`, a takeover):
    ///     the end marker at offset 0. If that write fails the log simply goes on after the drained records.
    ///   - commit: inserts the records (one transaction).
    /// - Throws: what `commit` throws, or `OrderJournalError.database` when the file cannot be read.
    func drain(
        truncating: Bool, _ commit: (IntentLogContents) throws(OrderJournalError) -> Void
    ) throws(OrderJournalError) {
        try state.withLock { state throws(OrderJournalError) in
            let descriptor = state.descriptor
            if descriptor >= 0, state.length > state.drained {
                let start = state.drained
                let contents: IntentLogContents
                if let mapping = state.mapping, state.length <= state.mappedBytes {
                    // Read where the appends wrote: the mapping is the file's page cache, as `pread` would read it,
                    // without the system call and the copy (the drain runs after every order at NORMAL).
                    let bytes = UnsafeRawBufferPointer(start: mapping + start, count: state.length - start)
                    contents = IntentLogCodec.decode(bytes, base: start)
                } else {
                    var bytes = [UInt8](repeating: 0, count: state.length - start)
                    let code = bytes.withUnsafeMutableBytes { Self.readAll(descriptor, $0, from: start) }
                    if code != 0 { throw failure("read intents", errno: code) }
                    contents = bytes.withUnsafeBytes { IntentLogCodec.decode($0, base: start) }
                }
                try commit(contents)
                (state.length, state.drained) = (contents.end, contents.end)
            } else {
                try commit(IntentLogContents())
            }
            if truncating, descriptor >= 0, state.length > 0,
                IntentLogCodec.endMarker.withUnsafeBytes({ Self.writeAll(descriptor, $0, at: 0) }) == 0
            {
                (state.length, state.drained) = (0, 0)
            }
        }
    }

    // MARK: - System calls

    /// Maps the file's first `bytes` shared (read-write), prefaulted where the system can; without a mapping,
    /// appends use `pwrite`. Only the preallocated region is mapped: the file is never truncated by its owner, and
    /// appends past it use `pwrite`. (Truncating the file under a running bot would make an append fault, SIGBUS.)
    private static func map(_ state: inout State, bytes: Int) {
        guard state.mapping == nil, bytes > 0 else { return }
        #if os(Linux)
            let flags = MAP_SHARED | MAP_POPULATE
        #else
            let flags = MAP_SHARED
        #endif
        guard let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, flags, state.descriptor, 0),
            address != UnsafeMutableRawPointer(bitPattern: -1)
        else { return }
        state.mapping = address
        state.mappedBytes = bytes
    }

    private static func unmap(_ state: inout State) {
        if let mapping = state.mapping { _ = munmap(mapping, state.mappedBytes) }
        state.mapping = nil
        state.mappedBytes = 0
    }

    /// Writes every byte at `offset` (retrying short writes and EINTR); 0 or the errno.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let count = pwrite(descriptor, base + done, bytes.count - done, off_t(offset + done))
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
