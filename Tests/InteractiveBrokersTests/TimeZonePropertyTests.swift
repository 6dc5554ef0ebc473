import Foundation
import JournalModel
import TWSProtocol
import Testing
import TradingModel

@testable import InteractiveBrokers
@testable import LiveSession

/// Issue 79, "time zones as data": an execution time in every zone of the tables (CLDR's Windows names, Java's
/// English names and their IANA zones, the abbreviations), on both sides of each DST change of 2024–2027, reads — and
/// is journaled — at the instant it names. A wall-clock time a change repeats reads as its first occurrence; one a change skips, with the
/// offset before the change (`TWSTimeParser.utcInstant`).
@Suite struct TimeZonePropertyTests {
    /// A name TWS may send and the zone it means.
    struct NamedZone: CustomStringConvertible {
        var name: String
        var zone: TimeZone
        var description: String { name }
    }

    /// Every Windows name, Java name, abbreviation and IANA zone of the tables (those Foundation knows here: the
    /// table tests in TWSProtocolTests fail for the others), each with the zone it is documented to mean: a
    /// Windows name its Windows zone, but the few Java writes for a zone of other offsets
    /// (`windowsNamesJavaReadsOtherwise`, here with Java's names); a Java name the golden zone CLDR's table gives
    /// it, or the one `javaNameChoices` gives it.
    static let zones: [NamedZone] = {
        var named: [NamedZone] = []
        for (windows, iana) in TWSTimeZoneName.windowsZones
        where !TWSTimeZoneName.windowsNamesJavaReadsOtherwise.contains(windows.lowercased()) {
            if let zone = TimeZone(identifier: iana) { named.append(NamedZone(name: windows, zone: zone)) }
        }
        for (name, iana) in TWSTimeZoneName.javaZoneNames {
            let documented = TWSTimeZoneName.javaNameChoices[name.lowercased()] ?? iana
            if let zone = TimeZone(identifier: documented) { named.append(NamedZone(name: name, zone: zone)) }
        }
        for (abbreviation, iana) in TWSTimeZoneName.abbreviations.sorted(by: { $0.key < $1.key }) {
            if let zone = TimeZone(identifier: iana) { named.append(NamedZone(name: abbreviation, zone: zone)) }
        }
        let ianas = Set(
            TWSTimeZoneName.windowsZones.map(\.iana) + TWSTimeZoneName.javaZoneNames.map(\.iana)
                + TWSTimeZoneName.abbreviations.values)
        for iana in ianas.sorted() {
            if let zone = TimeZone(identifier: iana) { named.append(NamedZone(name: iana, zone: zone)) }
        }
        return named
    }()

    /// Instants (epoch seconds) either side of each of the zone's transitions in 2024–2027 (`perTransition` of
    /// them per change), or two instants for a zone without one.
    static func samples(_ zone: TimeZone, perTransition offsets: [Int64] = [-3601, -1, 0, 1, 1799, 3599, 3600]) -> [Int64] {
        var instants: [Int64] = []
        var date = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01
        let end = Date(timeIntervalSince1970: 1_830_297_600)  // 2028-01-01
        while let next = zone.nextDaylightSavingTimeTransition(after: date), next < end {
            let t = Int64(next.timeIntervalSince1970)
            instants += offsets.map { t + $0 }
            date = next
        }
        return instants.isEmpty ? [1_704_070_923, 1_751_416_496] : instants
    }

    /// TWS's form of `seconds` in the zone's wall-clock time, by Foundation's formatter (not our code).
    static func wallClock(_ seconds: Int64, _ formatter: DateFormatter) -> String {
        formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    static func formatter(_ zone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyyMMdd HH:mm:ss"
        return formatter
    }

    /// The instant a wall-clock time reads as: `seconds`, unless the same text came earlier (an hour a change
    /// repeated): then that first occurrence.
    static func expected(_ seconds: Int64, _ formatter: DateFormatter) -> Int64 {
        let text = wallClock(seconds, formatter)
        for shift: Int64 in [7200, 3600, 1800] where wallClock(seconds - shift, formatter) == text {
            return seconds - shift
        }
        return seconds
    }

    @Test func everyZoneReadsAtTheInstantItNamesEitherSideOfItsChanges() {
        var failures: [String] = []
        var checked = 0
        for named in Self.zones {
            let formatter = Self.formatter(named.zone)
            for seconds in Self.samples(named.zone) {
                let text = Self.wallClock(seconds, formatter) + " " + named.name
                let read = try? TWSTimeParser.timestamp(text)
                checked += 1
                if read != Timestamp(seconds: Self.expected(seconds, formatter)) {
                    failures.append("\(text): read \(read.map(\.description) ?? "nothing"), expected \(Timestamp(seconds: Self.expected(seconds, formatter)))")
                }
            }
        }
        #expect(Self.zones.count > 300 && checked > 5_000, "\(Self.zones.count) zones, \(checked) times")
        #expect(failures.isEmpty, "\(failures.count) of \(checked): \(failures.prefix(10))")
    }

    /// The rules for the hour a change skips and the hour it repeats, east and west of Greenwich.
    @Test(arguments: [
        // Skipped: the offset before the change (New York 02:30 EST = 07:30Z; Paris 02:30 CET = 01:30Z).
        ("20250309 02:30:00 US/Eastern", Timestamp(year: 2025, month: 3, day: 9, secondOfDay: 7 * 3600 + 1800)),
        ("20250330 02:30:00 Romance Standard Time", Timestamp(year: 2025, month: 3, day: 30, secondOfDay: 3600 + 1800)),
        // Repeated: the first occurrence, the daylight one (New York 01:30 EDT = 05:30Z; Paris 02:30 CEST = 00:30Z).
        ("20251102 01:30:00 Eastern Standard Time", Timestamp(year: 2025, month: 11, day: 2, secondOfDay: 5 * 3600 + 1800)),
        ("20251026 02:30:00 Central European Standard Time", Timestamp(year: 2025, month: 10, day: 26, secondOfDay: 1800)),
        ("20251026 02:30:00 CET", Timestamp(year: 2025, month: 10, day: 26, secondOfDay: 1800)),
        // Sydney, southern hemisphere: 02:30 repeats on 2025-04-06 (AEDT +11 first: 15:30Z the day before).
        ("20250406 02:30:00 AUS Eastern Standard Time", Timestamp(year: 2025, month: 4, day: 5, secondOfDay: 15 * 3600 + 1800)),
    ])
    func skippedAndRepeatedWallClockTimes(text: String, expected: Timestamp) throws {
        #expect(try TWSTimeParser.timestamp(text) == expected)
    }

    /// A Java name's `Standard`, `Daylight` or `Summer` does not force an offset: the zone's rules on the date do.
    /// The summer name in summer and the standard name in winter read as expected, and so do the standard name in
    /// summer (a real gateway wrote `Central European Standard Time` in April) and the summer name in winter.
    @Test(arguments: [
        // Paris, CET +1 / CEST +2.
        ("20250715 10:00:00 Central European Summer Time", Timestamp(year: 2025, month: 7, day: 15, secondOfDay: 8 * 3600)),
        ("20250115 10:00:00 Central European Standard Time", Timestamp(year: 2025, month: 1, day: 15, secondOfDay: 9 * 3600)),
        ("20260414 20:36:26 Central European Standard Time", Timestamp(year: 2026, month: 4, day: 14, secondOfDay: 18 * 3600 + 36 * 60 + 26)),
        ("20250115 10:00:00 Central European Summer Time", Timestamp(year: 2025, month: 1, day: 15, secondOfDay: 9 * 3600)),
        ("20250715 10:00:00 Central European Time", Timestamp(year: 2025, month: 7, day: 15, secondOfDay: 8 * 3600)),
        // London, GMT +0 / BST +1.
        ("20250715 10:00:00 British Summer Time", Timestamp(year: 2025, month: 7, day: 15, secondOfDay: 9 * 3600)),
        ("20250115 10:00:00 Greenwich Mean Time", Timestamp(year: 2025, month: 1, day: 15, secondOfDay: 10 * 3600)),
        ("20250715 10:00:00 Greenwich Mean Time", Timestamp(year: 2025, month: 7, day: 15, secondOfDay: 9 * 3600)),
        // Sydney, southern hemisphere: AEDT +11 in January, AEST +10 in July.
        ("20250115 10:00:00 Australian Eastern Daylight Time", Timestamp(year: 2025, month: 1, day: 14, secondOfDay: 23 * 3600)),
        ("20250715 10:00:00 Australian Eastern Standard Time", Timestamp(year: 2025, month: 7, day: 15, secondOfDay: 0)),
        ("20250115 10:00:00 Australian Eastern Standard Time", Timestamp(year: 2025, month: 1, day: 14, secondOfDay: 23 * 3600)),
        // New York, EST −5 / EDT −4; Tokyo, +9 all year.
        ("20250715 09:30:00 Eastern Daylight Time", Timestamp(year: 2025, month: 7, day: 15, secondOfDay: 13 * 3600 + 1800)),
        ("20250115 09:30:00 Eastern Standard Time", Timestamp(year: 2025, month: 1, day: 15, secondOfDay: 14 * 3600 + 1800)),
        ("20250715 10:00:00 Japan Standard Time", Timestamp(year: 2025, month: 7, day: 15, secondOfDay: 3600)),
        ("20250715 10:00:00 Hong Kong Standard Time", Timestamp(year: 2025, month: 7, day: 15, secondOfDay: 2 * 3600)),
    ])
    func javaNamesReadWithTheZonesRulesWhateverTheirWord(text: String, expected: Timestamp) throws {
        #expect(try TWSTimeParser.timestamp(text) == expected)
    }

    // MARK: - Journaled through the session core

    typealias Harness = SessionCoreHarness<InAndOut>

    /// The journaled time of each execution of the first order, whose execution times are `times` (one share each).
    static func journaledTimes(connectionTime: String, times: [String]) throws -> [Timestamp?] {
        var harness = LoginZoneSessionTests.started(connectionTime: connectionTime).0
        let group = try #require(OperatorControlTests.bar(&harness, 60).placed.first)
        return times.enumerated().map { index, time in
            let report = Harness.execution(of: group, id: "E\(index)", shares: 1, time: time)
            let actions = harness.send(.orderEvent(generation: 1, .execution(report)))
            return actions.lazy.compactMap { if case .journal(.execution(let fill, _)) = $0 { fill.time } else { nil } }.first
        }
    }

    /// Through the session core: a login in every zone of the tables (the Windows names and abbreviations), fills
    /// either side of its first two changes of 2025 (or two instants), named or zone-less, journaled at their instant.
    @Test func everyZoneIsJournaledAtTheInstantItNames() throws {
        var failures: [String] = []
        let named = Self.zones.filter { TWSTimeZoneName.understood($0.name)?.kind != .iana }
        for zone in named {
            let formatter = Self.formatter(zone.zone)
            // 2025's first two changes: 1 s before, 1 s after, and the repeated or skipped hour's end.
            let instants = Self.samples(zone.zone, perTransition: [-1, 1, 3599]).filter { $0 >= 1_735_689_600 }.prefix(6)
            let texts = instants.map { Self.wallClock($0, formatter) }
            // Half named, half zone-less (the login's zone, from the connection time).
            let times = texts.enumerated().map { $0.offset % 2 == 0 ? "\($0.element) \(zone.name)" : "\($0.element.prefix(8))  \($0.element.dropFirst(9))" }
            let journaled = try Self.journaledTimes(connectionTime: "20250101 09:00:00 \(zone.name)", times: times)
            for (index, seconds) in instants.enumerated() where journaled[index] != Timestamp(seconds: Self.expected(seconds, formatter)) {
                failures.append("\(times[index]) (login \(zone.name)): journaled \(journaled[index].map(\.description) ?? "nothing")")
            }
        }
        #expect(named.count > 200)
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(10))")
    }

    /// A time that does not read never drops the fill: it is applied and journaled with the time it was received,
    /// and a warning and a journal note say what TWS sent, once.
    @Test func anExecutionTimeThatDoesNotReadIsJournaledWithItsReceiptTime() throws {
        var (harness, connected) = LoginZoneSessionTests.started(connectionTime: "20231114 23:00:00 Mitteleuropäische Zeit")
        #expect(connected.logs.contains { $0.hasPrefix("ALERT: TWS names its time zone \"Mitteleuropäische Zeit\"") })
        let group = try #require(OperatorControlTests.bar(&harness, 60).placed.first)
        let report = Harness.execution(of: group, time: "20231114 23:13:20 Mitteleuropäische Zeit")
        let actions = harness.send(.orderEvent(generation: 1, .execution(report)), after: .seconds(3))
        let journaled = actions.compactMap { if case .journal(.execution(let fill, _)) = $0 { fill } else { nil } }
        #expect(journaled.map(\.time) == [harness.now], "journaled with the receipt time")
        #expect(journaled.first?.timeNote != nil)
        let notes = actions.compactMap { if case .journal(.event(.note, let text, _)) = $0 { text } else { nil } }
        #expect(notes.count == 1 && notes[0].contains("\"20231114 23:13:20 Mitteleuropäische Zeit\""), "\(notes)")
        #expect(actions.logs.contains { $0.contains("does not read") })
        var withCommission = report
        withCommission.commission = TWSCommissionReport(executionID: report.execution.executionID, commission: 1, currency: "USD")
        let booked = harness.send(.orderEvent(generation: 1, .commission(withCommission)))
        #expect((actions + booked).logs.contains { $0.hasPrefix("fill: ") }, "the fill reached the engine")
        // The same execution again (a resynchronization's list): nothing said twice.
        let again = harness.send(.orderEvent(generation: 1, .execution(report)))
        #expect(!again.contains { if case .journal(.event(.note, _, _)) = $0 { true } else { false } })
    }

    /// The broker's executions read at start-up (a restart's reconciliation) with a time that does not read are
    /// kept and journaled with the time they were received, not left out of the broker's state.
    @Test func aStartUpExecutionWhoseTimeDoesNotReadIsKept() throws {
        var settings = Harness.settings()
        settings.journaled = true
        var harness = Harness(InAndOut(), settings: settings)
        harness.send(.start)
        var connection = Harness.connection()
        connection.info.connectionTime = "20231114 23:00:00 Central European Standard Time"
        var contract = TWSContract()
        contract.symbol = "AAPL"
        contract.securityType = "STK"
        contract.exchange = "SMART"
        contract.currency = "USD"
        contract.contractID = 265_598
        var execution = TWSExecution(executionID: "E-OLD")
        execution.orderID = 5
        execution.side = "BOT"
        execution.shares = 3
        execution.price = 100
        execution.time = "20231114 23:13:20 Martian Standard Time"
        execution.orderRef = "IBT:R1:1"
        let answers = BrokerAnswers(
            openOrders: [], executions: [TWSExecutionReport(contract: contract, execution: execution)], positions: [])
        let actions = harness.send(.connected(connection)) + harness.answerAll { request in
            if case .brokerState = request { return .brokerState(answers) }
            return Harness.answer(to: request)
        }
        let journaled = actions.compactMap { if case .journal(.executions(let snapshot, _)) = $0 { snapshot.executions } else { nil } }.flatMap { $0 }
        #expect(journaled.map(\.executionID) == ["E-OLD"])
        #expect(journaled.first?.time == harness.now)
        #expect(actions.contains { if case .journal(.event(.note, let text, _)) = $0 { text.contains("Martian Standard Time") } else { false } })
        #expect(!actions.logs.contains { $0.contains("ALERT: TWS names its time zone") }, "the login zone is known")
    }
}
