import Foundation
import TWSProtocol
import Testing

/// The zone names Java writes (TWS is a Java program): CLDR's English long names (`TWSTimeZoneName.javaZoneNames`),
/// the choices made for a few, and the city forms Java writes for zones CLDR gives no name.
@Suite struct JavaZoneNameTests {
    /// Instants, from 2020-01-01 to 2031-01-01, at which two zones' offsets are compared: every change of either
    /// zone (a second before, at it, a second after) and every Monday and Thursday at 00:00 and 12:00 UTC.
    static func instants(_ zones: [TimeZone]) -> [Date] {
        let start = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
        let end = Date(timeIntervalSince1970: 1_924_992_000)  // 2031-01-01
        var instants = stride(from: start.timeIntervalSince1970, to: end.timeIntervalSince1970, by: 3.5 * 86_400)
            .flatMap { [$0, $0 + 43_200] }
        for zone in zones {
            var date = start
            while let next = zone.nextDaylightSavingTimeTransition(after: date), next < end {
                instants += [-1, 0, 1].map { next.timeIntervalSince1970 + $0 }
                date = next
            }
        }
        return instants.map { Date(timeIntervalSince1970: $0) }
    }

    /// Whether two zones have the same offset at every instant of 2020–2030.
    static func sameOffsets(_ a: TimeZone, _ b: TimeZone) -> Bool {
        instants([a, b]).allSatisfy { a.secondsFromGMT(for: $0) == b.secondsFromGMT(for: $0) }
    }

    /// The zone the lookup's documentation says a Java name of the table means: a choice, else the table's.
    static func documentedZone(_ name: String, tableZone: String) -> String {
        TWSTimeZoneName.javaNameChoices[name.lowercased()] ?? tableZone
    }

    @Test func everyZoneOfTheTableIsKnownToFoundationHere() {
        let zones = Set(TWSTimeZoneName.javaZoneNames.map(\.iana) + TWSTimeZoneName.javaNameChoices.values)
        let unknown = zones.filter { TimeZone(identifier: $0) == nil }.sorted()
        #expect(unknown.isEmpty, "unknown to Foundation here: \(unknown)")
        #expect(TWSTimeZoneName.javaZoneNames.count >= 360)
        let names = TWSTimeZoneName.javaZoneNames.map { $0.name.lowercased() }
        #expect(Set(names).count == names.count, "a name twice")
    }

    /// Every name of the table reads, in any case, as a zone with the offsets of the zone it is documented to mean
    /// (the Windows table's, for a name both have: `namesBothTablesHave` shows their offsets the same).
    @Test func everyJavaNameReadsAsItsZoneInAnyCase() {
        let dates = [1_736_942_400, 1_743_465_600, 1_752_580_800, 1_761_955_200].map { Date(timeIntervalSince1970: $0) }
        var failures: [String] = []
        for (name, iana) in TWSTimeZoneName.javaZoneNames {
            let documented = TimeZone(identifier: Self.documentedZone(name, tableZone: iana))
            let expected = documented.map { z in dates.map { z.secondsFromGMT(for: $0) } }
            for spelling in [name, name.lowercased(), name.uppercased(), " \(name) "] {
                let read = TWSTimeZoneName.zone(named: spelling).map { z in dates.map { z.secondsFromGMT(for: $0) } }
                if read == nil || read != expected { failures.append("\(spelling): \(read.map { "\($0)" } ?? "unknown")") }
            }
            #expect(TWSTimeZoneName.understood(name)?.kind != nil)
        }
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(10))")
    }

    /// The names that are both a Windows name and a Java name of another zone: those whose zones' offsets differ
    /// at some instant of 2020–2030 are exactly `windowsNamesJavaReadsOtherwise` and read as Java's; the others
    /// (`Central European Standard Time`: Windows' Europe/Warsaw, Java's Europe/Paris) read as Windows' did.
    @Test func namesBothTablesHave() throws {
        var differing: Set<String> = []
        var agreeing: [String] = []
        for (name, iana) in TWSTimeZoneName.javaZoneNames {
            guard let windows = TWSTimeZoneName.windowsZone(of: name), windows != iana else { continue }
            let java = try #require(TimeZone(identifier: iana))
            let other = try #require(TimeZone(identifier: windows))
            if Self.sameOffsets(java, other) {
                agreeing.append(name)
                #expect(TWSTimeZoneName.understood(name)?.kind == .windows, "\(name)")
            } else {
                differing.insert(name.lowercased())
                #expect(TWSTimeZoneName.understood(name)?.zone == java, "\(name): Java's \(iana), not Windows' \(windows)")
            }
        }
        #expect(differing == TWSTimeZoneName.windowsNamesJavaReadsOtherwise)
        #expect(differing == ["arabian standard time", "arabian daylight time", "samoa standard time", "samoa daylight time"])
        #expect(agreeing.contains("Central European Standard Time"), "\(agreeing)")
    }

    /// The names OpenJDK 17 (the runtime of TWS 10.30 and later) writes for the zones of the exchanges and of IB's
    /// customers: `TimeZone.getDisplayName(false, LONG, Locale.ENGLISH)` and, for a zone with summer time,
    /// `getDisplayName(true, …)`, recorded here with OpenJDK 17.0.15. Each reads as a zone with the same offsets as
    /// the zone Java wrote it for at every instant of 2020–2030, but for `misread`: zones that share their name
    /// with a zone of other rules, read as that name's golden zone (`TWSTimeZoneName`'s documentation).
    static let openJDK17Names: [(zone: String, standard: String, daylight: String)] = [
        ("America/New_York", "Eastern Standard Time", "Eastern Daylight Time"),
        ("America/Chicago", "Central Standard Time", "Central Daylight Time"),
        ("America/Denver", "Mountain Standard Time", "Mountain Daylight Time"),
        ("America/Phoenix", "Mountain Standard Time", "Mountain Daylight Time"),
        ("America/Los_Angeles", "Pacific Standard Time", "Pacific Daylight Time"),
        ("America/Anchorage", "Alaska Standard Time", "Alaska Daylight Time"),
        ("Pacific/Honolulu", "Hawaii-Aleutian Standard Time", "Hawaii-Aleutian Daylight Time"),
        ("America/Toronto", "Eastern Standard Time", "Eastern Daylight Time"),
        ("America/Vancouver", "Pacific Standard Time", "Pacific Daylight Time"),
        ("America/Halifax", "Atlantic Standard Time", "Atlantic Daylight Time"),
        ("America/St_Johns", "Newfoundland Standard Time", "Newfoundland Daylight Time"),
        ("America/Mexico_City", "Central Standard Time", "Central Daylight Time"),
        ("America/Sao_Paulo", "Brasilia Standard Time", "Brasilia Summer Time"),
        ("America/Argentina/Buenos_Aires", "Argentina Standard Time", "Argentina Summer Time"),
        ("America/Santiago", "Chile Standard Time", "Chile Summer Time"),
        ("America/Bogota", "Colombia Standard Time", "Colombia Summer Time"),
        ("America/Lima", "Peru Standard Time", "Peru Summer Time"),
        ("Europe/London", "Greenwich Mean Time", "British Summer Time"),
        ("Europe/Dublin", "Greenwich Mean Time", "Irish Standard Time"),
        ("Europe/Lisbon", "Western European Standard Time", "Western European Summer Time"),
        ("Europe/Paris", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Berlin", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Zurich", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Amsterdam", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Madrid", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Rome", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Stockholm", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Oslo", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Warsaw", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Prague", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Vienna", "Central European Standard Time", "Central European Summer Time"),
        ("Europe/Athens", "Eastern European Standard Time", "Eastern European Summer Time"),
        ("Europe/Helsinki", "Eastern European Standard Time", "Eastern European Summer Time"),
        ("Europe/Istanbul", "Turkey Time", "Turkey Summer Time"),
        ("Europe/Moscow", "Moscow Standard Time", "Moscow Summer Time"),
        ("Asia/Jerusalem", "Israel Standard Time", "Israel Daylight Time"),
        ("Asia/Dubai", "Gulf Standard Time", "Gulf Daylight Time"),
        ("Asia/Riyadh", "Arabian Standard Time", "Arabian Daylight Time"),
        ("Asia/Kolkata", "India Standard Time", "India Daylight Time"),
        ("Asia/Karachi", "Pakistan Standard Time", "Pakistan Summer Time"),
        ("Asia/Bangkok", "Indochina Time", "Indochina Summer Time"),
        ("Asia/Jakarta", "Western Indonesia Time", "West Indonesia Summer Time"),
        ("Asia/Singapore", "Singapore Standard Time", "Singapore Summer Time"),
        ("Asia/Kuala_Lumpur", "Malaysia Time", "Malaysia Summer Time"),
        ("Asia/Manila", "Philippine Standard Time", "Philippine Summer Time"),
        ("Asia/Hong_Kong", "Hong Kong Standard Time", "Hong Kong Summer Time"),
        ("Asia/Shanghai", "China Standard Time", "China Daylight Time"),
        ("Asia/Taipei", "Taipei Standard Time", "Taipei Daylight Time"),
        ("Asia/Seoul", "Korean Standard Time", "Korean Daylight Time"),
        ("Asia/Tokyo", "Japan Standard Time", "Japan Daylight Time"),
        ("Australia/Perth", "Australian Western Standard Time", "Australian Western Daylight Time"),
        ("Australia/Adelaide", "Australian Central Standard Time", "Australian Central Daylight Time"),
        ("Australia/Darwin", "Australian Central Standard Time", "Australian Central Daylight Time"),
        ("Australia/Brisbane", "Australian Eastern Standard Time", "Australian Eastern Daylight Time"),
        ("Australia/Sydney", "Australian Eastern Standard Time", "Australian Eastern Daylight Time"),
        ("Australia/Melbourne", "Australian Eastern Standard Time", "Australian Eastern Daylight Time"),
        ("Pacific/Auckland", "New Zealand Standard Time", "New Zealand Daylight Time"),
        ("Africa/Johannesburg", "South Africa Standard Time", "South Africa Summer Time"),
        ("Africa/Cairo", "Eastern European Standard Time", "Eastern European Summer Time"),
        ("Africa/Lagos", "West Africa Standard Time", "West Africa Summer Time"),
        ("Africa/Nairobi", "East Africa Time", "Eastern African Summer Time"),
        ("UTC", "Coordinated Universal Time", "Coordinated Universal Time"),
        ("GMT", "Greenwich Mean Time", "Greenwich Mean Time"),
    ]

    /// The zones of `openJDK17Names` whose names are read as another zone's, with other offsets in 2020–2030, and
    /// the zone read: Phoenix, Mexico City (no summer time since 2022), Darwin and Brisbane keep standard time all
    /// year; Cairo changes on other dates than Europe; TWS's zone `GMT` is written as London is.
    static let misread: [String: String] = [
        "America/Phoenix": "America/Denver", "America/Mexico_City": "America/Chicago",
        "Australia/Darwin": "Australia/Adelaide", "Australia/Brisbane": "Australia/Sydney",
        "Africa/Cairo": "Europe/Bucharest", "GMT": "Europe/London",
    ]

    @Test func theNamesOpenJDK17WritesForTradingZones() throws {
        var misreadHere: [String: String] = [:]
        for (identifier, standard, daylight) in Self.openJDK17Names {
            let zone = try #require(TimeZone(identifier: identifier))
            let observesSummerTime = Self.instants([zone]).contains { zone.isDaylightSavingTime(for: $0) }
            for name in observesSummerTime ? [standard, daylight] : [standard] {
                let read = try #require(TWSTimeZoneName.zone(named: name), "\(name) (\(identifier)) does not read")
                if !Self.sameOffsets(read, zone) { misreadHere[identifier] = read.identifier }
            }
        }
        #expect(misreadHere == Self.misread)
    }

    /// Names real gateways wrote or users reported, and how each reads.
    @Test(arguments: [
        // A real IB Gateway on Windows in April (recorded); rust-ibapi pull request 455 (a Greek Windows 11, April).
        ("Central European Standard Time", "Europe/Warsaw", TWSTimeZoneName.Kind.windows),
        ("Eastern European Standard Time", "Europe/Bucharest", .java),
        // rust-ibapi pull request 402 (TWS 10.30.1t, Windows 11, February) and issue 233 (April).
        ("Greenwich Mean Time", "Europe/London", .java),
        ("British Summer Time", "Europe/London", .java),
        // Jib.jl issue 6 (Windows 10): a Java name and a Windows name of the same zone.
        ("Central Standard Time", "America/Chicago", .windows),
        // CLDR's names of the zones the brief names.
        ("Central European Summer Time", "Europe/Paris", .java),
        ("Central European Time", "Europe/Paris", .java),
        ("central european summer time", "Europe/Paris", .java),
        ("Japan Standard Time", "Asia/Tokyo", .java),
        ("Hong Kong Standard Time", "Asia/Hong_Kong", .java),
        ("Australian Eastern Standard Time", "Australia/Sydney", .java),
        ("Australian Eastern Daylight Time", "Australia/Sydney", .java),
        ("Australian Eastern Time", "Australia/Sydney", .java),  // en_AU's generic name
        ("Eastern Daylight Saving Time", "America/New_York", .java),  // en_CA's
        ("Irish Standard Time", "Europe/Dublin", .java),
        ("Coordinated Universal Time", "Etc/UTC", .java),
        ("Arabian Standard Time", "Asia/Riyadh", .java),
        ("Gulf Standard Time", "Asia/Dubai", .java),
        ("Turkey Time", "Europe/Istanbul", .java),
        ("Taiwan Standard Time", "Asia/Taipei", .java),  // OpenJDK 25's
        // City forms: OpenJDK 17 and 25 for zones CLDR names nothing.
        ("Punta Arenas Standard Time", "America/Punta_Arenas", .javaCity),
        ("Amman Standard Time", "Asia/Amman", .javaCity),
        ("Istanbul Standard Time", "Europe/Istanbul", .javaCity),
        ("Srednekolymsk Time", "Asia/Srednekolymsk", .javaCity),
        ("London Time", "Europe/London", .javaCity),
        ("buenos aires summer time", "America/Argentina/Buenos_Aires", .javaCity),
    ])
    func theNamesJavaWrites(name: String, zone: String, kind: TWSTimeZoneName.Kind) throws {
        let understood = TWSTimeZoneName.understood(name)
        let expected = try #require(TimeZone(identifier: zone))
        #expect(understood?.kind == kind)
        let read = understood?.zone.identifier ?? "nothing"
        #expect(understood.map { Self.sameOffsets($0.zone, expected) } == true, "\(name): \(read)")
    }

    @Test func namesNoRuleReads() {
        for name in [
            "Standard Time", " Time", "Mitteleuropäische Normalzeit", "Central Martian Standard Time",
            "Olympus Mons Time", "GMT+5 Standard Time", "Eastern", "London", "Europe/London Time",
        ] {
            #expect(TWSTimeZoneName.zone(named: name) == nil, "\(name)")
        }
    }
}
