import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a running bot has a journal open, as the journal's lock file tells (`OrderJournal.holder`).
public enum JournalHolder: Hashable, Sendable {
    /// Nobody holds the lock: no bot runs on this journal (or none has since it was created).
    case none
    /// An open file description holds the exclusive lock: a bot (`ibtrader run`, or any journal opened with
    /// `.manual` checkpoints) has the journal open; `pid` is its process where the system says (Linux `/proc/locks`).
    case held(pid: Int32?)
}

/// The exclusive `flock` a running bot's journal holds on `<journal>-lock` from its open to its close. The kernel
/// drops it when the process dies (`kill -9` included), so a held lock means a bot runs, and a journal whose latest
/// run has no recorded stop but whose lock is free belonged to a bot that was killed.
final class JournalLock: Sendable {
    private let descriptor = Mutex<Int32>(-1)
    let path: String

    init(journalPath: String) { path = OrderJournal.lockPath(for: journalPath) }

    /// Takes the lock without waiting. `false` when another process holds it (the journal still works: only
    /// `ibtrader risk reset` reads the lock).
    func acquire() -> Bool {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { return true }
            let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard opened >= 0 else { return false }
            guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
                _ = close(opened)
                return false
            }
            descriptor = opened
            return true
        }
    }

    /// Whether this process holds it.
    var isHeld: Bool { descriptor.withLock { $0 >= 0 } }

    /// Gives the lock up.
    func release() {
        descriptor.withLock { descriptor in
            if descriptor >= 0 { _ = close(descriptor) }
            descriptor = -1
        }
    }

    deinit { release() }
}

extension OrderJournal {
    /// Whether this journal holds its lock file (a bot's `.manual` journal, unless another process held it first).
    public var holdsLock: Bool { lock.isHeld }

    /// The lock file of a journal: `<journal path>-lock`, beside SQLite's `-wal` and `-shm`.
    public static func lockPath(for journalPath: String) -> String { journalPath + "-lock" }

    /// Who holds the journal's lock now. The probe takes a shared lock without waiting and drops it at once.
    /// - Parameter journalPath: the journal's SQLite file.
    /// - Returns: `.none` when the lock file is missing or free, `.held` otherwise.
    /// - Throws: `OrderJournalError.database` when the file exists but cannot be opened or probed.
    public static func holder(journalPath: String) throws(OrderJournalError) -> JournalHolder {
        let descriptor = open(lockPath(for: journalPath), O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return .none }
            throw probeFailure(journalPath, errno)
        }
        defer { closeDescriptor(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            _ = flock(descriptor, LOCK_UN)
            return .none
        }
        let code = errno
        guard code == EWOULDBLOCK else { throw probeFailure(journalPath, code) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .held(pid: nil) }
        return .held(pid: lockHolder(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    /// The pid `/proc/locks` gives for the FLOCK on this file (Linux; `nil` elsewhere or when not listed). Its lines
    /// read `1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF`: the device's major and minor in hex, the inode in
    /// decimal; waiting requests (`1: -> FLOCK …`) are skipped.
    static func lockHolder(device: UInt64, inode: UInt64) -> Int32? {
        guard let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        // glibc's encoding of dev_t (gnu_dev_major / gnu_dev_minor).
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let wanted = String(format: "%02llx:%02llx:%llu", major, minor, inode)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE", fields[5] == wanted else { continue }
            return Int32(fields[4])
        }
        return nil
    }
}

private func probeFailure(_ journalPath: String, _ code: Int32) -> OrderJournalError {
    .database(path: journalPath, operation: "probe the journal's lock", reason: String(cString: strerror(code)))
}

/// `close(2)`, out of `OrderJournal`'s scope (its `close()` shadows it there).
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
