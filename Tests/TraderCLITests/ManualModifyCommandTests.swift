import ArgumentParser
import Foundation
import Testing

@testable import TraderCLI

/// `ibtrader modify` as the command line runs it (parsing, validation, output), against the simulator.
@Suite("ibtrader modify", .timeLimit(.minutes(1)))
struct ManualModifyCommandTests {
    static func validationMessage(_ arguments: [String]) -> String? {
        do {
            _ = try ModifyCommand.parse(arguments)
            return nil
        } catch {
            return ModifyCommand.message(for: error)
        }
    }

    @Test("argument errors are reported before connecting")
    func validation() {
        #expect(Self.validationMessage(["7"]) == "nothing to change: give --qty, --limit, --stop, --trail-amount or --trail-percent")
        #expect(
            Self.validationMessage(["7", "--trail-amount", "1", "--trail-percent", "2"])
                == "--trail-amount and --trail-percent are exclusive: give one")
        #expect(Self.validationMessage(["0", "--qty", "5"]) == "ORDER_ID must be a positive order id, got 0")
        #expect(Self.validationMessage(["7", "--qty", "5", "--limit", "150.5"]) == nil)
    }

    @Test("order LMT, then modify its limit (table and JSON); a second modify to the same terms is refused")
    func modify() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-modify-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await withManualSimulator { _, port in
            let args = ManualCommandTests.common(port, folder)
            let placed = try await OrderCommand.parse(
                ["buy", "SYN000", "10", "--type", "LMT", "--limit", "1", "--ref", "cli-mod", "--json"] + args).perform()
            #expect(placed.succeeded && placed.lines.count == 2)
            let leg = try #require(
                try JSONSerialization.jsonObject(with: Data(placed.lines[1].utf8)) as? [String: Any])
            let id = try #require(leg["orderId"] as? Int)

            let table = try await ModifyCommand.parse(["\(id)", "--limit", "1.25"] + args).perform()
            #expect(table.succeeded)
            #expect(table.lines == [
                "modified: order \(id) IBT:manual:cli-mod SYN000 (account DU1234567)",
                "  before: BUY 10 LMT 1", "  after:  BUY 10 LMT 1.25",
            ])
            let json = try await ModifyCommand.parse(["\(id)", "--qty", "12", "--json"] + args).perform()
            #expect(json.succeeded && json.lines.count == 1)
            let record = try #require(try JSONSerialization.jsonObject(with: Data(json.lines[0].utf8)) as? [String: Any])
            #expect(record["record"] as? String == "modify" && record["status"] as? String == "modified")
            #expect(record["before"] as? String == "BUY 10 LMT 1.25" && record["after"] as? String == "BUY 12 LMT 1.25")

            await #expect(throws: CLIError.self) {
                _ = try await ModifyCommand.parse(["\(id)", "--qty", "12"] + args).perform()
            }
        }
    }
}
