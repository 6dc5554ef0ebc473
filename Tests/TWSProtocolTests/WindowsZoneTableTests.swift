import Foundation
import TWSProtocol
import Testing

/// The zone names TWS may send: CLDR's Windows table, the abbreviations, IANA names (`TWSTimeZoneName`).
@Suite struct WindowsZoneTableTests {
    /// Every IANA zone the tables name resolves with this machine's Foundation (Linux's may lack an old alias):
    /// a zone that does not would make its names unknown here.
    @Test func everyZoneOfTheTablesIsKnownToFoundationHere() {
        let zones = Set(TWSTimeZoneName.windowsZones.map(\.iana) + TWSTimeZoneName.abbreviations.values)
        let unknown = zones.filter { TimeZone(identifier: $0) == nil }.sorted()
        #expect(unknown.isEmpty, "unknown to Foundation here: \(unknown)")
        #expect(TWSTimeZoneName.windowsZones.count >= 130)
    }

    @Test func everyWindowsNameReadsAsItsZoneInAnyCase() {
        let names = TWSTimeZoneName.windowsZones.map(\.windows)
        #expect(Set(names.map { $0.lowercased() }).count == names.count, "a Windows name twice")
        // The same offsets through the year (`UTC-08` reads as a fixed offset, the same as its Etc/GMT+8).
        let dates = [1_736_942_400, 1_743_465_600, 1_752_580_800, 1_761_955_200].map { Date(timeIntervalSince1970: $0) }
        // But the four names Java writes for a zone of other offsets, read as Java's (JavaZoneNameTests).
        for (windows, iana) in TWSTimeZoneName.windowsZones
        where !TWSTimeZoneName.windowsNamesJavaReadsOtherwise.contains(windows.lowercased()) {
            let expected = TimeZone(identifier: iana)
            for spelling in [windows, windows.lowercased(), windows.uppercased(), " \(windows) "] {
                let zone = TWSTimeZoneName.zone(named: spelling)
                #expect(zone.map { z in dates.map { z.secondsFromGMT(for: $0) } } == expected.map { z in dates.map { z.secondsFromGMT(for: $0) } }, "\(spelling)")
            }
        }
    }

    /// What recorded and reported gateways sent (docs/tws-compatibility.md, "Time zones").
    @Test(arguments: [
        ("Central European Standard Time", "Europe/Warsaw", TWSTimeZoneName.Kind.windows),
        ("Central European Daylight Time", "Europe/Warsaw", .windows),
        ("W. Europe Standard Time", "Europe/Berlin", .windows),
        ("Central Standard Time", "America/Chicago", .windows),
        ("Eastern Standard Time", "America/New_York", .windows),
        ("US/Eastern", "US/Eastern", .iana),
        ("us/eastern", "US/Eastern", .iana),
        ("America/New_York", "America/New_York", .iana),
        ("EST", "America/New_York", .abbreviation),
        ("edt", "America/New_York", .abbreviation),
        ("CET", "Europe/Paris", .abbreviation),
        ("MET", "Europe/Paris", .abbreviation),
        ("JST", "Asia/Tokyo", .abbreviation),
        ("HKT", "Asia/Hong_Kong", .abbreviation),
        ("AEST", "Australia/Sydney", .abbreviation),
        ("BST", "Europe/London", .abbreviation),
        ("MSK", "Europe/Moscow", .abbreviation),
    ])
    func theNamesGatewaysSend(name: String, zone: String, kind: TWSTimeZoneName.Kind) {
        let understood = TWSTimeZoneName.understood(name)
        #expect(understood?.zone == TimeZone(identifier: zone))
        #expect(understood?.kind == kind)
    }

    @Test func utcOffsetsAndUnknownNames() {
        for name in ["UTC", "GMT", "z", "Etc/UTC"] { #expect(TWSTimeZoneName.understood(name)?.kind == .utc) }
        #expect(TWSTimeZoneName.zone(named: "GMT+01:00")?.secondsFromGMT() == 3600)
        #expect(TWSTimeZoneName.zone(named: "UTC-5")?.secondsFromGMT() == -18_000)
        #expect(TWSTimeZoneName.zone(named: "GMT+0530")?.secondsFromGMT() == 19_800)
        #expect(TWSTimeZoneName.zone(named: "UTC-11")?.secondsFromGMT() == -39_600)
        for name in ["", "GMT+25", "GMT+1:2:3", "Mitteleuropäische Zeit", "Mars/Olympus", "Central Martian Standard Time"] {
            #expect(TWSTimeZoneName.zone(named: name) == nil, "\(name)")
        }
        // Abbreviations that are also IANA ids of fixed offsets read DST-aware: EST in July is EDT.
        let july = Date(timeIntervalSince1970: 1_751_371_200)  // 2025-07-01 12:00 UTC
        #expect(TWSTimeZoneName.zone(named: "EST")?.secondsFromGMT(for: july) == -4 * 3600)
    }
}
