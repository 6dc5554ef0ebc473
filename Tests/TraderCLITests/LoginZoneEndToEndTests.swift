import Foundation
import GatewayCore
import Storage
import Testing
import TradingModel

@testable import TraderCLI

/// Issue 79: a TWS on a Windows host names its zone the Windows way (`Central European Standard Time`) in its
/// connection, execution and completed times. Against the simulator with such a login zone, the manual commands
/// journal a fill at the same UTC instant as against a UTC login; against a zone name nothing here knows, the fill is
/// journaled all the same, with the time it was read and a note naming what TWS sent.
@Suite(.timeLimit(.minutes(2))) struct LoginZoneEndToEndTests {
    /// Places a limit a tick under the last, lets the day go by, follows it up with `ibtrader orders`: the fill as
    /// journaled's time, the placing time and the journal's notes.
    static func followedUpFill(loginZone: String) async throws -> (fill: Timestamp, placedAt: Timestamp, notes: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ibtrader-zone-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let mine = ["--journal", folder + "/mine.sqlite"]
        let placedAt = try await withManualSimulator(loginZone: try TWSLoginZone(parsing: loginZone)) { simulator, port in
            let at = ["--port", "\(port)", "--timeout", "30"]
            let placed = try await OrderCommand.parse(
                ["buy", "SYN000", "5", "--type", "LMT", "--limit-offset", "-1 tick", "--ref", "zone"] + at + mine).perform()
            #expect(placed.succeeded, "\(placed.lines)")
            let placedAt = await simulator.now()
            await simulator.advance(by: .hours(24))
            let followed = try await OrdersCommand.parse(at + mine).perform()
            #expect(followed.lines.last?.hasPrefix("journal: IBT:manual:zone Submitted → Filled") == true, "\(followed.lines)")
            return placedAt
        }
        let journal = try OrderJournal(path: folder + "/mine.sqlite", createIfMissing: false)
        let fills = try journal.fills().filter { $0.orderRef == ClientOrderID("IBT:manual:zone") }
        #expect(fills.count == 1)
        return (try #require(fills.first).time, placedAt, try journal.events(kind: .note).map(\.message))
    }

    @Test func aWindowsLoginZoneJournalsTheFillAtTheSameInstantAsUTC() async throws {
        let utc = try await Self.followedUpFill(loginZone: "UTC")
        let windows = try await Self.followedUpFill(loginZone: "Central European Standard Time")
        #expect(windows.fill == utc.fill, "UTC login \(utc.fill), Windows login \(windows.fill)")
        #expect(windows.fill > windows.placedAt && windows.fill < windows.placedAt + .hours(24))
        #expect(!windows.notes.contains { $0.contains("does not read") })
    }

    @Test func aZoneNameNothingHereKnowsStillJournalsTheFillWithANote() async throws {
        let unknown = try await Self.followedUpFill(loginZone: "Mitteleuropäische Zeit=Europe/Berlin")
        let note = try #require(unknown.notes.first { $0.contains("does not read") }, "\(unknown.notes)")
        #expect(note.contains("Mitteleuropäische Zeit\""), "\(note)")
        // Journaled with the time `orders` read it (this machine's clock), not the execution's own.
        #expect(unknown.fill > unknown.placedAt + .hours(24))
    }
}
