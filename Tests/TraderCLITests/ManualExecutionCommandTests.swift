import Foundation
import GatewayCore
import GatewaySimulator
import Storage
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import TraderCLI

/// `ibtrader order` with IB's Adaptive algo, outside-RTH and GTD, and `--what-if`, against the simulator.
@Suite("ibtrader order --algo/--outside-rth/--tif GTD/--what-if", .timeLimit(.minutes(1)))
struct ManualExecutionCommandTests {
    static func common(_ port: Int, _ folder: String) -> [String] {
        ["--port", "\(port)", "--timeout", "30", "--journal", folder + "/journal.sqlite"]
    }

    @Test("an Adaptive Patient order reaches the simulator with its algo fields and is journaled with them")
    func adaptiveReachesTheSimulator() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withManualSimulator { _, port in
            // A limit far below the market rests, so the simulator still lists it with the terms it received.
            let placed = try await OrderCommand.parse(
                ["buy", "SYN000", "10", "--type", "LMT", "--limit", "1", "--algo", "adaptive", "--priority", "patient",
                 "--outside-rth", "--tif", "GTD", "--good-till", "2200-01-01T00:00:00Z", "--ref", "ad-1"]
                    + Self.common(port, folder)).perform()
            #expect(placed.succeeded, "\(placed.lines)")
            let orders = try await OrdersCommand.parse(["--port", "\(port)", "--json"]).perform()
            #expect(orders.lines.count == 1)
            let line = orders.lines.first ?? ""
            #expect(line.contains("\"algo\":\"Adaptive Patient\""), "\(line)")
            #expect(line.contains("\"outsideRth\":true") && line.contains("\"goodTill\":\"22000101-00:00:00\""), "\(line)")
            #expect(line.contains("\"tif\":\"GTD\""))
            let text = try await OrdersCommand.parse(["--port", "\(port)"]).perform()
            #expect(text.lines[1].contains("Adaptive Patient, outside RTH, till 22000101-00:00:00"), "\(text.lines)")

            let journal = try OrderJournal(path: folder + "/journal.sqlite", createIfMissing: false)
            let intent = try journal.order("IBT:manual:ad-1")?.intent
            #expect(intent?.execution?.algo == .adaptive(.patient))
            #expect(intent?.execution?.outsideRegularHours == true && intent?.timeInForce == .gtd)
        }
    }

    @Test("--what-if prints the margin and commission preview, and places and journals nothing")
    func whatIfPlacesNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withManualSimulator { _, port in
            let preview = try await OrderCommand.parse(
                ["buy", "SYN000", "10", "--algo", "adaptive", "--priority", "patient", "--what-if"]
                    + Self.common(port, folder)).perform()
            #expect(preview.succeeded, "\(preview.lines)")
            #expect(preview.lines[0].hasPrefix("what-if (nothing sent): BUY 10 SYN000 MKT DAY Adaptive Patient"))
            let table = preview.lines[1]
            #expect(table.contains("initial margin") && table.contains("maintenance margin") && table.contains("equity with loan"))
            #expect(preview.lines.contains { $0.hasPrefix("commission: 1.00 USD") }, "\(preview.lines)")

            let json = try await OrderCommand.parse(
                ["buy", "SYN000", "10", "--what-if", "--json"] + Self.common(port, folder)).perform()
            let record = try JSONSerialization.jsonObject(with: Data((json.lines.first ?? "").utf8)) as? [String: Any]
            let change = record?["initMarginChange"] as? Double ?? 0
            let maintenance = record?["maintMarginChange"] as? Double ?? 0
            // Reg-T: initial 50 %, maintenance 25 % of the position's value.
            #expect(change > 0 && abs(change - 2 * maintenance) < 0.02, "\(json.lines)")
            #expect(record?["equityWithLoanBefore"] as? Double == 1_000_000)

            let orders = try await OrdersCommand.parse(["--port", "\(port)"]).perform()
            #expect(orders.lines[0] == "Open orders (0)")
            let positions = try await PositionsCommand.parse(["--port", "\(port)"]).perform()
            #expect(positions.lines[0] == "Positions (0)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/journal.sqlite"))
        }
    }

    @Test("an order the account cannot carry previews with TWS's warning")
    func whatIfWarnsWhenTheAccountCannotCarryIt() async throws {
        try await withManualSimulator { _, port in
            let preview = try await OrderCommand.parse(
                ["buy", "SYN000", "10000000", "--what-if", "--port", "\(port)", "--timeout", "30"]).perform()
            #expect(preview.lines.contains { $0.hasPrefix("warning from TWS: YOUR ORDER IS NOT ACCEPTED") }, "\(preview.lines)")
        }
    }
}
