import Logging
import TradingModel
import TWSProtocol

/// Follows TWS's data farms (market data, HMDS, sec-def) and says what to log about them. Pure: time is a parameter.
///
/// - A farm reported broken (2103, 2105, 2157) starts an *outage*: logged at notice (info inside IB's reset window,
///   when farms drop every night). TWS reconnects farms itself, usually within seconds.
/// - An outage longer than `gracePeriod` outside the reset window is an alert, once: a warning-level `ALERT` that
///   says what has stopped (a market data farm: quotes and bars; HMDS: historical bars and back-fills; sec-def:
///   contract lookups).
/// - OK (2104, 2106, 2158) or inactive (2107, 2108: idle, on demand) ends the outage, with its length.
/// - Repeats of a farm's state are logged at debug; TWS repeats them at every connect.
///
/// Nothing is paused: a broken farm may serve other instruments than the bot's (TWS does not say which), and bars
/// that stop coming make no signals anyway.
public struct FarmMonitor: Sendable {
    /// A farm's state and since when.
    public struct Entry: Sendable, Equatable {
        public var state: TWSFarmState
        public var since: Timestamp
        /// Whether this outage was alerted already.
        public var alerted: Bool
    }

    /// How long an outage may last before it is an alert.
    public let gracePeriod: TimeSpan
    /// IB's reset window (`nil`: none known).
    public let schedule: ResetSchedule?
    /// Every farm reported so far.
    public private(set) var farms: [TWSFarm: Entry] = [:]
    /// Outages begun so far.
    public private(set) var outages = 0
    /// The farms the last `tick` alerted.
    public private(set) var alertedByLastTick: [TWSFarm] = []

    /// Creates a monitor that knows no farm yet.
    public init(gracePeriod: TimeSpan, schedule: ResetSchedule?) {
        self.gracePeriod = gracePeriod
        self.schedule = schedule
    }

    /// The farms broken now, in order, with since when.
    public var broken: [(farm: TWSFarm, since: Timestamp)] {
        farms.filter { $0.value.state == .broken }.sorted { $0.key < $1.key }.map { ($0.key, $0.value.since) }
    }

    /// A farm notice.
    public mutating func report(_ report: TWSFarmReport, at now: Timestamp) -> [ConnectivityAction] {
        let farm = report.farm
        let expected = schedule?.contains(now) ?? false
        let previous = farms[farm]
        if previous?.state == report.state {
            return [.log(.debug, "\(farm): \(Self.text(report.state)) again (\(report.code))")]
        }
        farms[farm] = Entry(state: report.state, since: now, alerted: false)
        switch report.state {
        case .broken:
            outages += 1
            let why = expected ? " during IB's reset window (expected)" : ""
            return [
                .log(expected ? .info : .notice,
                     "\(farm): connection broken (\(report.code))\(why); TWS reconnects it by itself")
            ]
        case .ok, .inactive:
            guard let previous, previous.state == .broken else {
                return [.log(.info, "\(farm): \(Self.text(report.state)) (\(report.code))")]
            }
            let span = ConnectivityMonitor.text(now - previous.since)
            let level: Logger.Level = previous.alerted ? .warning : expected ? .info : .notice
            return [.log(level, "\(farm): \(Self.text(report.state)) again after \(span) (\(report.code))")]
        }
    }

    /// Time passed: alerts, once, an outage that outlasted the grace period outside the reset window.
    public mutating func tick(at now: Timestamp) -> [ConnectivityAction] {
        alertedByLastTick = []
        guard !(schedule?.contains(now) ?? false) else { return [] }
        var out: [ConnectivityAction] = []
        for (farm, entry) in farms.sorted(by: { $0.key < $1.key })
        where entry.state == .broken && !entry.alerted && now - entry.since >= gracePeriod {
            farms[farm]?.alerted = true
            alertedByLastTick.append(farm)
            let span = ConnectivityMonitor.text(now - entry.since)
            out.append(.log(.warning, "ALERT: \(farm) broken for \(span): \(Self.consequence(farm.kind))"))
        }
        return out
    }

    /// The broken farms for the summary line; empty when none.
    public func summary(at now: Timestamp) -> String {
        broken.map { "\($0.farm) broken for \(ConnectivityMonitor.text(now - $0.since))" }.joined(separator: ", ")
    }

    private static func text(_ state: TWSFarmState) -> String {
        switch state {
        case .ok: "OK"
        case .broken: "broken"
        case .inactive: "inactive, connected on demand"
        }
    }

    private static func consequence(_ kind: TWSFarm.Kind) -> String {
        switch kind {
        case .marketData: "quotes and real-time bars it serves have stopped"
        case .historicalData: "historical bars (warm-up, back-fill, downloads) cannot be fetched"
        case .securityDefinition: "contract lookups fail"
        }
    }
}
