import Foundation
import InteractiveBrokers
import JournalModel
import LiveSession
import Storage
import TWSClient
import TWSProtocol
import TWSTestSupport
import TWSTranscript
import Testing
import TradingModel
import VirtualTime

/// The manual commands (`ibtrader order`, `modify`, `cancel`) against recorded gateway sessions, as a user runs them:
/// the ticket session of each command, its journal, its result. These are the five everyday operations that failed
/// against the recordings while passing against our simulator (issue 79).
@Suite("manual commands against recorded sessions", .timeLimit(.minutes(2)))
struct RecordedCommandTests {
    static func order(
        _ side: String, _ quantity: String, _ symbol: String = "AAPL", type: String = "MKT",
        _ change: (inout ManualOrderArguments) -> Void = { _ in }
    ) throws -> ManualOrderTicket {
        var a = ManualOrderArguments(side: side, symbol: symbol, quantity: quantity)
        a.type = type
        change(&a)
        return try ManualOrderTicket(a, at: Timestamp(seconds: 1_776_270_000))
    }

    @Test("four market orders on a Windows-zoned login: every fill journaled at its UTC instant (grounded capture)")
    func fillsOfAWindowsZonedLogin() async throws {
        let transcript = try RecordedCommands.transcript("api_dollar_cost_averaging_aapl.txt")
        try await RecordedCommands.withJournal { journal in
            let (results, report) = try await RecordedCommands.run(
                transcript, ambient: RecordedCommands.ambient(price: 265.15)
            ) { transport, loop in
                let settings = RecordedCommands.settings(journal, loop)
                return try await RecordedCommands.connect(transport, loop) { connection, info in
                    var results: [ManualOrderResult] = []
                    for (index, (side, quantity)) in [("buy", "5"), ("buy", "5"), ("buy", "5"), ("sell", "15")].enumerated() {
                        results.append(try await ManualTrading.placeOrder(
                            try Self.order(side, quantity), clientOrderID: ClientOrderID("dca\(index)"),
                            on: (connection, info, settings)))
                    }
                    return results
                }
            }
            #expect(report.passed, "\(report)")
            #expect(results.map(\.outcome) == Array(repeating: .acknowledged, count: 4))
            let fills = try journal.fills().sorted { $0.time < $1.time }
            let iso = ISO8601DateFormatter()
            let expected = ["2026-04-15T16:19:25Z", "2026-04-15T16:19:28Z", "2026-04-15T16:19:30Z", "2026-04-15T16:19:32Z"]
                .map { Timestamp(seconds: Int64(iso.date(from: $0)!.timeIntervalSince1970)) }
            #expect(fills.map(\.time) == expected, "fills: \(fills.map { "\($0.execID) \($0.time)" })")
            #expect(fills.map(\.quantity) == [Quantity(5), Quantity(5), Quantity(5), Quantity(15)])
        }
    }

    @Test("a cancel of another client's order from client 0 is sent and confirmed (grounded capture)")
    func crossClientCancel() async throws {
        let transcript = try RecordedCommands.transcript("api_client_id0_order_observation_aapl.txt")
        try await RecordedCommands.withJournal { journal in
            let ((placed, cancelled), report) = try await RecordedCommands.run(transcript) { transport, loop in
                let settings = RecordedCommands.settings(journal, loop)
                let placed = try await RecordedCommands.connect(transport, loop, clientID: 1) { connection, info in
                    try await ManualTrading.placeOrder(
                        try Self.order("buy", "10", type: "LMT") { $0.limit = "13.27"; $0.timeInForce = "GTC" },
                        clientOrderID: ClientOrderID("gtc"), on: (connection, info, settings))
                }
                let cancelled = try await RecordedCommands.connect(transport, loop, clientID: 0) { connection, info in
                    try await ManualTrading.cancel(.orderID(295), on: connection, info: info, settings: settings)
                }
                return (placed, cancelled)
            }
            #expect(report.passed, "\(report)")
            #expect(placed.outcome == .acknowledged)
            #expect(cancelled.cancelled.map(\.orderID) == [295] && cancelled.stillOpen.isEmpty, "\(cancelled)")
        }
    }

    @Test("a modify whose echo carries an unset limit as 0 is confirmed (hand-modelled on grounded captures)")
    func modifyConfirmedDespiteZeroEcho() async throws {
        let transcript = try RecordedCommands.transcript("modify_stop_echoes_unset_limit_as_zero.txt", folder: "ibtrader")
        try await RecordedCommands.withJournal { journal in
            let ((placed, modified), report) = try await RecordedCommands.run(
                transcript, ambient: RecordedCommands.ambient(price: 265.15)
            ) { transport, loop in
                let settings = RecordedCommands.settings(journal, loop)
                let placed = try await RecordedCommands.connect(transport, loop) { connection, info in
                    try await ManualTrading.placeOrder(
                        try Self.order("buy", "10", type: "STP") { $0.stop = "270" }, clientOrderID: ClientOrderID("stop"),
                        on: (connection, info, settings))
                }
                var change = ManualModifyArguments()
                change.stop = "268"
                let modification = try ManualModification(change)
                let modified = try await RecordedCommands.connect(transport, loop) { connection, info in
                    try await ManualTrading.modifyOrder(40, modification: modification, on: (connection, info, settings))
                }
                return (placed, modified)
            }
            #expect(report.passed, "\(report)")
            #expect(placed.outcome == .acknowledged)
            #expect(modified.outcome == .acknowledged, "modify: \(modified)")
        }
    }

    @Test("an order refused with 321 ends at once with TWS's reason, journaled rejected")
    func refusedBy321() async throws {
        let transcript = try RecordedCommands.transcript("order_refused_321_read_only.txt", folder: "ibtrader")
        try await RecordedCommands.withJournal { journal in
            let ((result, elapsed), report) = try await RecordedCommands.run(transcript) { transport, loop in
                let settings = RecordedCommands.settings(journal, loop, timeout: .seconds(20))
                return try await RecordedCommands.connect(transport, loop) { connection, info in
                    let result = try await ManualTrading.placeOrder(
                        try Self.order("buy", "1", type: "LMT") { $0.limit = "10" }, clientOrderID: ClientOrderID("ro"),
                        on: (connection, info, settings))
                    return (result, loop.clock.elapsed)
                }
            }
            #expect(report.mismatches.isEmpty, "\(report)")
            guard case .rejected(let reason) = result.outcome else {
                Issue.record("expected a rejection, got \(result.outcome)")
                return
            }
            #expect(reason.contains("Read-Only"), "\(reason)")
            #expect(elapsed < .seconds(5), "it waited \(elapsed) for a refusal that came at once")
            let order = try #require(try journal.order(ClientOrderID("IBT:manual:ro")))
            #expect(order.state == .rejected && (order.message ?? "").contains("Read-Only"))
        }
    }

    @Test("no execDetailsEnd for the start-up's executions: the order still goes out, after a bounded wait")
    func missingExecutionsEnd() async throws {
        let transcript = try RecordedCommands.transcript("executions_without_end.txt", folder: "ibtrader")
        try await RecordedCommands.withJournal { journal in
            let (result, report) = try await RecordedCommands.run(transcript) { transport, loop in
                let settings = RecordedCommands.settings(journal, loop, timeout: .seconds(10))
                return try await RecordedCommands.connect(transport, loop) { connection, info in
                    try await ManualTrading.placeOrder(
                        try Self.order("buy", "1", type: "LMT") { $0.limit = "10" }, clientOrderID: ClientOrderID("noend"),
                        on: (connection, info, settings))
                }
            }
            #expect(report.passed, "\(report)")
            #expect(result.outcome == .acknowledged, "\(result)")
        }
    }

    /// MES June 2026 as the grounded capture's open orders show it (its conId, expiry, local symbol, trading class),
    /// with CME's multiplier: the contract details a real gateway gives for `MESM6`.
    static let mes: TWSContract = {
        var contract = TWSContract(contractID: 770_561_194, symbol: "MES", securityType: "FUT", exchange: "CME", currency: "USD")
        (contract.lastTradeDateOrContractMonth, contract.localSymbol) = ("20260618", "MESM6")
        (contract.tradingClass, contract.multiplier) = ("MES", "5")
        return contract
    }()

    @Test("an order filled in two parts of unequal size reports the size-weighted average price (issue 80)")
    func averageOfUnequalParts() async throws {
        let transcript = try RecordedCommands.transcript("market_order_filled_in_two_parts.txt", folder: "ibtrader")
        try await RecordedCommands.withJournal { journal in
            let (result, report) = try await RecordedCommands.run(
                transcript, ambient: RecordedCommands.ambient(price: 100.5)
            ) { transport, loop in
                let settings = RecordedCommands.settings(journal, loop)
                return try await RecordedCommands.connect(transport, loop) { connection, info in
                    try await ManualTrading.placeOrder(
                        try Self.order("buy", "100"), clientOrderID: ClientOrderID("two"), on: (connection, info, settings))
                }
            }
            #expect(report.passed, "\(report)")
            let leg = try #require(result.legs.first)
            #expect(leg.state == .filled && leg.filled == Quantity(100), "\(result)")
            // (30 × 100.00 + 70 × 101.00) / 100; the two prices' plain mean would be 100.50.
            #expect(leg.averagePrice == Price("100.7")!, "\(result)")
            #expect(try journal.fills().map(\.quantity).sorted() == [Quantity(30), Quantity(70)])
        }
    }

    @Test("ibtrader order buy MESM6 1, then sell: the future qualified by IB's local symbol, placed as the recording's (grounded capture)")
    func aFutureByItsLocalSymbol() async throws {
        let transcript = try RecordedCommands.transcript("api_future_campaign_mes.txt")
        // The gateway's clock: the capture's connection (2026-04-15 16:20:48 UTC).
        let ambient = TranscriptAmbient(contracts: ["MESM6": Self.mes], quote: (7039.25, 7039.5, 7039.5), serverTime: 1_776_270_048)
        try await RecordedCommands.withJournal { journal in
            let (results, report) = try await RecordedCommands.run(transcript, ambient: ambient) { transport, loop in
                let settings = RecordedCommands.settings(journal, loop)
                return try await RecordedCommands.connect(transport, loop) { connection, info in
                    var results: [ManualOrderResult] = []
                    for (index, side) in ["buy", "sell"].enumerated() {
                        results.append(try await ManualTrading.placeOrder(
                            try Self.order(side, "1", "MESM6"), clientOrderID: ClientOrderID("mes\(index)"),
                            on: (connection, info, settings)))
                    }
                    return results
                }
            }
            #expect(report.passed, "\(report)")
            #expect(results.map(\.outcome) == [.acknowledged, .acknowledged], "\(results)")
            #expect(results.map { $0.legs.first?.state } == [.filled, .filled], "\(results)")
            #expect(results.first?.legs.first?.averagePrice == Price("7039.5")!)
            #expect(results.last?.legs.first?.averagePrice == Price("7039.25")!, "\(results.last!)")
            let orders = try journal.orders()
            #expect(orders.map(\.intent.symbol) == ["MES 2026-06", "MES 2026-06"])
            let fills = try journal.fills()
            #expect(fills.count == 2 && fills.allSatisfy { $0.terms.type == "FUT" && $0.terms.expiry.hasPrefix("202606") }, "\(fills)")
        }
    }
}
