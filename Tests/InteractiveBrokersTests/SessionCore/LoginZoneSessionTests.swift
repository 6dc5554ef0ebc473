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

    @Test func aLoginZoneThisSystemDoesNotKnowKeepsUTCAndSaysSo() throws {
        var (harness, actions) = Self.started(connectionTime: "20231114 23:00:00 Central European Standard Time")
        #expect(actions.contains { if case .log(.info, let text) = $0 { text.contains("read as UTC") } else { false } })
        #expect(try Self.fillTime(&harness, executionTime: "20231114  22:13:20") == Timestamp(year: 2023, month: 11, day: 14) + .hours(22) + .minutes(13) + .seconds(20))
        let (_, known) = Self.started(connectionTime: "20231114 17:00:00 EST")
        #expect(!known.contains { if case .log(_, let text) = $0 { text.contains("read as UTC") } else { false } })
    }
}
