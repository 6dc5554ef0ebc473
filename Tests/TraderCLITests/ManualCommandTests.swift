import ArgumentParser
import Foundation
import GatewayCore
import GatewaySimulator
import Storage
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import TraderCLI

/// The manual commands as the command line runs them (parsing, validation, output), against the simulator.
@Suite("ibtrader order|orders|cancel|positions|account", .timeLimit(.minutes(1)))
struct ManualCommandTests {
    static func validationMessage(_ arguments: [String]) -> String? {
        do {
            _ = try OrderCommand.parse(arguments)
            return nil
        } catch {
            return OrderCommand.message(for: error)
        }
    }

    @Test("argument errors are reported before connecting")
    func validation() {
        #expect(Self.validationMessage(["buy", "AAPL", "10", "--type", "LMT"]) == "a LMT order needs --limit PRICE")
        #expect(
            Self.validationMessage(["buy", "AAPL", "10", "--take-profit", "200"])
                == "a bracket needs both --take-profit PRICE and --stop-loss PRICE")
        #expect(
            Self.validationMessage(["sell", "AAPL", "10", "--type", "TRAIL", "--trail-amount", "1", "--trail-percent", "2"])
                == "--trail-amount and --trail-percent are exclusive: give one")
        #expect(Self.validationMessage(["buy", "AAPL", "10", "--type", "LMT", "--limit", "150"]) == nil)
        #expect(throws: (any Error).self) { _ = try CancelCommand.parse([]) }
        #expect(throws: (any Error).self) { _ = try CancelCommand.parse(["7", "--all"]) }
    }

    static func common(_ port: Int, _ folder: String) -> [String] {
        ["--port", "\(port)", "--timeout", "30", "--journal", folder + "/journal.sqlite"]
    }

    @Test("order (bracket, JSON), orders, positions, account, cancel --all, journal")
    func commands() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withManualSimulator { _, port in
            let args = Self.common(port, folder)
            let market = try await OrderCommand.parse(["buy", "SYN000", "20", "--ref", "cli-1"] + args).perform()
            #expect(market.succeeded)
            #expect(market.lines.first == "acknowledged: IBT:manual:cli-1 (account DU1234567)")

            let bracket = try await OrderCommand.parse(
                ["buy", "SYN001", "5", "--type", "LMT", "--limit", "1", "--take-profit", "10000", "--stop-loss", "0.5",
                 "--tif", "GTC", "--ref", "cli-2", "--json"] + args).perform()
            #expect(bracket.succeeded && bracket.lines.count == 4)
            #expect(bracket.lines[0].contains("\"status\":\"acknowledged\""))
            #expect(bracket.lines[2].contains("\"orderRef\":\"IBT:manual:cli-2-SL\"") && bracket.lines[2].contains("\"state\":\"accepted\""))

            let orders = try await OrdersCommand.parse(["--port", "\(port)", "--json"]).perform()
            #expect(orders.lines.count == 3 && orders.lines.allSatisfy { $0.contains("\"record\":\"openOrder\"") })

            let positions = try await PositionsCommand.parse(["--port", "\(port)"]).perform()
            #expect(positions.lines[0] == "Positions (1)" && positions.lines[1].contains("SYN000"))

            let account = try await AccountCommand.parse(["--port", "\(port)"]).perform()
            #expect(account.lines[0] == "Account DU1234567")
            #expect(account.lines[1].contains("NetLiquidation") && account.lines[1].contains("DailyPnL"))

            let denied = try await OrderCommand.parse(["buy", "SYN000", "20", "--ref", "cli-3", "--max-position-value", "100"] + args).perform()
            #expect(!denied.succeeded && denied.lines[0].hasPrefix("denied: IBT:manual:cli-3"))
            #expect(denied.lines[0].contains("maxPositionValue"))

            let cancelled = try await CancelCommand.parse(["--all"] + args).perform()
            #expect(cancelled.succeeded && cancelled.lines[0] == "cancelled 3 order(s)")
            let after = try await OrdersCommand.parse(["--port", "\(port)"]).perform()
            #expect(after.lines[0] == "Open orders (0)")
        }
        let journal = try OrderJournal(path: folder + "/journal.sqlite", createIfMissing: false)
        #expect(try journal.orders().map(\.intent.orderRef.rawValue) == [
            "IBT:manual:cli-1", "IBT:manual:cli-2", "IBT:manual:cli-2-SL", "IBT:manual:cli-2-TP",
        ])
        #expect(try journal.orders().map(\.state) == [.filled, .canceled, .canceled, .canceled])
        #expect(try journal.events(kind: .riskDenial).count == 1)
    }

    @Test("a live account: refused without confirmation, traded with --confirm-live")
    func liveRefusal() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withManualSimulator(account: "U1234567") { simulator, port in
            let args = ["buy", "SYN000", "1"] + Self.common(port, folder)
            do {
                _ = try await OrderCommand.parse(args).perform()
                Issue.record("a live account was not refused")
            } catch let error as CLIError {
                #expect(error.message.hasPrefix("refusing to trade live account U1234567"))
            }
            #expect(await simulator.state().account.holdings.isEmpty)
            let confirmed = try await OrderCommand.parse(args + ["--confirm-live", "U1234567"]).perform()
            #expect(confirmed.succeeded && confirmed.lines[0].contains("account U1234567"))
        }
    }
}

/// Issue 45: a manual order outlives its command; `ibtrader orders` follows the journal's working manual orders up:
/// one TWS no longer lists is journaled final from today's completed orders, one found nowhere is journaled unknown.
@Suite struct ManualOrderFollowUpTests {
    @Test func ordersJournalsTheEndOfAManualOrderOrSaysItIsUnknown() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-follow-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mine = ["--journal", folder + "/mine.sqlite"]
        let cancelledAt = try await withManualSimulator { simulator, port in
            let at = ["--port", "\(port)", "--timeout", "30"]
            let placed = try await OrderCommand.parse(["buy", "SYN000", "5", "--type", "LMT", "--limit", "1", "--ref", "rest"] + at + mine).perform()
            #expect(placed.succeeded)
            // Cancelled by another hand (another journal): this journal still says accepted.
            await simulator.advance(by: .minutes(30))
            let other = try await CancelCommand.parse(["--all"] + at + ["--journal", folder + "/other.sqlite"]).perform()
            #expect(other.succeeded)
            let cancelledAt = await simulator.now()
            let followed = try await OrdersCommand.parse(at + mine).perform()
            #expect(followed.lines.last == "journal: IBT:manual:rest Submitted → Cancelled (completed order: Cancelled)", "\(followed.lines)")
            let again = try await OrdersCommand.parse(at + mine).perform()
            #expect(!again.lines.contains { $0.hasPrefix("journal:") }, "nothing left behind")
            _ = try await OrderCommand.parse(["buy", "SYN001", "5", "--type", "LMT", "--limit", "1", "--ref", "gone"] + at + mine).perform()
            return cancelledAt
        }
        // A gateway that lost its state (a fresh simulator): the order is nowhere, and the journal says so.
        try await withManualSimulator { _, port in
            let followed = try await OrdersCommand.parse(["--port", "\(port)", "--timeout", "30", "--json"] + mine).perform()
            let line = try #require(followed.lines.last)
            #expect(line.contains(#""orderRef":"IBT:manual:gone","was":"accepted","now":"unknown""#), "\(line)")
        }
        let journal = try OrderJournal(path: folder + "/mine.sqlite", createIfMissing: false)
        #expect(try journal.order(ClientOrderID("IBT:manual:rest"))?.state == .canceled)
        // Journaled at the time TWS says the order ended (its completedTime), not when `orders` ran.
        #expect(try journal.order(ClientOrderID("IBT:manual:rest"))?.updatedAt == cancelledAt)
        #expect(try journal.order(ClientOrderID("IBT:manual:gone"))?.state == .accepted)
        #expect(try journal.events(kind: .reconciliation).map(\.message).contains { $0.hasPrefix("unknown: IBT:manual:gone (accepted in the journal)") })
    }

    /// A fill after the command returned (a limit a tick under the last, filled as the day goes on) is journaled by
    /// the follow-up at the execution's own time, not at the time `ibtrader orders` ran.
    @Test func aFollowedUpFillIsJournaledAtItsExecutionTime() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-follow-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mine = ["--journal", folder + "/mine.sqlite"]
        let placedAt = try await withManualSimulator { simulator, port in
            let at = ["--port", "\(port)", "--timeout", "30"]
            let placed = try await OrderCommand.parse(
                ["buy", "SYN000", "5", "--type", "LMT", "--limit-offset", "-1 tick", "--ref", "later"] + at + mine).perform()
            #expect(placed.succeeded && placed.lines.joined().contains("Submitted"), "\(placed.lines)")
            let placedAt = await simulator.now()
            await simulator.advance(by: .hours(24))
            let followed = try await OrdersCommand.parse(at + mine).perform()
            #expect(followed.lines.last?.hasPrefix("journal: IBT:manual:later Submitted → Filled") == true, "\(followed.lines)")
            return placedAt
        }
        let journal = try OrderJournal(path: folder + "/mine.sqlite", createIfMissing: false)
        let fills = try journal.fills().filter { $0.orderRef == ClientOrderID("IBT:manual:later") }
        let fill = try #require(fills.first)
        #expect(fills.count == 1 && fill.quantity == Quantity(5))
        #expect(fill.time > placedAt && fill.time < placedAt + .hours(24), "placed at \(placedAt), journaled at \(fill.time)")
    }
}
