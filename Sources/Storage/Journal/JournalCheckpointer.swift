import Dispatch
import Foundation
import GRDB
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checkpoints a `.manual` journal every `interval` on a thread of its own (`OrderJournal.startBackgroundCheckpoints`).
///
/// Why a thread: the live runner's loop and its synchronous bar path share one session thread, and a checkpoint
/// that copies the WAL and `fsync`s the database file takes milliseconds; on the tick a bar arriving meanwhile
/// waited for it. Not the cooperative pool either: a blocking `fsync` there holds one of two threads.
///
/// Why its own connection: GRDB's pool runs every write on one writer connection, one at a time, so a checkpoint
/// run there holds the writer for its whole copy and sync, and the runner's `sent`, status and fill writes wait.
/// A PASSIVE checkpoint needs no write lock (SQLite copies committed frames while writers append new ones), so it
/// runs on a separate read-write connection and the writer is held only for two short accesses: reading its change
/// count (nothing new: no checkpoint) and, after a complete copy, the one-page write that restarts the WAL
/// (`OrderJournal.restartWAL`, ≈ 170 µs with its header sync) — done on the writer rather than here, because a
/// write here would make a concurrent writer fail its lock and sleep in SQLite's busy handler (1 ms and more).
/// The connection has the journal's `synchronous` level, so the checkpoint syncs the WAL before copying, as before.
final class JournalCheckpointer: Sendable {
    private struct State {
        var rounds = 0
        var failing = false
        var thread: pthread_t?
    }

    private let stopSignal = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let state = Mutex(State())
    private let connection: DatabaseQueue

    /// Opens the checkpoint connection and starts the thread.
    /// - Parameters:
    ///   - journal: held weakly: dropping the journal's last reference ends the thread after its current round.
    ///   - interval: time between two checkpoints.
    ///   - synchronous: the journal's level (`FULL` or `NORMAL`).
    ///   - onFailure: called on the thread for the first failure of a streak (then not again until one succeeds).
    init(
        journal: OrderJournal, interval: Duration, synchronous: String,
        onFailure: @escaping @Sendable (OrderJournalError) -> Void
    ) throws(OrderJournalError) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "ibtrader-journal-checkpoint"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
        do {
            connection = try DatabaseQueue(path: journal.path, configuration: configuration)
        } catch {
            throw .database(path: journal.path, operation: "open the checkpoint connection", reason: "\(error)")
        }
        let timeout = Self.dispatchInterval(interval)
        let thread = Thread { [weak journal, self] in
            // Named from inside: corelibs Foundation sets the system name only for the current thread, and Linux keeps
            // at most 15 characters (a longer name is not set at all).
            Thread.current.name = "ibt-checkpoint"
            Self.lowerPriority()
            state.withLock { $0.thread = pthread_self() }
            while stopSignal.wait(timeout: .now() + timeout) == .timedOut {
                guard let journal else { break }
                do throws(OrderJournalError) {
                    _ = try journal.checkpoint(concurrentlyOn: connection)
                    state.withLock {
                        $0.rounds += 1
                        $0.failing = false
                    }
                } catch {
                    let first = state.withLock { state in
                        defer { state.failing = true }
                        return !state.failing
                    }
                    if first { onFailure(error) }
                }
            }
            ended.signal()
        }
        thread.start()
    }

    /// Checkpoints completed (the tests wait for one).
    var rounds: Int { state.withLock { $0.rounds } }

    /// Stops the thread, waits for its current round to end (at most 5 s), then closes the connection. Called from
    /// the thread itself (the journal's last reference dropped there), it only signals.
    func stop() {
        stopSignal.signal()
        let onThread = state.withLock { state in state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        guard !onThread else { return }
        _ = ended.wait(timeout: .now() + .seconds(5))
        try? connection.close()
    }

    /// A nice value of 10 for the calling thread: on Linux `setpriority(PRIO_PROCESS, 0, …)` is per thread, so the
    /// bot's other threads keep theirs; raising it needs no privilege. Elsewhere, a background quality of service.
    private static func lowerPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #else
            Thread.current.qualityOfService = .utility
        #endif
    }

    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return .nanoseconds(overflow ? .max : Int(scaled &+ attoseconds / 1_000_000_000))
    }
}
