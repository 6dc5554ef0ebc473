import Foundation

/// The time zone names TWS writes after its date-times, and the zones they mean.
///
/// TWS writes times in the zone of its login (chosen in its login window, by default the zone of the machine it
/// runs on) and names that zone however that machine names it: an IANA name (`US/Eastern`, `Europe/Zurich`), an
/// abbreviation (`EST`, `CET`), or — TWS is a Java program — Java's English long name of the zone, which Java takes
/// from the Unicode CLDR since JDK 9 (`Central European Standard Time`, recorded from a real IB Gateway on Windows;
/// `Greenwich Mean Time`, `British Summer Time`, `Eastern European Standard Time`, reported from others). Many Java
/// names are also Windows zone names (`Central European Standard Time`, `Eastern Standard Time`), which an older
/// reading of the recordings took them for. A name is read, in this order:
///
/// 1. `UTC`, `GMT`, `Z`, `UT`, `Etc/UTC`, `Etc/GMT` (any case): UTC.
/// 2. A fixed offset, `GMT+01:00`, `UTC-5`, `GMT+0530` (Java's custom zone ids).
/// 3. An abbreviation of `abbreviations` (any case). Before the IANA names, because `EST`, `MST`, `HST`, `CET`,
///    `MET`, `EET` and `WET` are also IANA ids, three of them fixed offsets.
/// 4. An IANA name that Foundation knows, as written.
/// 5. A Windows name of CLDR's table `windowsZones` (any case); `… Daylight Time` as its `… Standard Time`; except
///    the names of `windowsNamesJavaReadsOtherwise`, which Java writes for another zone, with other offsets.
/// 6. A Java long name (any case): `javaNameChoices`, then CLDR's English names `javaZoneNames`. A metazone's name
///    means its golden zone: `Central European Standard Time` and `Central European Summer Time` are
///    Europe/Paris's, `Japan Standard Time` Asia/Tokyo's, `Australian Eastern Standard Time` Australia/Sydney's.
/// 7. An IANA name in another case (`us/eastern`), when only one IANA name matches.
/// 8. Java's name of a zone CLDR gives no name (`javaCityZone(of:)`): `Punta Arenas Standard Time`,
///    `Amman Standard Time`, `London Time`.
///
/// Every zone is DST-aware: the offset comes from the zone's rules on the date, whatever the name says. The words
/// `Standard`, `Daylight` and `Summer` in a name are not used to force an offset (a real gateway wrote `Central
/// European Standard Time` in April, in summer time; another `British Summer Time`): `EST` on a July date reads as
/// EDT, `Central European Standard Time` in April as CEST, `Central European Summer Time` in January as CET.
///
/// A name stands for every zone that shares it, and the golden zone is the one read: a TWS in Phoenix writes
/// `Mountain Standard Time` as one in Denver does, and its summer times would read an hour early; in Brisbane
/// `Australian Eastern Standard Time`, read as Sydney's. Such a login should choose its IANA zone in TWS's login
/// window (docs/tws-compatibility.md, "Time zones").
public enum TWSTimeZoneName {
    /// How a name was understood.
    public enum Kind: String, Sendable, Hashable {
        /// A name of UTC.
        case utc
        /// A fixed offset from UTC (`GMT+01:00`).
        case offset
        /// An abbreviation of `abbreviations`.
        case abbreviation
        /// An IANA name.
        case iana
        /// A Windows name of `windowsZones`.
        case windows
        /// A Java long name of `javaNameChoices` or `javaZoneNames`.
        case java
        /// Java's name of a zone CLDR gives no name, after the zone's city (`javaCityZone(of:)`).
        case javaCity
    }

    /// The zone a name means, or `nil` for a name none of the rules reads (see the type's documentation).
    public static func zone(named name: String) -> TimeZone? { understood(name)?.zone }

    /// The zone a name means and how it was read; `nil` for an unknown name.
    public static func understood(_ name: String) -> (zone: TimeZone, kind: Kind)? {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        let upper = name.uppercased()
        if utcNames.contains(upper) { return (utc, .utc) }
        if let zone = fixedOffset(upper) { return (zone, .offset) }
        if let iana = abbreviations[upper], let zone = TimeZone(identifier: iana) { return (zone, .abbreviation) }
        if let zone = TimeZone(identifier: name) { return (zone, .iana) }
        let lowercased = name.lowercased()
        if !windowsNamesJavaReadsOtherwise.contains(lowercased), let iana = windowsZone(of: name),
            let zone = TimeZone(identifier: iana)
        {
            return (zone, .windows)
        }
        if let iana = javaZone(of: name), let zone = TimeZone(identifier: iana) { return (zone, .java) }
        if let iana = ianaByLowercasedName[lowercased], let zone = TimeZone(identifier: iana) { return (zone, .iana) }
        if let iana = javaCityZone(of: name), let zone = TimeZone(identifier: iana) { return (zone, .javaCity) }
        return nil
    }

    /// The IANA zone CLDR gives a Windows name (any case; `… Daylight Time` as its `… Standard Time`), or `nil`.
    public static func windowsZone(of name: String) -> String? {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased()
        if let iana = windowsByLowercasedName[key] { return iana }
        if key.hasSuffix(" daylight time") {
            return windowsByLowercasedName[key.dropLast(" daylight time".count) + " standard time"]
        }
        return nil
    }

    /// The IANA zone a Java long name means (any case): `javaNameChoices`, then CLDR's `javaZoneNames`; or `nil`.
    public static func javaZone(of name: String) -> String? {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased()
        return javaChoicesByLowercasedName[key] ?? javaByLowercasedName[key]
    }

    /// The IANA zone of Java's name for a zone CLDR gives no English name, or `nil`.
    ///
    /// Java then names a zone after its city, with CLDR's English region formats `{0} Time`, `{0} Standard Time`
    /// and `{0} Daylight Time` (and `{0} Summer Time` in older JDKs): OpenJDK 17 writes `Punta Arenas Standard
    /// Time` for America/Punta_Arenas, OpenJDK 25 `Amman Standard Time` for Asia/Amman and `London Time` for
    /// Europe/London's generic name. The city is the last part of an IANA name Foundation knows, `_` read as a
    /// space (any case); a city two zones with different offsets share reads as nothing.
    public static func javaCityZone(of name: String) -> String? {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased()
        for suffix in [" standard time", " daylight time", " summer time", " time"] where key.hasSuffix(suffix) {
            let city = key.dropLast(suffix.count)
            return city.isEmpty ? nil : ianaByLowercasedCity[String(city)]
        }
        return nil
    }

    /// Java long names the bot reads otherwise than CLDR's table, or that the table lacks (lower case), and why.
    ///
    /// - `Greenwich Mean Time`: CLDR's golden zone of its metazone is Atlantic/Reykjavik (GMT all year), but Java
    ///   writes it as the standard name of Europe/London and Europe/Dublin, and of the zone ids `GMT` and
    ///   `Etc/GMT`; a real TWS 10.30 on Windows 11 wrote it in its connection time, and its user read it as
    ///   London's (wboayue/rust-ibapi pull request 402); another wrote `British Summer Time` in April (its issue
    ///   233). Read as London's, the trading zone: a TWS set to the zone `GMT` (or in Reykjavik, Accra, Dakar)
    ///   would have its summer times read an hour early; choose `UTC` in TWS's login window, which Java writes
    ///   `Coordinated Universal Time`.
    /// - `Turkey Time`, `Turkey Summer Time`: OpenJDK 17's names for Europe/Istanbul (from its pre-CLDR names:
    ///   CLDR 46 has no English name for the zone; OpenJDK 25 writes `Istanbul Standard Time`).
    /// - `Taiwan Standard Time`, `… Daylight Time`, `Taiwan Time`: OpenJDK 25's names for Asia/Taipei (CLDR 47's;
    ///   CLDR 46 and OpenJDK 17 write `Taipei Standard Time`).
    public static let javaNameChoices: [String: String] = [
        "greenwich mean time": "Europe/London",
        "turkey time": "Europe/Istanbul", "turkey summer time": "Europe/Istanbul",
        "taiwan standard time": "Asia/Taipei", "taiwan daylight time": "Asia/Taipei", "taiwan time": "Asia/Taipei",
    ]

    /// Windows names (lower case) that Java writes for another zone, whose offsets differ from the Windows zone's
    /// in 2020–2030: read as Java's, because TWS is a Java program and Java writes its own names, never Windows'
    /// (JavaZoneNameTests lists every name both tables have and checks this set).
    ///
    /// - `Arabian Standard Time`, `… Daylight Time`: Windows' Asia/Dubai (UTC+4); Java's Arabian metazone, golden
    ///   zone Asia/Riyadh (UTC+3), written for Riyadh, Baghdad, Kuwait and Qatar (Java writes Dubai's
    ///   `Gulf Standard Time`).
    /// - `Samoa Standard Time`, `… Daylight Time`: Windows' Pacific/Apia (UTC+13); CLDR 46's Samoa metazone, golden
    ///   zone Pacific/Pago_Pago (UTC−11), OpenJDK 17's name for American Samoa (OpenJDK 25, on CLDR 47, writes it
    ///   for Apia).
    ///
    /// Every other name of both tables means zones with the same offsets in 2020–2030 (`Central European Standard
    /// Time`: Windows' Europe/Warsaw, Java's Europe/Paris), and is read as Windows', as before.
    public static let windowsNamesJavaReadsOtherwise: Set<String> = [
        "arabian standard time", "arabian daylight time", "samoa standard time", "samoa daylight time",
    ]

    /// UTC.
    public static let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone.current

    /// Abbreviations (upper case) and the IANA zone each stands for, DST rules included.
    ///
    /// Sources: Foundation's `TimeZone.abbreviationDictionary` (Apple's default list, kept as it was so that every
    /// abbreviation read before still reads the same), Java's short zone ids (`java.time.ZoneId.SHORT_IDS`: TWS is a
    /// Java program and its login zone is a Java zone id) where they do not clash with that list, and the
    /// abbreviations Java writes for the exchanges' zones (`AEST`, `MEZ` in a German TWS). Where one abbreviation
    /// means several zones the choice is the trading one and is written beside it; `NST` and `SST` (Newfoundland or
    /// New Zealand, Samoa or Solomon Islands) are left out: an unknown name is an ALERT at connect, a wrong zone
    /// would be silent.
    public static let abbreviations: [String: String] = [
        // North America.
        "EST": "America/New_York", "EDT": "America/New_York", "ET": "America/New_York",
        "CST": "America/Chicago",  // not China (CTT) nor Cuba
        "CDT": "America/Chicago", "CT": "America/Chicago",
        "MST": "America/Denver", "MDT": "America/Denver", "MT": "America/Denver",
        "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles", "PT": "America/Los_Angeles",
        "AKST": "America/Juneau", "AKDT": "America/Juneau", "HST": "Pacific/Honolulu",
        "AST": "America/Halifax",  // Atlantic, as Foundation (Java's AST is Alaska)
        "ADT": "America/Halifax", "CNT": "America/St_Johns", "IET": "America/Indiana/Indianapolis",
        "PNT": "America/Phoenix",
        // South America.
        "ART": "America/Argentina/Buenos_Aires",  // as Foundation (Java's ART is Cairo)
        "AGT": "America/Argentina/Buenos_Aires", "BRT": "America/Sao_Paulo", "BRST": "America/Sao_Paulo",
        "BET": "America/Sao_Paulo", "CLT": "America/Santiago", "CLST": "America/Santiago", "COT": "America/Bogota",
        "PET": "America/Lima",
        // Europe and Africa.
        "WET": "Europe/Lisbon", "WEST": "Europe/Lisbon",
        "BST": "Europe/London",  // British Summer Time, as Foundation (Java's BST is Dhaka)
        "CET": "Europe/Paris", "CEST": "Europe/Paris", "MET": "Europe/Paris", "MEST": "Europe/Paris",
        "ECT": "Europe/Paris", "MEZ": "Europe/Berlin", "MESZ": "Europe/Berlin",
        "EET": "Europe/Athens", "EEST": "Europe/Athens", "MSK": "Europe/Moscow", "MSD": "Europe/Moscow",
        "WAT": "Africa/Lagos", "CAT": "Africa/Harare", "EAT": "Africa/Addis_Ababa", "SAST": "Africa/Johannesburg",
        // Asia.
        "GST": "Asia/Dubai", "IRST": "Asia/Tehran", "NET": "Asia/Yerevan", "PKT": "Asia/Karachi",
        "PLT": "Asia/Karachi",
        "IST": "Asia/Calcutta",  // India, as Foundation and Java (not Israel nor Ireland)
        "BDT": "Asia/Dhaka", "ICT": "Asia/Bangkok", "VST": "Asia/Ho_Chi_Minh", "WIB": "Asia/Jakarta",
        "WIT": "Asia/Jakarta", "HKT": "Asia/Hong_Kong", "SGT": "Asia/Singapore", "PHT": "Asia/Manila",
        "CTT": "Asia/Shanghai", "PRC": "Asia/Shanghai", "JST": "Asia/Tokyo", "KST": "Asia/Seoul",
        // Oceania.
        "AWST": "Australia/Perth", "ACST": "Australia/Adelaide", "ACDT": "Australia/Adelaide",
        "ACT": "Australia/Darwin", "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney",
        "AET": "Australia/Sydney", "NZST": "Pacific/Auckland", "NZDT": "Pacific/Auckland", "MIT": "Pacific/Apia",
    ]

    private static let utcNames: Set<String> = ["UTC", "GMT", "Z", "UT", "ETC/UTC", "ETC/GMT"]

    private static let windowsByLowercasedName: [String: String] = Dictionary(
        windowsZones.map { ($0.windows.lowercased(), $0.iana) }, uniquingKeysWith: { first, _ in first })

    private static let javaByLowercasedName: [String: String] = Dictionary(
        javaZoneNames.map { ($0.name.lowercased(), $0.iana) }, uniquingKeysWith: { first, _ in first })

    private static let javaChoicesByLowercasedName: [String: String] = Dictionary(
        javaNameChoices.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })

    /// Foundation's IANA names of a region and city (`Europe/London`; not `Etc/GMT+5`, nor the old `US/…`) by their
    /// city (the last part, lower case, `_` as a space), where every name of that city has the same offsets
    /// (aliases such as America/Indianapolis and America/Indiana/Indianapolis); the first in sorted order.
    private static let ianaByLowercasedCity: [String: String] = {
        let regions: Set<Substring> = [
            "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific",
        ]
        var byCity: [String: [String]] = [:]
        for identifier in TimeZone.knownTimeZoneIdentifiers.sorted() {
            let parts = identifier.split(separator: "/")
            guard parts.count > 1, regions.contains(parts[0]), let city = parts.last else { continue }
            byCity[city.replacingOccurrences(of: "_", with: " ").lowercased(), default: []].append(identifier)
        }
        // 15 January, 1 April, 15 July and 1 November 2025: winter and summer offsets, north and south, and a day
        // between Europe's and North America's autumn changes.
        let dates = [1_736_942_400, 1_743_465_600, 1_752_580_800, 1_761_955_200].map { Date(timeIntervalSince1970: $0) }
        func offsets(_ identifier: String) -> [Int]? {
            TimeZone(identifier: identifier).map { zone in dates.map { zone.secondsFromGMT(for: $0) } }
        }
        return byCity.compactMapValues { identifiers in
            guard let first = identifiers.first, let expected = offsets(first) else { return nil }
            return identifiers.dropFirst().allSatisfy { offsets($0) == expected } ? first : nil
        }
    }()

    /// Foundation's IANA names (with the tables' and the old `US/…` names IB uses, which Foundation may know
    /// without listing them) by their lower-case form, where that form is one name's only.
    private static let ianaByLowercasedName: [String: String] = {
        var byLowercased: [String: String?] = [:]
        let legacy = ["US/Eastern", "US/Central", "US/Mountain", "US/Pacific", "US/Arizona", "US/Alaska", "US/Hawaii"]
        let tables = windowsZones.map(\.iana) + abbreviations.values + javaZoneNames.map(\.iana) + javaNameChoices.values
        for identifier in Set(TimeZone.knownTimeZoneIdentifiers + legacy + tables) where TimeZone(identifier: identifier) != nil {
            let key = identifier.lowercased()
            byLowercased[key] = byLowercased[key] == nil ? identifier : .some(nil)
        }
        return byLowercased.compactMapValues { $0 }
    }()

    /// `GMT+01:00`, `UTC-5`, `GMT+0530` (upper case), within ±18 hours.
    private static func fixedOffset(_ upper: String) -> TimeZone? {
        guard upper.hasPrefix("GMT") || upper.hasPrefix("UTC"), upper.count > 4 else { return nil }
        let rest = Array(upper.dropFirst(3).utf8)
        guard rest[0] == UInt8(ascii: "+") || rest[0] == UInt8(ascii: "-") else { return nil }
        let digits = rest.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard (1...4).contains(digits.count), digits.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            rest.dropFirst().filter({ $0 == UInt8(ascii: ":") }).count <= 1
        else { return nil }
        let values = digits.map { Int($0 - 48) }
        let (hours, minutes): (Int, Int) =
            switch values.count {
            case 1: (values[0], 0)
            case 2: (values[0] * 10 + values[1], 0)
            case 3: (values[0], values[1] * 10 + values[2])
            default: (values[0] * 10 + values[1], values[2] * 10 + values[3])
            }
        guard hours <= 18, minutes < 60 else { return nil }
        let seconds = (hours * 3600 + minutes * 60) * (rest[0] == UInt8(ascii: "-") ? -1 : 1)
        return TimeZone(secondsFromGMT: seconds)
    }
}
