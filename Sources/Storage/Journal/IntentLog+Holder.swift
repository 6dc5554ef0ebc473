import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a running bot has a journal open, as its intent log's lock tells (`OrderJournal.intentLogHolder`).
public enum IntentLogHolder: Hashable, Sendable {
    /// Nobody holds the lock: no bot runs on this journal (or none has since it was created).
    case none
    /// An open file description holds the exclusive lock: a bot (`ibtrader run`, or any journal opened with
    /// `.manual` checkpoints) has the journal open; `pid` is its process where the system says (Linux `/proc/locks`).
    case held(pid: Int32?)
}

extension OrderJournal {
    /// Who holds the journal's intent log now. The live runner's journal holds an exclusive `flock` on
    /// `<journal>-intents` from its open to its close (the kernel drops it when the process dies, `kill -9`
    /// included), so a held lock means a bot runs, and a journal whose latest run has no recorded stop but whose lock
    /// is free belonged to a bot that was killed. The probe takes a shared lock without waiting and drops it at once.
    /// - Parameter journalPath: the journal's SQLite file.
    /// - Returns: `.none` when the log is missing or free, `.held` otherwise.
    /// - Throws: `OrderJournalError.database` when the file exists but cannot be opened or probed.
    public static func intentLogHolder(journalPath: String) throws(OrderJournalError) -> IntentLogHolder {
        let path = intentLogPath(for: journalPath)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
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
        guard code == EWOULDBLOCK else {
            throw probeFailure(journalPath, code)
        }
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
    .database(path: journalPath, operation: "probe the intent log", reason: String(cString: strerror(code)))
}

/// `close(2)`, out of `OrderJournal`'s scope (its `close()` shadows it there).
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
