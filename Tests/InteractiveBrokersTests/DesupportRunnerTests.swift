import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import SimulatedVenue
import Synchronization
import Testing
import TWSClient
import TradingEngine
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Does nothing: the test reads the run's log.
private struct Idle: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
}

/// Issue 79's acceptance: the simulator's `desupport DATE` fault sends IB's 2172 text; the bot (the real client, driver
/// and core, in virtual time) raises an ALERT naming the date, again a simulated day later, and not once the date has
/// passed.
@Suite("Gateway lifecycle: IB's desupport warning at the simulator (issue 79)", .timeLimit(.minutes(2)))
struct DesupportRunnerTests {
    /// `yyyyMMdd` of the New York date a number of days after `time`'s.
    static func newYorkDate(_ time: Timestamp, plus days: Int64) -> String {
        let seconds = time.nanoseconds / Timestamp.nanosecondsPerSecond
        let offset = Int64(DesupportWatch.newYork.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
        let (year, month, day) = (Timestamp(seconds: seconds + offset) + .days(days)).civilDate
        return String(format: "%04d%02d%02d", year, month, day)
    }

    @Test("2172 from the simulator: an ALERT with its date at once, again the next simulated day, none after the date")
    func desupportWarningIsADailyAlertUntilItsDate() async throws {
        let start = simulatorData.defaultStart + .seconds(3600)
        let date = Self.newYorkDate(start, plus: 1)
        let log = CapturedLog()
        let simulator = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: simulatorData, start: start, clock: .manual,
            faults: try FaultScript(text: "desupport \(date)"))
        let alertsSeen: @Sendable () -> [String] = {
            log.lines.map(\.1).filter { $0.hasPrefix("ALERT:") && $0.contains("IB code 2172") }
        }
        let (first, nextDay, afterTheDate, passedLine, status) = try await VirtualVenue.run(simulator: simulator) { venue in
            try await withThrowingTaskGroup(
                of: LiveRunSummary?.self, returning: ([String], [String], [String], [String], String?).self
            ) { group in
                var configuration = LiveRunnerConfiguration(
                    connection: venue.clientConnection(79), symbols: ["SYN000"],
                    engine: EngineConfig(initialCash: Money(100_000)))
                venue.attach(&configuration)
                configuration.session.warmupDuration = "600 S"
                configuration.session.resilience.resetSchedule = nil
                configuration.session.resilience.deadFeedAfter = .zero  // the replay clock stands still: no bars come
                let link = OperatorLink()
                configuration.operatorLink = link
                let runConfiguration = configuration
                let logger = Logger(label: "test.desupport") { _ in
                    var handler = CapturingLogHandler(log: log)
                    handler.logLevel = .info
                    return handler
                }
                let (stop, stopper) = AsyncStream.makeStream(of: String.self)
                group.addTask {
                    try await LiveRunner.run(strategy: Idle(), configuration: runConfiguration, logger: logger, stop: stop)
                }
                try #require(await venue.wait(upTo: .seconds(120), step: .milliseconds(50)) { !alertsSeen().isEmpty })
                let first = alertsSeen()
                // A simulated day later (the bot's clock is the venue's): the ALERT once more.
                try await venue.sleep(for: .seconds(86_400))
                let nextDay = alertsSeen()
                let status = link.status?.connection.gatewayDesupport
                // Another day: the date (yesterday's "tomorrow") has passed; no ALERT, one line that says so.
                try await venue.sleep(for: .seconds(86_400))
                let afterTheDate = alertsSeen()
                let passed = log.lines.map(\.1).filter { $0.contains("has passed") && $0.contains("2172") }
                stopper.yield("test done")
                _ = try await group.next()
                return (first, nextDay, afterTheDate, passed, status)
            }
        }
        let day = "\(date.prefix(4))-\(date.dropFirst(4).prefix(2))-\(date.suffix(2))"
        #expect(first.count == 1, "\(first)")
        #expect(first.first?.contains("10.45.1") == true && first.first?.contains(day) == true, "\(first)")
        #expect(first.first?.contains("tomorrow") == true, "\(first)")
        #expect(status?.contains(day) == true, "the dashboard's status shows it: \(status ?? "nil")")
        #expect(nextDay.count == 2 && nextDay.last?.contains("today") == true, "\(nextDay)")
        #expect(afterTheDate.count == 2, "no ALERT after the date: \(afterTheDate)")
        #expect(passedLine.count == 1, "\(passedLine)")
    }

    /// TWS sends 2172 once, at connect, usually before anyone listens (the driver listens once `connect` returns): the
    /// connection keeps it and hands it to a listener that begins later, after `.listening`, as it does the farms.
    @Test("a listener that begins after TWS sent 2172 still hears it, once, after .listening")
    func aLateListenerHearsTheWarning() async throws {
        let simulator = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: simulatorData, start: simulatorData.defaultStart, clock: .manual,
            faults: try FaultScript(text: "desupport 20261215"))
        let heard = try await VirtualVenue.run(simulator: simulator) { venue in
            try await TWSConnection.connect(venue.clientConnection(78), environment: venue.environment()) { connection, _ in
                // The warning is in before anyone listens.
                try #require(await venue.wait(upTo: .seconds(5), step: .milliseconds(1)) {
                    await connection.desupportNotice != nil
                })
                let events = Mutex<[String]>([])
                let listening = await connection.listen(TWSReceiver(
                    receive: { event in
                        switch event {
                        case .listening: events.withLock { $0.append("listening") }
                        case .notice(let notice): events.withLock { $0.append("\(notice.code)") }
                        default: break
                        }
                    },
                    end: { _ in }))
                listening.cancel()
                return events.withLock { $0 }
            }
        }
        #expect(heard == ["listening", "2172"])
    }

    @Test("the fault's words: desupport, desupport YYYYMMDD; anything else is refused")
    func parsing() {
        #expect(FaultCommand.parse("desupport") == .desupport(date: "20261215"))
        #expect(FaultCommand.parse("desupport 20270105") == .desupport(date: "20270105"))
        for line in ["desupport 2027-01-05", "desupport 20271305", "desupport 2027010", "desupport 20270105 x"] {
            #expect(FaultCommand.parse(line) == nil, "\(line)")
        }
    }

    @Test("the simulator sends IB's text now and at every later connect, across a fresh process too")
    func simulatorSendsTheTextAtConnect() {
        var state = GatewayState(data: simulatorData, configuration: GatewayConfiguration())
        _ = state.connect(connection: 1, clientID: 1, serverVersion: 200)
        let now = state.desupport(date: "20261215")
        #expect(now.count == 1)
        var fresh = state.freshProcess()
        let later = fresh.connect(connection: 2, clientID: 2, serverVersion: 200)
        let texts = later.compactMap { action -> String? in
            if case .send(_, .error(let error)) = action, error.code == 2172 { error.message } else { nil }
        }
        #expect(texts == [GatewayState.desupportText(date: "20261215")])
        #expect(texts.first?.contains("1045.1, needs to be upgraded, as it will be desupported on 20261215") == true)
    }
}
