/// One of TWS's data farms: its connection to IB's servers for market data, historical data (HMDS) or security
/// definitions, as the farm notices name it ("Market data farm connection is broken:usfarm" → `usfarm`).
public struct TWSFarm: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// What a farm serves.
    public enum Kind: Int, Sendable, Hashable, Comparable, Codable {
        /// Quotes and real-time bars.
        case marketData
        /// Historical bars (HMDS).
        case historicalData
        /// Contract details (sec-def).
        case securityDefinition

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What it serves.
    public var kind: Kind
    /// Its name, e.g. `usfarm`, `ushmds`, `secdefnj`; empty when the notice named none.
    public var name: String

    /// Creates a farm.
    public init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }

    public var description: String {
        let what =
            switch kind {
            case .marketData: "market data farm"
            case .historicalData: "HMDS farm"
            case .securityDefinition: "sec-def farm"
            }
        return name.isEmpty ? what : "\(what) \(name)"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.kind, lhs.name) < (rhs.kind, rhs.name) }
}

/// Where a farm's connection stands.
public enum TWSFarmState: Sendable, Hashable, Codable {
    /// Connected (2104, 2106, 2158).
    case ok
    /// Broken (2103, 2105, 2157): TWS reconnects it by itself; meanwhile what it serves stops.
    case broken
    /// Idle, connected again on the next request (2107, 2108): normal, not an outage.
    case inactive
}

/// A farm notice read: which farm, its state, and the code that said so.
public struct TWSFarmReport: Sendable, Hashable, Codable {
    public var farm: TWSFarm
    public var state: TWSFarmState
    public var code: Int

    /// Creates a report.
    public init(farm: TWSFarm, state: TWSFarmState, code: Int) {
        self.farm = farm
        self.state = state
        self.code = code
    }

    /// Reads a notice; `nil` unless it is a farm status code (2103–2108, 2157, 2158). Only the code decides; the
    /// text gives the farm's name: after its last colon ("…is OK:usfarm"), or after "demand." in the inactive
    /// notices, which have no colon ("…available upon demand.usfarm").
    public init?(_ notice: TWSNotice) {
        let kind: TWSFarm.Kind
        let state: TWSFarmState
        switch notice.code {
        case 2103: (kind, state) = (.marketData, .broken)
        case 2104: (kind, state) = (.marketData, .ok)
        case 2108: (kind, state) = (.marketData, .inactive)
        case 2105: (kind, state) = (.historicalData, .broken)
        case 2106: (kind, state) = (.historicalData, .ok)
        case 2107: (kind, state) = (.historicalData, .inactive)
        case 2157: (kind, state) = (.securityDefinition, .broken)
        case 2158: (kind, state) = (.securityDefinition, .ok)
        default: return nil
        }
        let text = notice.message
        let raw: Substring
        if let colon = text.lastIndex(of: ":") {
            raw = text[text.index(after: colon)...]
        } else if let demand = Self.end(of: "demand.", in: text) {
            raw = text[demand...]
        } else {
            raw = ""
        }
        let name = String(raw.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        self.init(farm: TWSFarm(kind: kind, name: name), state: state, code: notice.code)
    }
}

extension TWSFarmReport {
    /// Where the last occurrence of `marker` in `text` ends.
    private static func end(of marker: String, in text: String) -> String.Index? {
        var found: String.Index?
        var start = text.startIndex
        while let match = text[start...].firstRange(of: marker) {
            found = match.upperBound
            start = match.upperBound
        }
        return found
    }
}

/// Every farm's last reported state (the connection keeps one, so a late reader sees the farms TWS reported at
/// connect). Pure.
public struct TWSFarmBoard: Sendable, Hashable {
    /// Each farm's last report.
    private var latest: [TWSFarm: TWSFarmReport] = [:]

    /// Creates an empty board.
    public init() {}

    /// The last state of each farm reported.
    public var states: [TWSFarm: TWSFarmState] { latest.mapValues(\.state) }

    /// Notes a report.
    /// - Returns: the farm's previous state (`nil`: the first report of it).
    @discardableResult
    public mutating func apply(_ report: TWSFarmReport) -> TWSFarmState? {
        latest.updateValue(report, forKey: report.farm)?.state
    }

    /// Each farm's last report, farms in order: what rebuilds this board.
    public var reports: [TWSFarmReport] {
        latest.values.sorted { $0.farm < $1.farm }
    }
}
