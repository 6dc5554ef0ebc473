import Foundation
import TWSProtocol
import TradingModel

/// The zone a simulated TWS login writes its times in, and the name it gives that zone: the handshake's connection
/// time, execution times and completed orders' times are `yyyyMMdd HH:mm:ss <name>` in that zone's wall-clock time,
/// as a real TWS writes them in the zone of the machine it runs on (`20260414 20:36:26 Central European Standard
/// Time` from a Windows-hosted IB Gateway). UTC unless configured (`ibtrader gateway --login-zone`,
/// `GatewayConfiguration.loginZone`). Historical bars keep their UTC times: a real TWS dates them in the exchange's
/// zone, not the login's.
public struct TWSLoginZone: Sendable, Hashable, CustomStringConvertible {
    /// The name written after each time (`Central European Standard Time`, `US/Eastern`, `UTC`).
    public var name: String
    /// The zone whose wall-clock time is written, DST rules included.
    public var zone: TimeZone

    /// UTC, named `UTC`: the simulator's default.
    public static let utc = TWSLoginZone(name: "UTC", zone: TWSTimeZoneName.utc)

    /// A zone and its name.
    public init(name: String, zone: TimeZone) {
        self.name = name
        self.zone = zone
    }

    /// `NAME` (an IANA name, abbreviation or Windows name `TWSTimeZoneName` knows: `Central European Standard Time`)
    /// or `NAME=ZONE` (`NAME` written as given, for a name a client may not know, such as a Windows name in another
    /// language, with `ZONE`'s rules).
    /// - Throws: `TWSLoginZoneError.unknown` for a name, or a `ZONE`, that `TWSTimeZoneName` does not know.
    public init(parsing text: String) throws(TWSLoginZoneError) {
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let name = parts.first ?? ""
        let zoneName = parts.count == 2 ? parts[1] : name
        guard !name.isEmpty, let zone = TWSTimeZoneName.zone(named: zoneName) else { throw .unknown(text) }
        self.init(name: name, zone: zone)
    }

    /// `yyyyMMdd HH:mm:ss <name>`: `t` in this zone's wall-clock time.
    public func text(_ t: Timestamp) -> String {
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(TWSTimeText.epochSeconds(t))))
        return TWSTimeText.dateTime(t + .seconds(Int64(offset))) + " " + name
    }

    public var description: String { name }
}

/// A login zone that cannot be used.
public enum TWSLoginZoneError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text names no zone this system knows.
    case unknown(String)

    public var description: String {
        switch self {
        case .unknown(let text):
            "unknown time zone \"\(text)\" for the login zone: give an IANA name (Europe/Paris), an abbreviation "
                + "(EST), a Windows name (Central European Standard Time), or NAME=ZONE to write any NAME with ZONE's rules"
        }
    }
}
