import Foundation
import GatewayCore
import TWSProtocol
import Testing
import TradingModel

/// A real TWS writes its connection, execution and completed times in its host's zone, named as the host names it
/// (`20260414 20:36:26 Central European Standard Time` from a Windows-hosted IB Gateway); the simulator's login
/// zone (`GatewayConfiguration.loginZone`, `ibtrader gateway --login-zone`) does the same, UTC by default.
@Suite struct LoginZoneTests {
    @Test func windowsNamesAbbreviationsAndIANANamesWriteTheZonesWallClockTime() throws {
        // 2026-04-14 18:36:26 UTC: summer time in Warsaw (UTC+2), in New York (UTC−4).
        let t = Timestamp(year: 2026, month: 4, day: 14, secondOfDay: 18 * 3600 + 36 * 60 + 26)
        #expect(try TWSLoginZone(parsing: "Central European Standard Time").text(t)
            == "20260414 20:36:26 Central European Standard Time")
        #expect(try TWSLoginZone(parsing: "US/Eastern").text(t) == "20260414 14:36:26 US/Eastern")
        #expect(try TWSLoginZone(parsing: "EST").text(t) == "20260414 14:36:26 EST")
        // Winter: UTC+1.
        let january = Timestamp(year: 2026, month: 1, day: 14, secondOfDay: 23 * 3600 + 30 * 60)
        #expect(try TWSLoginZone(parsing: "W. Europe Standard Time").text(january)
            == "20260115 00:30:00 W. Europe Standard Time")
        #expect(TWSLoginZone.utc.text(january) == "20260114 23:30:00 UTC")
        // Any name, with a known zone's rules: what a client may not know.
        #expect(try TWSLoginZone(parsing: "Mitteleuropäische Zeit=Europe/Berlin").text(t)
            == "20260414 20:36:26 Mitteleuropäische Zeit")
        #expect(throws: TWSLoginZoneError.unknown("Mars/Olympus")) { try TWSLoginZone(parsing: "Mars/Olympus") }
        #expect(throws: TWSLoginZoneError.unknown("X=Mars/Olympus")) { try TWSLoginZone(parsing: "X=Mars/Olympus") }
    }

    @Test func executionsAndCompletedOrdersAreWrittenInTheLoginZone() throws {
        var configuration = GatewayConfiguration()
        configuration.loginZone = try TWSLoginZone(parsing: "Central European Standard Time")
        var state = GatewayState(data: testData, configuration: configuration)
        _ = state.connect(connection: 1, clientID: 1, serverVersion: 200)
        let placed = state.handle(.placeOrder(orderID: 1, contract: stock("SYN000"), order: wireOrder("BUY", 5)), from: 1, wallTime: 0)
        let executions = sent(placed).compactMap { response -> TWSExecution? in
            if case .executionDetails(_, _, let execution) = response { execution } else { nil }
        }
        let execution = try #require(executions.first)
        let zone = try #require(TimeZone(identifier: "Europe/Warsaw"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyyMMdd HH:mm:ss"
        let now = state.now
        let expected = formatter.string(from: Date(timeIntervalSince1970: Double(now.nanoseconds / 1_000_000_000)))
        #expect(execution.time == expected + " Central European Standard Time")
        let completed = sent(state.handle(.completedOrders(apiOnly: false), from: 1, wallTime: 0)).compactMap { response -> String? in
            if case .completedOrder(let order) = response { order.completedTime } else { nil }
        }
        #expect(completed == [expected + " Central European Standard Time"])
    }
}
