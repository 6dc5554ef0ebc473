import Testing
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// An older TWS writes execution times without a zone, in its login's zone, which its handshake's connection time
/// names (`20231114 17:13:20 US/Eastern`). The session reads such a time in that zone: before, always as UTC, so a
/// New York user's fill was journaled five hours early (on the wrong trading day after 19:00).
@Suite struct LoginZoneSessionTests {
    typealias Harness = SessionCoreHarness<InAndOut>

    static func started(connectionTime: String) -> (Harness, [SessionAction]) {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(InAndOut(), settings: settings)
        harness.send(.start)
        var connection = Harness.connection()
        connection.info.connectionTime = connectionTime
        let actions = harness.send(.connected(connection)) + harness.answerAll()
        return (harness, actions)
    }

    /// The journaled time of the first fill, whose execution time says `executionTime`.
    static func fillTime(_ harness: inout Harness, executionTime: String) throws -> Timestamp? {
        let group = try #require(OperatorControlTests.bar(&harness, 60).placed.first)
        let report = Harness.execution(of: group, time: executionTime)
        let actions = harness.send(.orderEvent(generation: 1, .execution(report)))
        return actions.lazy.compactMap { if case .journal(.execution(let fill, _)) = $0 { fill.time } else { nil } }.first
    }

    @Test func aZonelessExecutionTimeIsReadInTheLoginZone() throws {
        var (eastern, _) = Self.started(connectionTime: "20231114 17:00:00 US/Eastern")
        #expect(try Self.fillTime(&eastern, executionTime: "20231114  17:13:20") == Timestamp(year: 2023, month: 11, day: 14) + .hours(22) + .minutes(13) + .seconds(20))
        // A zone TWS names with the time wins over the login's.
        var named = Self.started(connectionTime: "20231114 17:00:00 US/Eastern").0
        #expect(try Self.fillTime(&named, executionTime: "20231114 22:13:20 UTC") == Timestamp(year: 2023, month: 11, day: 14) + .hours(22) + .minutes(13) + .seconds(20))
    }

    /// A Windows-hosted TWS names its zone the Windows way (recorded from a real IB Gateway): read through CLDR's
    /// table, with the zone's summer time (April in Warsaw: UTC+2).
    @Test func aWindowsLoginZoneIsReadWithItsSummerTime() throws {
        var (harness, actions) = Self.started(connectionTime: "20260414 20:36:26 Central European Standard Time")
        #expect(!actions.logs.contains { $0.contains("ALERT") || $0.contains("read as UTC") })
        #expect(try Self.fillTime(&harness, executionTime: "20260414  20:40:00") == Timestamp(year: 2026, month: 4, day: 14) + .hours(18) + .minutes(40))
        var named = Self.started(connectionTime: "20260414 20:36:26 Central European Standard Time").0
        #expect(try Self.fillTime(&named, executionTime: "20260930 22:00:00 Central European Standard Time") == Timestamp(year: 2026, month: 9, day: 30) + .hours(20))
    }

    /// An unknown name is an ALERT at connect saying what TWS sent, what the bot does and how to fix it; zone-less
    /// times are read as UTC. A reconnect to the same TWS does not say it again.
    @Test func aLoginZoneThisSystemDoesNotKnowIsAnAlertOnce() throws {
        var (harness, actions) = Self.started(connectionTime: "20231114 23:00:00 Mitteleuropäische Zeit")
        let alerts = actions.logs.filter { $0.hasPrefix("ALERT: ") }
        #expect(alerts.count == 1)
        #expect(alerts.first?.contains("\"Mitteleuropäische Zeit\"") == true && alerts.first?.contains("read as UTC") == true
            && alerts.first?.contains("login window") == true, "\(alerts)")
        #expect(actions.contains { if case .log(.warning, let text) = $0 { text.hasPrefix("ALERT: TWS names") } else { false } })
        #expect(try Self.fillTime(&harness, executionTime: "20231114  22:13:20") == Timestamp(year: 2023, month: 11, day: 14) + .hours(22) + .minutes(13) + .seconds(20))
        // Reconnected to the same TWS: said once.
        var again = Harness.connection(generation: 2)
        again.info.connectionTime = "20231114 23:30:00 Mitteleuropäische Zeit"
        let reconnected = harness.send(.connectionClosed(generation: 1, "test"), after: .seconds(1))
            + harness.send(.connected(again), after: .seconds(5))
        #expect(!reconnected.logs.contains { $0.contains("Mitteleuropäische Zeit") })
        let (_, known) = Self.started(connectionTime: "20231114 17:00:00 EST")
        #expect(!known.logs.contains { $0.contains("ALERT") || $0.contains("read as UTC") })
        let (_, none) = Self.started(connectionTime: "20231114 17:00:00")
        #expect(none.contains { if case .log(.info, let text) = $0 { text.contains("names no time zone") } else { false } })
    }
}
