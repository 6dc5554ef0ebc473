import Foundation
import Testing

/// Issue 41: the suite runs the bot in virtual time; only the tests kept on real sockets, processes, signals or the
/// system clocks may wait on the wall clock, each wait with a comment saying why (on its line or just above).
@Suite struct WallClockSleepTests {
    /// The files that may sleep, and what only the wall clock shows there.
    static let kept: [String: String] = [
        "OperatorSurfaceTests/AlertTests.swift": "real HTTP deliveries to a loopback receiver",
        "OperatorSurfaceTests/EmailAlertTests.swift": "an SMTP exchange on libcurl's own thread, cancelled while it waits",
        "InteractiveBrokersTests/StuckLoopWatchdogTests.swift": "the watchdog is a thread watching the loop in wall time",
        "InteractiveBrokersTests/Support/ProgramProcess.swift": "child processes of the ibtrader program",
        "InteractiveBrokersTests/Support/SimulatorHarness.swift": "the simulator on a real socket (client ids freed by TWS)",
        "InteractiveBrokersTests/CrashProcessHarness.swift": "a bot process killed with SIGKILL mid-trade",
        "InteractiveBrokersTests/DashboardRunnerTests.swift": "the dashboard's HTTP server and Chromium",
        "InteractiveBrokersTests/LiveRunnerServiceTests.swift": "signals to the process",
        "GatewaySimulatorTests/ListenerRestartAndOrderLogTests.swift": "the simulator's listener restarting",
        "GatewaySimulatorTests/RestartRaceTests.swift": "restarts racing on a real listener",
        "GatewaySimulatorTests/GatewayLimitsTests.swift": "the server's socket limits",
        "GatewaySimulatorTests/SilenceAndQuoteFaultTests.swift": "bytes in flight in a socket",
        "GatewaySimulatorTests/AcceptBackoffProcessTests.swift": "a gateway process's CPU use",
        "TWSClientTests/Connection/ElapsedClockTests.swift": "the system clocks",
        "TWSClientTests/Connection/TWSConnectionGroupOrderTests.swift": "a NIO timer's thread",
    ]

    /// Every test source but this one, by its path under Tests/, with its lines.
    static func testSources() throws -> [(file: String, lines: [Substring])] {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasSuffix("WallClockSleepTests.swift") } ?? []
        return try files.sorted().map { file in
            (file, try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false))
        }
    }

    @Test func onlyKeptTestsSleepAndEachSaysWhy() throws {
        // Spelled in pieces, so this file is not itself a match for the project's count of sleeps.
        let waits = ["Task", "Thread"].map { $0 + ".sleep(" } + ["u" + "sleep("]
        var found = 0
        var offenders: [String] = []
        for (file, lines) in try Self.testSources() {
            for (index, line) in lines.enumerated() where waits.contains(where: { line.contains($0) }) {
                found += 1
                guard Self.kept[file] != nil else {
                    offenders.append("\(file):\(index + 1): sleeps outside the kept real-socket tests (use the virtual venue)")
                    continue
                }
                let above = lines[max(0, index - 6)..<index]
                let explained = line.contains("//") || above.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                if !explained { offenders.append("\(file):\(index + 1): no comment says why it waits on the wall clock") }
            }
        }
        #expect(found > 0, "the scan sees the suite")
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }

    /// The files that may read the wall clock or poll it (`eventually`, deadlines on `ContinuousClock.now`, `Date()`):
    /// the sleepers above, and what else only the wall clock shows.
    static let reading: [String: String] = kept.merging([
        "InteractiveBrokersTests/RunCommandStopTests.swift": "the ibtrader program as a child process, stopped by signals",
        "InteractiveBrokersTests/RunCommandSignalTests.swift": "the ibtrader program as a child process, its journal's wall time",
        "InteractiveBrokersTests/RunCommandDashboardTests.swift": "the ibtrader program as a child process with its dashboard",
        "InteractiveBrokersTests/ProgramSecretsTests.swift": "the ibtrader program as a child process",
        "InteractiveBrokersTests/CrashRecoveryTests.swift": "a bot process killed with SIGKILL and restarted",
        "InteractiveBrokersTests/HealthProbeRunnerTests.swift": "the system clock as the default session clock",
        "GatewaySimulatorTests/SimulatorStopTests.swift": "a listener's stop over a real socket",
        "GatewaySimulatorTests/MarketRuleTests.swift": "an answer by IB's errMsg, not the 30 s timeout, over a real socket",
        "TraderKitTests/FileLogHandlerTests.swift": "a log file's timestamps are the system clock's",
    ]) { first, _ in first }

    /// Issue 41's "no test polls the wall clock" outside the tests kept on processes, sockets and the system clocks.
    @Test func onlyKeptTestsReadOrPollTheWallClock() throws {
        // Spelled in pieces, as above.
        let reads = ["eventually" + "(within:", "ContinuousClock" + ".now", "ContinuousClock()" + ".now"]
        let date = try Regex("(^|[^A-Za-z_.])" + "Date" + "\\(\\)")
        var found = 0
        var offenders: [String] = []
        for (file, lines) in try Self.testSources() {
            for (index, line) in lines.enumerated()
            where reads.contains(where: { line.contains($0) }) || line.contains(date) {
                found += 1
                if Self.reading[file] == nil {
                    offenders.append("\(file):\(index + 1): reads the wall clock outside the kept tests (use the virtual venue's clock)")
                }
            }
        }
        #expect(found > 0, "the scan sees the suite")
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }
}
