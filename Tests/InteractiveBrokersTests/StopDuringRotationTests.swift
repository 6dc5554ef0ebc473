import Foundation
import Logging
import SimulatedVenue
import Storage
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// Every input the session took, and the point of a rotation where the run is told to stop (`stopAfter`).
final class RotationTape: @unchecked Sendable {
    private let lock = NSLock()
    private var inputList: [String] = []
    private var start: Int?
    private var stopIndex: Int?
    private var ended = false
    /// Where to stop: this many inputs after the one that placed the rotation's orders (0: right after it).
    let stopAt: Int?

    init(stopAt: Int? = nil) { self.stopAt = stopAt }

    /// The `stopAfter` hook.
    func after(_ input: SessionInput, _ actions: [SessionAction]) -> String? {
        lock.withLock {
            let index = inputList.count
            inputList.append(Self.describe(input))
            if start == nil, Self.startsRotation(actions) { start = index }
            guard let start, let stopAt, stopIndex == nil, index - start == stopAt else { return nil }
            stopIndex = index
            return "SIGTERM at point \(stopAt) of the rotation"
        }
    }

    func finish() { lock.withLock { ended = true } }

    /// The inputs so far, each in a short stable description.
    var inputs: [String] { lock.withLock { inputList } }
    /// The index of the input whose actions placed the rotation's orders.
    var rotationStart: Int? { lock.withLock { start } }
    /// The index of the input after which the run was told to stop.
    var stoppedAfter: Int? { lock.withLock { stopIndex } }
    var finished: Bool { lock.withLock { ended } }

    /// A rotation: one input places a market sell of one instrument and a market buy of another.
    static func startsRotation(_ actions: [SessionAction]) -> Bool {
        let orders = actions.flatMap { action -> [Order] in
            if case .place(let group) = action { return group.orders }
            return []
        }
        let markets = orders.filter { $0.type == .market }
        guard let sold = markets.first(where: { $0.side == .sell })?.instrument else { return false }
        return markets.contains { $0.side == .buy && $0.instrument != sold }
    }

    static func describe(_ input: SessionInput) -> String {
        switch input {
        case .orderEvent(_, .status(let status)): "status \(status.orderID) \(status.status) filled \(status.filled.map { "\($0)" } ?? "-")"
        case .orderEvent(_, .openOrder(let open)): "openOrder \(open.order.orderID) \(open.order.orderType) \(open.order.action)"
        case .orderEvent(_, .execution(let report)): "execution \(report.execution.orderID)"
        case .orderEvent(_, .commission): "commission"
        case .orderEvent(_, .notice(let notice)): "notice \(notice.code)"
        case .market(let tag, _): "market \(tag)"
        case .answer(let tag, _): "answer \(tag)"
        case .tick: "tick"
        case .stop(let reason): "stop \(reason)"
        default: "\(input)".prefix(60).description
        }
    }
}

/// Issue 80, "money right by construction": SIGTERM at any point of a momentum rotation (the protection of the
/// position sold cancelled, the sell and the buy at market, their fills, the new position's protective stop placed and
/// acknowledged) leaves every position the broker holds protected by a stop at the broker, or flat with
/// `orders.flattenOnExit`. A reference run finds the rotation and counts its inputs; then one run per point stops
/// right after that input (`LiveRunnerConfiguration.stopAfter`), as a signal would, while the simulator's market goes
/// on (the market orders fill during the stop). Before the change the stop refused the new position's protective stop
/// under its own kill switch, and said the old stop was kept while it was being cancelled: the bought position was
/// left bare, with no alert.
@Suite("SIGTERM during a rotation leaves every position protected or flat", .serialized, .timeLimit(.minutes(20)))
struct StopDuringRotationTests {
    static let clientID = 81
    static let symbols: [Symbol] = ["SYN000", "SYN001", "SYN002"]
    /// Holds the best of three by a 3-bar rate of change, re-ranked every 2 bars (10 s), with a 20 % protective stop
    /// at the broker: a rotation within minutes on the simulator's bridged paths, and no stop triggered.
    static let momentum = MomentumRotationConfig(
        lookback: 3, minimumScore: nil, holdings: 1, rebalance: .everyBars(2), investedFraction: 0.1,
        stopLossPercent: 20, rankBuffer: 0, minimumWeightChange: 1)

    struct Outcome {
        var summary: LiveRunSummary
        var state: GatewayState
        var tape: RotationTape
        var log: [(Logger.Level, String)]
        var alerts: [OperatorAlert]
    }

    /// One run of the rotation against a fresh simulator: it replays until the rotation, then on until `tape` has
    /// stopped the run (or, without a stop point, until the new position's stop works at the broker, and stops then).
    static func run(tape: RotationTape, flattenOnExit: Bool) async throws -> Outcome {
        let log = CapturedLog()
        var logger = Logger(label: "test.stop-rotation") { _ in CapturingLogHandler(log: log) }
        logger.logLevel = .info
        let link = OperatorLink()
        let alerts = AlertTape()
        link.forwardAlerts { alerts.add($0) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stoprot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("journal.sqlite").path)
        let recorder = EngineRecorder()
        var configuration = LiveRunnerConfiguration(
            connection: TWSConnectionConfiguration(host: "127.0.0.1", port: 7497, clientID: clientID),
            symbols: symbols, engine: EngineConfig(initialCash: Money(approximately: faultCash)))
        configuration.journal = journal
        configuration.operatorLink = link
        configuration.session.warmupDuration = "600 S"
        configuration.session.commissionWait = .seconds(3600)
        configuration.session.resilience.resetSchedule = nil
        configuration.session.flattenOnExit = flattenOnExit
        configuration.observer = { recorder.milestone($0) }
        configuration.engineEventObserver = { event, _ in recorder.engine(event) }
        configuration.stopAfter = { tape.after($0, $1) }
        let simulator = GatewaySimulatorConfiguration(
            host: "127.0.0.1", port: 0, data: simulatorData, gateway: GatewayConfiguration(startingCash: faultCash),
            start: faultStart, clock: .manual)
        let prepared = configuration
        let runLogger = logger
        return try await VirtualVenue.run(simulator: simulator) { venue in
            var runConfiguration = prepared
            runConfiguration.connection = venue.clientConnection(clientID)
            venue.attach(&runConfiguration)
            let run = runConfiguration
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            let summary = try await withThrowingTaskGroup(of: LiveRunSummary?.self) { group in
                group.addTask {
                    let summary = try await LiveRunner.run(
                        strategy: MomentumRotation(config: momentum), configuration: run, logger: runLogger, stop: stop)
                    tape.finish()
                    return summary
                }
                group.addTask {
                    await recorder.wait(for: .subscribed(generation: 0, feed: 0))
                    var protectedAfterRotation = 0
                    for _ in 0..<2_000 where !tape.finished {
                        await venue.advance(by: .seconds(5))
                        let slice = await venue.now() - .seconds(5)
                        await venue.wait(upTo: .milliseconds(300), step: .milliseconds(1)) {
                            tape.finished || recorder.lastClosed >= slice
                        }
                        // The broker's answers take milliseconds, a bar 5 seconds: they come before the next bar.
                        try? await venue.sleep(for: .milliseconds(200))
                        guard tape.stopAt == nil, tape.rotationStart != nil else { continue }
                        // The reference run: a few steps once the new position's stop works, then the stop.
                        let state = await venue.state()
                        let held = heldAndStops(state)
                        let trading = state.orders.values.contains {
                            $0.key.clientID == clientID && !$0.isTerminal && !$0.isStopLike
                        }
                        if !held.isEmpty, !trading, held.allSatisfy({ $0.stops == $0.held }) { protectedAfterRotation += 1 }
                        if protectedAfterRotation == 3 { break }
                    }
                    if !tape.finished { stopper.yield("test done") }
                    return nil
                }
                var summary: LiveRunSummary?
                for try await value in group { if let value { summary = value } }
                return summary
            }
            return Outcome(
                summary: try #require(summary), state: await venue.state(), tape: tape, log: log.lines,
                alerts: alerts.list)
        }
    }

    /// Each instrument the client holds at the simulator: its signed quantity and what its working stops close.
    static func heldAndStops(_ state: GatewayState) -> [(instrument: InstrumentID, held: Int64, stops: Int64)] {
        state.account.holdings.filter { !$0.value.quantity.isZero }.map { id, holding in
            let held = holding.quantity.units
            let closing = held > 0 ? "SELL" : "BUY"
            let stops = state.orders.values.filter {
                $0.key.clientID == clientID && $0.instrument == id && $0.isStopLike && !$0.isTerminal
                    && $0.wire.action == closing
            }.reduce(Int64(0)) { $0 + $1.remaining.units }
            return (id, abs(held), stops)
        }
    }

    /// The reference run: the rotation and its inputs up to the new position's stop acknowledged at the broker.
    static func reference() async throws -> (points: Int, outcome: Outcome) {
        let outcome = try await run(tape: RotationTape(), flattenOnExit: false)
        let inputs = outcome.tape.inputs
        let start = try #require(outcome.tape.rotationStart, "the momentum strategy rotated")
        // The new position's stop: the first stop order placed after the rotation's start, acknowledged (its first
        // status after its first openOrder).
        func orderID(_ input: String) -> Substring? {
            input.hasPrefix("openOrder ") ? input.split(separator: " ")[1] : nil
        }
        let known = Set(inputs[..<start].compactMap(orderID))
        let stopOpen = try #require(
            inputs[start...].firstIndex {
                $0.hasSuffix("STP SELL") && orderID($0).map { !known.contains($0) } == true
            }, "the new position's stop was placed: \(inputs[start...])")
        let id = try #require(orderID(inputs[stopOpen]))
        let acknowledged = try #require(
            inputs[stopOpen...].firstIndex { $0.hasPrefix("status \(id) ") }, "and acknowledged")
        return (acknowledged - start + 1, outcome)
    }

    @Test("the reference rotation sells one holding, buys another and protects it at the broker")
    func referenceRotation() async throws {
        let (points, outcome) = try await Self.reference()
        let held = Self.heldAndStops(outcome.state)
        #expect(held.count == 1 && held.allSatisfy { $0.stops == $0.held }, "\(held)")
        #expect(points >= 6, "the rotation's steps: \(points)")
        let start = try #require(outcome.tape.rotationStart)
        // Both market orders filled, and the old holding's stop was cancelled.
        let rotation = outcome.tape.inputs[start...]
        #expect(rotation.filter { $0.hasPrefix("execution") }.count >= 2, "\(rotation)")
        #expect(rotation.contains { $0.hasPrefix("status") && $0.contains("Cancelled") }, "\(rotation)")
    }

    @Test("SIGTERM after each input of a rotation", arguments: [false, true])
    func stopAtEveryPoint(flattenOnExit: Bool) async throws {
        let (points, reference) = try await Self.reference()
        let start = try #require(reference.tape.rotationStart)
        // Right after the rotation's orders went out, through the new stop's acknowledgement, and one input on.
        for point in 0...points {
            let outcome = try await Self.run(tape: RotationTape(stopAt: point), flattenOnExit: flattenOnExit)
            let inputs = outcome.tape.inputs
            let stopped = try #require(outcome.tape.stoppedAfter, "point \(point): the run was stopped")
            // The run repeats the reference exactly up to the stop, so this is the point the reference counted.
            #expect(
                Array(inputs[...stopped]) == Array(reference.tape.inputs[...(start + point)]),
                "point \(point): the run differs from the reference before the stop")
            let state = outcome.state
            let held = Self.heldAndStops(state)
            let context = "point \(point) (after \(inputs[stopped])): \(held)\n"
                + outcome.log.map(\.1).filter { !$0.hasPrefix("portfolio") }.suffix(30).joined(separator: "\n")
            if flattenOnExit {
                #expect(held.isEmpty, "flat: \(context)")
                let working = state.orders.values.filter { $0.key.clientID == Self.clientID && !$0.isTerminal }
                #expect(working.isEmpty, "nothing works at the broker: \(working.map(\.wire.orderType)) \(context)")
            } else {
                #expect(!held.isEmpty && held.allSatisfy { $0.stops == $0.held }, "protected: \(context)")
                // The summary says the same, and no ALERT says a position is bare.
                let left = outcome.summary.leftAtBroker ?? []
                #expect(left.count == held.count && left.allSatisfy(\.isProtected), "\(left.map(\.description)) \(context)")
            }
            #expect(!outcome.alerts.contains { $0.kind == "protection" }, "no protection ALERT: \(context)")
            // No order sent again and again (a refused protection retried in a loop).
            #expect(outcome.summary.commands < 60, "\(outcome.summary.commands) orders and cancels: \(context)")
            #expect(!outcome.log.contains { $0.1.contains("UNPROTECTED") }, "\(context)")
            let exitLine = outcome.log.first { $0.1.hasPrefix("exit: ") }?.1 ?? ""
            #expect(
                flattenOnExit ? exitLine.hasPrefix("exit: no position left at the broker") : exitLine.contains("protected by SELL STP"),
                "\(context)")
            // The stopped alert says what is left at the broker.
            let stoppedAlert = outcome.alerts.first { $0.kind == "stopped" }?.text ?? ""
            #expect(
                flattenOnExit ? !stoppedAlert.contains("left at the broker") : stoppedAlert.contains("protected by SELL STP"),
                "\(stoppedAlert) \(context)")
        }
    }
}

/// The alerts a run raised (shared across tasks).
final class AlertTape: @unchecked Sendable {
    private let lock = NSLock()
    private var alerts: [OperatorAlert] = []
    func add(_ alert: OperatorAlert) { lock.withLock { alerts.append(alert) } }
    var list: [OperatorAlert] { lock.withLock { alerts } }
}
