import Foundation

/// The time zone names TWS writes after its date-times, and the zones they mean.
///
/// TWS writes times in the zone of its login (chosen in its login window, by default the zone of the machine it
/// runs on) and names that zone however that machine names it: an IANA name (`US/Eastern`, `Europe/Zurich`), an
/// abbreviation (`EST`, `CET`), or, on Windows, a Windows zone name (`Central European Standard Time`, recorded from
/// a real IB Gateway in April, that is in summer time: the name is the zone's, not the offset's). A name is read,
/// in this order:
///
/// 1. `UTC`, `GMT`, `Z`, `UT`, `Etc/UTC`, `Etc/GMT` (any case): UTC.
/// 2. A fixed offset, `GMT+01:00`, `UTC-5`, `GMT+0530` (Java's custom zone ids).
/// 3. An abbreviation of `abbreviations` (any case). Before the IANA names, because `EST`, `MST`, `HST`, `CET`,
///    `MET`, `EET` and `WET` are also IANA ids, three of them fixed offsets.
/// 4. An IANA name that Foundation knows, as written.
/// 5. A Windows name of CLDR's table `windowsZones` (any case); `… Daylight Time` as its `… Standard Time`.
/// 6. An IANA name in another case (`us/eastern`), when only one IANA name matches.
///
/// Every zone is DST-aware: the offset comes from the zone's rules on the date, whatever the name says
/// (`EST` on a July date reads as EDT, as `Central European Standard Time` in April reads as CEST).
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
        if let iana = windowsZone(of: name), let zone = TimeZone(identifier: iana) { return (zone, .windows) }
        if let iana = ianaByLowercasedName[name.lowercased()], let zone = TimeZone(identifier: iana) {
            return (zone, .iana)
        }
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

    /// Foundation's IANA names (with the tables' and the old `US/…` names IB uses, which Foundation may know
    /// without listing them) by their lower-case form, where that form is one name's only.
    private static let ianaByLowercasedName: [String: String] = {
        var byLowercased: [String: String?] = [:]
        let legacy = ["US/Eastern", "US/Central", "US/Mountain", "US/Pacific", "US/Arizona", "US/Alaska", "US/Hawaii"]
        let tables = windowsZones.map(\.iana) + abbreviations.values
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
