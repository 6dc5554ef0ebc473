/// Which channels an alert goes to (`alerts.routes`), pure. A route is keyed by an alert kind (`fill`, `margin`,
/// `connection`, …), a severity (`critical`, `warning`, `info`) or `default`; an alert takes its kind's route, else
/// its severity's, else `default`'s, else every channel. A kind named in the routes is sent whatever its severity:
/// that is how the optional kinds (`fill`, below the default minimum) are asked for.
public struct AlertRoutes: Sendable, Equatable {
    /// Channel names (`webhook`, `telegram`, `sms`, `email`) by kind, severity or `default`.
    public var routes: [String: [String]]

    /// The kinds every alert can have, for the config's check.
    public static let kinds = [
        "connection", "connectivity", "farm", "positions", "journal", "loop", "backfill", "quotes", "margin",
        "execution", "crash", "halt", "control", "stopped", "fill", "daily", "alert", "risk", "rejected",
    ]
    /// The channels there can be.
    public static let channels = ["webhook", "telegram", "sms", "email"]

    /// Routes; empty: every alert to every channel.
    public init(_ routes: [String: [String]] = [:]) { self.routes = routes }

    /// The channels `alert` goes to (`nil`: every channel).
    public func channels(for alert: OperatorAlert) -> Set<String>? {
        let route = routes[alert.kind] ?? routes[alert.severity.rawValue] ?? routes["default"]
        return route.map(Set.init)
    }

    /// The kinds sent whatever their severity: those routed by name, and the daily report (asked for by
    /// `alerts.dailyReportAt`).
    public var namedKinds: Set<String> { Set(routes.keys.filter { Self.kinds.contains($0) }).union(["daily"]) }
}
