import TradingEngine

/// What the operator can do to a running bot (the dashboard, `ibtrader ctl`).
public enum OperatorAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// No new entries; exits, cancels and working orders (protective stops) go on.
    case pause
    /// Lifts the operator's pause and kill switch, and a journal pause whose writes work again.
    case resume
    /// The kill switch: no new orders at all, the working ones cancelled.
    case kill
    /// Kill switch, every working order cancelled, then every position closed at market.
    case flatten
    /// The risk limits read again from the config (`risk:`); the request carries them.
    case reload

    /// What it does, for a confirmation prompt.
    public var effect: String {
        switch self {
        case .pause: "no new entries; exits and working orders (protective stops among them) go on"
        case .resume: "lift the pause and the kill switch; the strategy trades again"
        case .kill: "kill switch: no new orders, every working order cancelled; positions stay open"
        case .flatten: "kill switch, every working order cancelled, then every position closed at market"
        case .reload: "read the risk limits (risk:) from the config files again and trade under them from now on"
        }
    }
}

/// One operator request: what, who, why. Journaled before it acts.
public struct OperatorControl: Sendable, Hashable, Codable {
    /// The request's number (the answer refers to it).
    public var id: Int
    public var action: OperatorAction
    /// Who asked (the client's address, `ctl`, a user name).
    public var by: String
    /// Why (free text; may be empty).
    public var reason: String
    /// `reload`: the limits read from the config (the request is refused without them).
    public var risk: RiskConfig?

    /// Creates a request.
    public init(id: Int, action: OperatorAction, by: String, reason: String, risk: RiskConfig? = nil) {
        self.id = id
        self.action = action
        self.by = by
        self.reason = reason
        self.risk = risk
    }
}

/// How the bot answered an operator request.
public struct OperatorReply: Sendable, Hashable, Codable {
    /// The request's number.
    public var id: Int
    /// Whether it was carried out (a flatten: started).
    public var done: Bool
    /// What happened, in a sentence.
    public var message: String

    /// Creates an answer.
    public init(id: Int, done: Bool, message: String) {
        self.id = id
        self.done = done
        self.message = message
    }
}
