import FaultSoak
import Foundation
import LiveSession
import Logging
import Synchronization
import Testing
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import Storage

/// Where the journal's disk fills up: a small tmpfs of its own (Linux, as root, where `mount -t tmpfs` works), filled
/// to the last byte by a file beside the journal; elsewhere the journal's own page cap (`PRAGMA max_page_count`, a
/// test hook) makes every write that needs a new page fail with SQLITE_FULL.
///
/// While the tmpfs is full a reader holds a read transaction on the journal (as `ibtrader journal` or a backup would):
/// without one, SQLite rewinds its WAL after a complete checkpoint and reuses the space it already has, so the odd
/// write still succeeds on a full disk (and is durable: the bot takes it as the journal working, and an intent that
/// fits may go out). With it every write fails until the disk has room, which is the case the test is about.
final class FullDisk: Sendable {
    let directory: URL
    /// `true`: a real tmpfs; `false`: the page cap.
    let isTmpfs: Bool
    private let reader = Mutex<OrderJournal.HeldReader?>(nil)
    private var filler: URL { directory.appendingPathComponent("filler") }

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("fulldisk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        directory = base
        isTmpfs = ProcessInfo.processInfo.environment["IBTRADER_FULLDISK"] != "pages" && geteuid() == 0
            && Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", base.path]) == 0
    }

    var description: String { isTmpfs ? "a 16 MiB tmpfs filled to the last byte" : "the journal's page cap (PRAGMA max_page_count)" }

    /// Fills the disk (or caps the journal at its size).
    func fill(_ journal: OrderJournal) throws {
        guard isTmpfs else { return try journal.capPages(true) }
        let held = try journal.holdReader()
        reader.withLock { $0 = held }
        let fd = open(filler.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        for size in [1 << 16, 1 << 12, 1 << 9, 1] {
            let chunk = [UInt8](repeating: 0x5A, count: size)
            while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, size) }) > 0 {}
        }
    }

    /// Frees the disk again.
    func free(_ journal: OrderJournal) throws {
        guard isTmpfs else { return try journal.capPages(false) }
        try FileManager.default.removeItem(at: filler)
        reader.withLock { $0 = nil }
    }

    /// Unmounts and removes the directory.
    func remove() {
        if isTmpfs, Self.run("/bin/umount", [directory.path]) != 0 { _ = Self.run("/bin/umount", ["-l", directory.path]) }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Issue 25: a failing journal stops trading, shown on a real full disk. The bot trades against the simulator with its
/// journal on a small tmpfs; the disk fills up: a critical ALERT, and no order reaches the simulator while writes
/// fail — not after a resume asked while the disk is still full, nor once writes succeed again without the operator;
/// after the operator's resume orders flow again, and every order at the simulator has its intent in the journal.
@Suite("A full journal disk stops trading", .serialized, .timeLimit(.minutes(2)))
struct JournalFullDiskTests {
    @Test("full disk: ALERT, no order while writes fail, trading again only after writes succeed and the operator resumes")
    func fullDiskStopsTradingUntilWritesSucceedAndTheOperatorResumes() async throws {
        let disk = try FullDisk()
        defer { disk.remove() }
        print("full disk by \(disk.description)")
        // As `ibtrader run` opens it: NORMAL durability, checkpoints on the runner's tick.
        let journal = try OrderJournal(
            path: disk.directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe, checkpoints: .manual)
        let log = CapturedLog()
        var logger = Logger(label: "test.fulldisk") { _ in CapturingLogHandler(log: log) }
        logger.logLevel = .info
        let link = OperatorLink()
        let timeline = FullDiskTimeline()
        let run = try await faultRun(
            clientID: 61, strategy: { _ in SoakTrader(period: 3) },
            configure: {
                $0.journal = journal
                $0.operatorLink = link
                $0.session.symbols = ["SYN000", "SYN001"]
            }, logger: logger
        ) { simulator, recorder in
            func orders() async -> Int { await simulator.state().placeOrderLog.count }
            @Sendable func logged(_ prefix: String) -> Bool { log.lines.contains { $0.1.hasPrefix(prefix) } }
            // Trading: a few orders reach the simulator.
            await replaySteps(simulator, recorder, limit: 100) { $0.placeOrderLog.count >= 4 }
            timeline.before = await orders()
            try disk.fill(journal)
            // The next writes fail: the ALERT, and from then on nothing is sent.
            await replaySteps(simulator, recorder, limit: 100) { _ in logged("ALERT: the journal failed a write") }
            timeline.alerted = logged("ALERT: the journal failed a write")
            // An order the bot sent before the ALERT (its intent still fitted in the WAL) may be on the wire.
            try await simulator.sleep(for: .milliseconds(300))
            timeline.atAlert = await orders()
            await replaySteps(simulator, recorder, limit: 30)
            // A few of the bot's 1-second ticks on the full disk (each asks for a checkpoint, whose failure is only
            // warned about): still stopped, and nothing taken for a write that worked.
            try await simulator.sleep(for: .milliseconds(2500))
            await replaySteps(simulator, recorder, limit: 5)
            timeline.whileFull = await orders()
            // A resume while the disk is still full is refused, and sends nothing.
            timeline.resumeWhileFull = await link.send(.resume, by: "test", reason: "disk still full")
            await replaySteps(simulator, recorder, limit: 10)
            timeline.afterRefusedResume = await orders()
            timeline.writableWhileFull = logged("the journal takes writes again")
            // Space again: writes succeed, and still nothing is sent until the operator says so.
            try disk.free(journal)
            await replaySteps(simulator, recorder, limit: 100) { _ in logged("the journal takes writes again") }
            timeline.writable = logged("the journal takes writes again")
            await replaySteps(simulator, recorder, limit: 20)
            timeline.beforeResume = await orders()
            timeline.resume = await link.send(.resume, by: "test", reason: "disk freed")
            await replaySteps(simulator, recorder, limit: 60) { $0.placeOrderLog.count >= timeline.beforeResume + 3 }
            timeline.afterResume = await orders()
        }
        print("orders at the simulator: \(timeline.before) before the disk filled, \(timeline.atAlert) at the ALERT, "
            + "\(timeline.whileFull) after 30 bars, \(timeline.afterRefusedResume) after a refused resume, "
            + "\(timeline.beforeResume) once writes succeeded, \(timeline.afterResume) after the resume")
        let lines = log.lines.map(\.1)
        #expect(timeline.before >= 4)
        #expect(timeline.alerted, "no ALERT: \(lines.suffix(20))")
        #expect(log.lines.contains { $0.0 == .critical && $0.1.hasPrefix("ALERT: the journal failed a write") })
        // Writes on a full disk may still fit in space the journal's files already hold (a WAL rewound after a
        // checkpoint), so an order whose intent was written may go out until the first failure reaches the core.
        // After the ALERT, nothing.
        #expect(timeline.whileFull == timeline.atAlert, "orders sent while the journal failed")
        if disk.isTmpfs {
            #expect(timeline.resumeWhileFull?.done == false, "\(String(describing: timeline.resumeWhileFull))")
            #expect(timeline.resumeWhileFull?.message.contains("still fails writes") == true)
        } else if timeline.resumeWhileFull?.done == true {
            // The page cap fails only writes that need a new page: the resume's own entry may fit and count as a
            // write that succeeded. The next intent that does not fit pauses again.
            print("page cap: the resume's journal entry fitted; it was taken as writes succeeding")
            #expect(timeline.resumeWhileFull?.message == "trading resumed: the journal takes writes again")
        }
        let refused = timeline.resumeWhileFull?.done == false
        if refused {
            #expect(timeline.afterRefusedResume == timeline.atAlert, "orders sent after a resume on a full disk")
        }
        #expect(timeline.writable, "the bot never saw a write succeed again")
        if disk.isTmpfs { #expect(!timeline.writableWhileFull, "a write was taken as succeeding while the disk was full") }
        if refused {
            #expect(timeline.beforeResume == timeline.atAlert, "orders sent without the operator's resume")
        }
        #expect(timeline.resume?.done == true, "\(String(describing: timeline.resume))")
        #expect(timeline.afterResume >= timeline.beforeResume + 3, "trading did not resume")
        // Every order that reached the simulator was journaled first.
        let journaled = Set(try journal.orders().map(\.intent.orderRef.rawValue))
        let sent = Set(run.state.placeOrderLog.map(\.orderRef))
        #expect(sent.isSubset(of: journaled), "sent without an intent: \(sent.subtracting(journaled))")
        // And the fills made while the disk was full reached the journal once it had space again.
        let fills = Set(try journal.fills().map(\.execID))
        let made = Set(run.state.executionLog.filter { $0.clientID == 61 }.map(\.execution.executionID))
        #expect(made.isSubset(of: fills), "executions never journaled: \(made.subtracting(fills))")
        try? journal.close()
    }
}

/// What the drive saw, for the checks after the run.
final class FullDiskTimeline: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Int] = [:]
    private var flags: [String: Bool] = [:]
    private var replies: [String: OperatorReply] = [:]

    private func int(_ key: String) -> Int { lock.withLock { values[key] ?? -1 } }
    private func set(_ key: String, _ value: Int) { lock.withLock { values[key] = value } }

    var before: Int { get { int("before") } set { set("before", newValue) } }
    var atAlert: Int { get { int("atAlert") } set { set("atAlert", newValue) } }
    var whileFull: Int { get { int("whileFull") } set { set("whileFull", newValue) } }
    var afterRefusedResume: Int { get { int("afterRefusedResume") } set { set("afterRefusedResume", newValue) } }
    var beforeResume: Int { get { int("beforeResume") } set { set("beforeResume", newValue) } }
    var afterResume: Int { get { int("afterResume") } set { set("afterResume", newValue) } }
    var alerted: Bool {
        get { lock.withLock { flags["alerted"] ?? false } }
        set { lock.withLock { flags["alerted"] = newValue } }
    }
    var writable: Bool {
        get { lock.withLock { flags["writable"] ?? false } }
        set { lock.withLock { flags["writable"] = newValue } }
    }
    var writableWhileFull: Bool {
        get { lock.withLock { flags["writableWhileFull"] ?? false } }
        set { lock.withLock { flags["writableWhileFull"] = newValue } }
    }
    var resumeWhileFull: OperatorReply? {
        get { lock.withLock { replies["full"] } }
        set { lock.withLock { replies["full"] = newValue } }
    }
    var resume: OperatorReply? {
        get { lock.withLock { replies["resume"] } }
        set { lock.withLock { replies["resume"] = newValue } }
    }
}
