import TradingModel

/// Why a run could not start or went on no longer.
public enum LiveRunnerError: Error, Sendable, Equatable, CustomStringConvertible, Codable {
    /// A live account without confirmation.
    case liveAccountNotConfirmed(account: String)
    /// The configured account is not one this login manages.
    case accountNotManaged(account: String, managed: [String])
    /// The login manages several accounts and the configuration names none.
    case accountNotChosen(managed: [String])
    /// A symbol TWS does not know.
    case contractNotFound(Symbol)
    /// A request failed at start-up.
    case startup(String)
    /// A ticket session's order could not be carried out (`SessionTicket`).
    case ticket(TicketError)

    public var description: String {
        switch self {
        case .liveAccountNotConfirmed(let account):
            "refusing to trade live account \(account): it is not a paper (DU…) account. Pass --live and confirm, "
                + "or --confirm-live \(account) for unattended use"
        case .accountNotManaged(let account, let managed):
            "account \(account) is not managed by this login (managed: \(managed.joined(separator: ", ")))"
        case .accountNotChosen(let managed):
            "this login manages \(managed.count) accounts (\(managed.joined(separator: ", "))): name the one to "
                + "trade with connection.account (--account); positions, cash and risk are then that account's alone"
        case .contractNotFound(let symbol): "TWS knows no contract for \(symbol)"
        case .startup(let text): text
        case .ticket(let error): error.description
        }
    }
}

/// Milestones of a run, for `LiveRunnerConfiguration.observer`.
public enum LiveRunnerMilestone: Sendable, Equatable, Codable {
    /// 5-second bars subscribed (feed 0 after connecting, higher after a 1101 resubscription).
    case subscribed(generation: Int, feed: Int)
    /// The connection was re-established (generation 1 is the first reconnect).
    case reconnected(generation: Int)
    /// The engine's positions differ from the broker's, confirmed by a second look (symbol, engine, broker).
    case positionMismatch([PositionDifference])
    /// After a mismatch, the positions agree again.
    case positionsAgree
    /// Trading in a symbol halted (or, `nil`, resumed: `heldExits` exits held meanwhile are sent now).
    case tradingHalt(symbol: String, halt: TradingHalt?, heldExits: Int)
}

/// One instrument's position as the engine and the broker see it.
public struct PositionDifference: Sendable, Hashable, Codable {
    /// The symbol.
    public var symbol: Symbol
    /// The engine's position.
    public var engine: Quantity
    /// The broker's position.
    public var broker: Quantity
    /// What the broker held for others (not this bot's) at the last look; `nil`: none.
    public var external: Quantity?

    /// Creates a difference.
    public init(symbol: Symbol, engine: Quantity, broker: Quantity, external: Quantity? = nil) {
        self.symbol = symbol
        self.engine = engine
        self.broker = broker
        self.external = external
    }

    /// "AAPL 539 here, 0 at the broker; GOOG 100 here (+ 50 not this bot's), 0 at the broker".
    public static func describe(_ differences: [PositionDifference]) -> String {
        differences.map { difference in
            let others = difference.external.map { " (+ \($0) not this bot's)" } ?? ""
            return "\(difference.symbol) \(difference.engine) here\(others), \(difference.broker) at the broker"
        }.joined(separator: "; ")
    }
}

/// What a run did.
public struct LiveRunSummary: Sendable, Equatable, Codable {
    /// The account traded.
    public var account: String
    /// Commands carried out (submits, brackets, cancels, modifies).
    public var commands: Int
    /// Fills the engine received.
    public var fills: Int
    /// Risk denials after warm-up.
    public var denials: Int
    /// Live bars the engine received.
    public var bars: Int
    /// Warm-up bars.
    public var warmupBars: Int
    /// The broker's positions at the end, by symbol.
    public var brokerPositions: [Symbol: Quantity]
    /// The engine's positions at the end, by symbol.
    public var enginePositions: [Symbol: Quantity]
    /// Connections re-established.
    public var reconnects: Int
    /// Bar subscriptions made again after 1101 (market data lost).
    public var resubscriptions: Int
    /// Data farm outages (a farm reported broken: 2103, 2105, 2157).
    public var farmOutages = 0
    /// Trading halts of a traded symbol (TWS's HALTED tick, `data.watchHalts`).
    public var tradingHalts = 0
    /// Dead bar feeds found and resubscribed (no bar for `data.deadFeedAfter` in trading hours).
    public var deadFeeds = 0
    /// Orders the broker cut at the fill for buying power (IB's 201 "insufficient buying power" after a part filled).
    public var buyingPowerCuts = 0
    /// Why the run ended.
    public var stopReason: String
    /// The engine's realized-P&L total before commissions at the end, restored across restarts of the same run
    /// configuration (`LiveRunner+RealizedPnL.swift`).
    public var realizedPnL: Money = .zero
    /// The account's currency (`strategy.currency`): `realizedPnL` is in it.
    public var currency = "USD"
    /// Each position left at the broker at the exit and the stops that guard it there (`nil`: a ticket session, or a
    /// summary from before it was said).
    public var leftAtBroker: [ExitProtection]?
    /// A ticket session's order as it ended (`SessionTicket`); `nil` for a strategy's run.
    public var ticket: ManualOrderResult?
    /// A cancel's ticket session: what went, what still works.
    public var cancel: ManualCancelResult?
    /// A what-if's ticket session: TWS's preview, and the risk rules' verdict.
    public var preview: ManualWhatIfResult?
    /// A modify's ticket session: the terms before and after, and TWS's answer.
    public var modify: ManualModifyResult?
}

extension LiveRunSummary {
    /// What the bot left at the broker, as its exit line said it: `left at the broker: AAPL 10 protected by SELL STP
    /// 85.00 for 10 (…); MSFT 5 UNPROTECTED (…)` (`nil`: no position left, or a summary that does not say).
    public var leftAtBrokerText: String? {
        guard let left = leftAtBroker, !left.isEmpty else { return nil }
        return "left at the broker: " + left.map(\.description).joined(separator: "; ")
    }
}
