/// Something the operator should hear about while away from the dashboard.
public struct OperatorAlert: Sendable, Equatable, Codable {
    /// How bad it is.
    public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
        case info, warning, critical
        var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .critical: 2
            }
        }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    /// What kind of event (the coalescing key and the routing key): `connectivity`, `farm`, `positions`, `journal`,
    /// `loop`, `execution`, `margin`, `halt`, `control`, `stopped`, `fill`, `risk`, `rejected`, `alert` (any other
    /// ALERT line); all in `AlertRoutes.kinds`.
    public var kind: String
    public var severity: Severity
    /// One line a person reads.
    public var text: String
    /// ISO-8601, UTC.
    public var time: String
    /// `true` when it says that an earlier alert of its kind is over (restored, agree again).
    public var resolves: Bool
    /// A whole HTML document that goes with the line (the daily report): e-mail sends it as the message's HTML part,
    /// the JSON webhook as its `html` field; the other channels send the line only.
    public var html: String?

    public init(kind: String, severity: Severity, text: String, time: String, resolves: Bool = false, html: String? = nil) {
        self.kind = kind
        self.severity = severity
        self.text = text
        self.time = time
        self.resolves = resolves
        self.html = html
    }
}
