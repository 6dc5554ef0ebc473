import Foundation
import GatewayCore
import GatewaySimulator
import Logging
import SimulatedVenue
import Storage
import Testing
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 5: an order of ours open at the broker that the journal does not know (here: a fresh journal, as after
/// losing it) is rebuilt from the wire and adopted, or cancelled; the new run's namespace is above the broker's;
/// and `resynchronize` (at stop) sees an adopted order of another client id as still working.
@Suite(.serialized)
struct UnknownOrderRestartTests {
    static let account = "DU1234567"
    static let strayRef = "IBT:R77:O-1"

    /// Places a resting limit buy of 10 SYN000 at 1.00 under `strayRef` as `clientID`, then disconnects.
    static func placeStray(at venue: VirtualVenue, clientID: Int) async throws {
        try await TWSConnection.connect(venue.clientConnection(clientID), environment: venue.environment()) {
            connection, _ in
            let book = ContractBook(universe: Universe(symbols: ["SYN000", "SYN001", "SYN002"]))
            let order = engineOrder(1, .buy, 10, type: .limit(Price(1)), tif: .gtc, client: "O-1", instrument: syn0)
            let wire = try OrderMapping.wireOrder(
                for: order, options: WireOrderOptions(account: account, reference: OrderReference(prefix: "IBT:R77:")))
            _ = try await connection.placeOrder(wire, contract: try book.contract(for: syn0))
            for _ in 0..<200 where try await !connection.allOpenOrders().contains(where: { $0.order.orderRef == strayRef }) {
                try await venue.sleep(for: .milliseconds(10))
            }
        }
    }

    static func run(_ policy: UnknownOrderPolicy, strayClient: Int) async throws -> (OrderJournal, [TWSOpenOrder]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unknown-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = try OrderJournal(path: directory.appendingPathComponent("j.sqlite").path, durability: .processCrashSafe)
        let logger = { var logger = Logger(label: "test.unknown"); logger.logLevel = .critical; return logger }()
        return try await withSessionVenue(account: account) { venue in
            try await placeStray(at: venue, clientID: strayClient)
            var configuration = LiveRunnerConfiguration(
                connection: venue.clientConnection(31), symbols: ["SYN000", "SYN001", "SYN002"],
                engine: EngineConfig(initialCash: Money(100_000)))
            venue.attach(&configuration)
            configuration.journal = journal
            configuration.session.warmupDuration = "600 S"
            configuration.session.cancelOnExit = false
            configuration.session.unknownOrders = policy
            // Stops once the start-up (the restart reconciliation) is done and the bars are subscribed.
            let (stop, stopper) = AsyncStream.makeStream(of: String.self)
            configuration.observer = { if case .subscribed = $0 { stopper.yield("test done") } }
            configuration.session.stopDrain = .milliseconds(300)
            _ = try await LiveRunner.run(
                strategy: MomentumRotation(
                    config: MomentumRotationConfig(
                        lookback: 12, ranking: .rateOfChange, minimumScore: nil, holdings: 1, rebalance: .everyBars(12),
                        weighting: .equal, investedFraction: 0.5)),
                configuration: configuration, logger: logger, stop: stop)
            let open = try await TWSConnection.connect(venue.clientConnection(32), environment: venue.environment()) {
                c, _ in try await c.allOpenOrders()
            }
            return (journal, open)
        }
    }

    @Test("adopt (default): rebuilt from the wire, journaled, still working at the end; the run namespace is above it")
    func adoptsAnUnknownOrderPlacedByAnotherClient() async throws {
        let (journal, open) = try await Self.run(.adopt, strayClient: 42)
        #expect(try journal.runs().map(\.number) == [78], "the broker shows run 77, so this run is 78")
        let row = try #require(try journal.order(ClientOrderID(Self.strayRef)))
        #expect(row.intent.quantity == Quantity(10) && row.intent.side == .buy && row.intent.type == .limit(Price(1)))
        // Seen working by the stop's resynchronize (every client's open orders), so not ended "while disconnected".
        #expect(row.state == .accepted, "\(row.state): \(row.message ?? "")")
        #expect(open.contains { $0.order.orderRef == Self.strayRef })
        let events = try journal.events(kind: .reconciliation).map(\.message)
        #expect(events.contains { $0.hasPrefix(Self.strayRef) && $0.contains("unknown to the journal") && $0.hasSuffix("adopted") }, "\(events)")
    }

    @Test("cancel: the unknown order is rebuilt, then cancelled at the broker")
    func cancelsAnUnknownOrder() async throws {
        let (journal, open) = try await Self.run(.cancel, strayClient: 31)
        let row = try #require(try journal.order(ClientOrderID(Self.strayRef)))
        #expect(row.state == .canceled, "\(row.state): \(row.message ?? "")")
        #expect(!open.contains { $0.order.orderRef == Self.strayRef })
    }
}
