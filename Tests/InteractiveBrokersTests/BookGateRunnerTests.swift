import Foundation
import SimulatedVenue
import Storage
import Synchronization
import Testing
import TradingEngine
import TradingModel

@testable import GatewayCore
@testable import GatewaySimulator
@testable import InteractiveBrokers
@testable import LiveSession

/// `fastMomentum` with a 5 % stop-loss held at the broker (every position has a protective stop) and no rank buffer,
/// so that it rotates among the three symbols (sells the holding, cancelling its stop, and buys the new leader).
let protectedMomentum = MomentumRotationConfig(
    lookback: 12, ranking: .rateOfChange, minimumScore: nil, holdings: 1, rebalance: .everyBars(12),
    weighting: .equal, investedFraction: 0.5, stopLossPercent: 5, rankBuffer: 0)

/// The milestones of a run that matter here.
final class GateLog: Sendable {
    private let items = Mutex<(mismatches: [[PositionDifference]], reconnects: Int)>(([], 0))
    func add(_ milestone: LiveRunnerMilestone) {
        items.withLock {
            switch milestone {
            case .positionMismatch(let differences): $0.mismatches.append(differences)
            case .reconnected: $0.reconnects += 1
            default: break
            }
        }
    }
    var mismatches: [[PositionDifference]] { items.withLock { $0.mismatches } }
    var reconnects: Int { items.withLock { $0.reconnects } }
}

extension GatewayState {
    /// The working orders (not filled, cancelled or inactive).
    var workingOrders: [GatewayOrder] { orders.values.filter { !$0.isTerminal } }
    /// The positions held, by symbol.
    var heldPositions: [String: Quantity] {
        var held: [String: Quantity] = [:]
        for (id, holding) in account.holdings where holding.quantity != .zero {
            held[data.instrument(id).symbol] = holding.quantity
        }
        return held
    }
    /// A position is held and a protective stop of the bot works for it.
    var holdsProtectedPosition: Bool {
        !heldPositions.isEmpty && workingOrders.contains { $0.wire.orderType == "STP" && $0.wire.action == "SELL" }
    }
}

/// Issue 44's reproduction against the in-process venue: a gateway restart while the bot holds a position with its
/// protective stop, under momentum rotation, with bars and the bot's clock going on through the 15-second second look.
@Suite("Reconciliation gate against the gateway simulator")
struct BookGateRunnerTests {
    /// A run with the position check as shipped (second look after 15 s), an operator link and the log.
    static func configuration(_ venue: VirtualVenue, journal: OrderJournal, log: GateLog, link: OperatorLink)
        -> LiveRunnerConfiguration
    {
        var configuration = runnerConfiguration(venue, journal: journal)
        configuration.session.reconnectDelay = .milliseconds(20)
        configuration.session.positionCheck = PositionCheckSettings(interval: .minutes(60), confirmAfter: .seconds(15), pausesEntries: true)
        configuration.operatorLink = link
        configuration.observer = { log.add($0) }
        return configuration
    }

    /// Replays 5-second steps a second apart on the bot's clock (its timers, the second look among them, run).
    static func replay(_ venue: VirtualVenue, steps: Int) async throws {
        for _ in 0..<steps {
            await venue.advance(by: .seconds(5))
            try await venue.sleep(for: .seconds(1))
        }
    }

    /// Replays until the bot holds a position protected by its stop at the broker.
    static func replayUntilProtected(_ venue: VirtualVenue) async throws {
        var steps = 0
        while steps < 2_000, await !venue.state().holdsProtectedPosition {
            await venue.advance(by: .seconds(5))
            try await venue.sleep(for: .milliseconds(10))
            steps += 1
        }
        #expect(await venue.state().holdsProtectedPosition, "the bot held a protected position before the restart")
    }

    static func journal() throws -> (OrderJournal, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let journal = try OrderJournal(
            path: directory.appendingPathComponent("journal.sqlite").path, durability: .processCrashSafe)
        return (journal, directory)
    }

    @Test("a gateway restarted without its state: nothing reaches it before the operator decides, no short, an ALERT")
    func freshRestartSendsNothingUntilTheOperatorDecides() async throws {
        let (journal, directory) = try Self.journal()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = GateLog()
        let link = OperatorLink()
        let (held, beforeDecision, reply, end) = try await withSessionVenue { venue in
            let configuration = Self.configuration(venue, journal: journal, log: log, link: link)
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            return try await withThrowingTaskGroup(
                of: ([String: Quantity], [PlaceOrderRecord], OperatorReply?, GatewayState?).self
            ) { group in
                group.addTask {
                    _ = try await LiveRunner.run(
                        strategy: MomentumRotation(config: protectedMomentum), configuration: configuration,
                        logger: quietLogger(), stop: stop)
                    return ([:], [], nil, nil)
                }
                group.addTask {
                    await venue.waitForBarSubscriptions(3)
                    try await Self.replayUntilProtected(venue)
                    let held = await venue.state().heldPositions
                    await venue.apply(.freshRestart(seconds: 0))
                    // Three minutes of bars and 36 s of the bot's clock: the reconnect, the resynchronization, the
                    // first look, the second 15 s later (the issue's rotation came inside that window), rebalances.
                    try await Self.replay(venue, steps: 36)
                    let beforeDecision = await venue.state().placeOrderLog
                    // The operator's decision: resume. What differs still sells nothing the broker does not hold.
                    let reply = await link.send(.resume, by: "test", reason: "checked TWS")
                    try await Self.replay(venue, steps: 36)
                    let end = await venue.state()
                    stopper.yield("test done")
                    return (held, beforeDecision, reply, end)
                }
                var result: ([String: Quantity], [PlaceOrderRecord], OperatorReply?, GatewayState?) = ([:], [], nil, nil)
                for try await item in group where item.3 != nil { result = item }
                return result
            }
        }
        #expect(!held.isEmpty)
        #expect(log.reconnects == 1)
        #expect(beforeDecision.isEmpty, "orders reached the fresh gateway before the operator decided: \(beforeDecision)")
        let expected = held.keys.sorted().map {
            PositionDifference(symbol: Symbol($0), engine: held[$0]!, broker: .zero)
        }
        #expect(log.mismatches == [expected], "one ALERT naming the symbol and both quantities")
        #expect(reply?.done == true)
        #expect(reply?.message.contains("still differ from the broker's positions") == true, "\(reply?.message ?? "")")
        let state = try #require(end)
        // No short, and no sell working against shares the broker does not hold.
        #expect(state.account.holdings.values.allSatisfy { $0.quantity.units >= 0 }, "\(state.heldPositions)")
        for order in state.workingOrders where order.wire.action == "SELL" {
            let holding = state.account.holdings[order.instrument]?.quantity ?? .zero
            #expect(order.remaining.units <= holding.units, "\(order.wire.orderType) \(order.remaining) against \(holding)")
        }
        #expect(state.placeOrderLog.allSatisfy { record in !held.keys.contains(record.symbol) },
                "nothing was ever sent for the symbol the fresh gateway does not hold")
    }

    @Test("a gateway restart with its state kept: the book agrees, the gate opens, the stop stays, trading goes on")
    func plainRestartOpensTheGateAndTradingGoesOn() async throws {
        let (journal, directory) = try Self.journal()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = GateLog()
        let link = OperatorLink()
        let (before, reconciled, after, end) = try await withSessionVenue { venue in
            let configuration = Self.configuration(venue, journal: journal, log: log, link: link)
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            return try await withThrowingTaskGroup(of: (Int, GatewayState?, Int, GatewayState?).self) { group in
                group.addTask {
                    _ = try await LiveRunner.run(
                        strategy: MomentumRotation(config: protectedMomentum), configuration: configuration,
                        logger: quietLogger(), stop: stop)
                    return (0, nil, 0, nil)
                }
                group.addTask {
                    await venue.waitForBarSubscriptions(3)
                    try await Self.replayUntilProtected(venue)
                    let before = await venue.state().placeOrderLog.count
                    await venue.apply(.restart(seconds: 0))
                    // The bot reconnects and reconciles while the replay clock stands still (no new bar to act on).
                    await venue.wait(upTo: .seconds(30)) { log.reconnects == 1 }
                    try await venue.sleep(for: .seconds(5))
                    let reconciled = await venue.state()
                    // Trading goes on: a new order (a rotation) reaches the gateway.
                    var steps = 0
                    while steps < 600, await venue.state().placeOrderLog.count == before {
                        await venue.advance(by: .seconds(5))
                        try await venue.sleep(for: .seconds(1))
                        steps += 1
                    }
                    let after = await venue.state().placeOrderLog.count
                    try await Self.replay(venue, steps: 12)
                    let end = await venue.state()
                    stopper.yield("test done")
                    return (before, reconciled, after, end)
                }
                var result: (Int, GatewayState?, Int, GatewayState?) = (0, nil, 0, nil)
                for try await item in group where item.3 != nil { result = item }
                return result
            }
        }
        let state = try #require(end)
        let atReconnect = try #require(reconciled)
        #expect(log.reconnects == 1)
        #expect(log.mismatches.isEmpty, "the books agree: no ALERT")
        // Once reconciled: nothing re-sent, and each position keeps exactly its one protective stop, sized to it.
        #expect(atReconnect.placeOrderLog.count == before, "nothing re-sent on reconnect")
        #expect(!atReconnect.heldPositions.isEmpty)
        for (id, holding) in atReconnect.account.holdings where holding.quantity != .zero {
            let stops = atReconnect.workingOrders.filter { $0.instrument == id && $0.wire.orderType == "STP" }
            #expect(stops.count == 1, "\(stops.map(\.wire.orderRef))")
            #expect(stops.first?.remaining == holding.quantity)
        }
        #expect(after > before, "orders go out again after the reconnect")
        #expect(state.submissions(clientID: 31).values.allSatisfy { $0 == 1 }, "no order submitted twice")
        #expect(state.account.holdings.values.allSatisfy { $0.quantity.units >= 0 })
    }
}
