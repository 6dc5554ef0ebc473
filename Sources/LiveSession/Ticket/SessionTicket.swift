import TradingEngine
import TradingModel

/// What a ticket session carries out: one manual order (`ibtrader order`), a modify (`ibtrader modify`) or a cancel
/// (`ibtrader cancel`). The core
/// with no strategy runs its start-up (account rule, contract, market rule, the broker's state); an order is then
/// priced from a quote when asked, checked against the engine's risk rules on the broker's account, sent through
/// the order desk with its intent journaled first, and done once TWS acknowledged it (an IOC: once it ended),
/// rejected it, or the time is up; a cancel is done once TWS no longer lists the orders, or the time is up.
public struct SessionTicket: Sendable {
    /// What the session does.
    public enum Job: Sendable {
        /// Sends this order under this key (its orderRef is the run's prefix, `IBT:manual:`, and the key).
        case place(ManualOrderTicket, ClientOrderID)
        /// Asks TWS's what-if preview of this order instead of sending it (`ibtrader order --what-if`).
        case preview(ManualOrderTicket)
        /// Cancels one open order (`ibtrader cancel`: this client's, or another client's unless
        /// `cancelsOtherClients` is off), or every open order of the account (`nil`:
        /// reqGlobalCancel, `ibtrader cancel --all`), and waits until TWS no longer lists them.
        case cancel(ManualCancelTarget?)
        /// Changes a working order of this client (`ibtrader modify`): placeOrder again with its id and new terms.
        case modify(orderID: Int, ManualModification)
    }

    /// What the session does.
    public var job: Job
    /// The pre-trade limits (`RiskConfig.makeRules()`, as the engine runs them).
    public var risk: RiskConfig
    /// The operator's kill switch: the order is denied.
    public var killSwitchEngaged = false
    /// What the order sets aside for its commission in the risk check (the configured schedule's most).
    public var commissionReserve = CommissionReserve.none
    /// How long to wait for TWS's acknowledgement (and for the daily P&L), or for a cancel to take effect.
    public var timeout: TimeSpan
    /// The market's time as the gateway's clock tells it (reqCurrentTime), for a future's order: the day its contract
    /// month's roll day is compared with (`contractExpiry`); `nil`: the session's own time.
    public var marketTime: Timestamp?
    /// A cancel may take an order another API client placed (TWS accepts it from client 0 and from another client on
    /// the same login); `false` refuses it (`orders.cancelOtherClients`). A modify is the placing client's alone.
    public var cancelsOtherClients = true

    /// A ticket that sends `order`.
    public init(order: ManualOrderTicket, clientOrderID: ClientOrderID, risk: RiskConfig, timeout: TimeSpan) {
        job = .place(order, clientOrderID)
        self.risk = risk
        self.timeout = timeout
    }

    /// A ticket that previews `order` (TWS's what-if; nothing is placed).
    public init(previewing order: ManualOrderTicket, risk: RiskConfig, timeout: TimeSpan) {
        job = .preview(order)
        self.risk = risk
        self.timeout = timeout
    }

    /// A ticket that modifies this client's working order `orderID`, checked by the risk rules as a new order.
    public init(modifying orderID: Int, with modification: ManualModification, risk: RiskConfig, timeout: TimeSpan) {
        job = .modify(orderID: orderID, modification)
        self.risk = risk
        self.timeout = timeout
    }

    /// A ticket that cancels `target` (`nil`: every open order of the account).
    public init(cancelling target: ManualCancelTarget?, timeout: TimeSpan) {
        job = .cancel(target)
        risk = RiskConfig()
        self.timeout = timeout
    }
}

/// Why a ticket session could not carry its order out (a denial, a rejection or no answer in time are results).
public enum TicketError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// TWS knows several contracts for the symbol.
    case contract(String)
    /// A price is not on the contract's tick.
    case offTick(String)
    /// A request failed, or an answer could not be read.
    case request(String)
    /// No open order matches a cancel's target (its words: `with order id 17`).
    case orderNotFound(String)
    /// The order to cancel belongs to another API client, and the configuration forbids cancelling another client's
    /// order (`orders.cancelOtherClients: false`).
    case otherClient(orderID: Int, clientID: Int)
    /// The order to cancel is another client's, and its order id is also that of other listed orders (of these
    /// clients, sorted): a cancel names the id, so TWS could take another one.
    case ambiguousOrderID(orderID: Int, clientIDs: [Int])
    /// The order to modify belongs to another API client, which alone can modify it.
    case otherClientModify(orderID: Int, clientID: Int)
    /// The change does not fit the order (a price its type does not have, nothing to change, unmappable terms).
    case notModifiable(String)

    public var description: String {
        switch self {
        case .contract(let text), .offTick(let text), .request(let text): text
        case .orderNotFound(let target): "no open order \(target)"
        case .otherClient(let id, let client), .otherClientModify(let id, let client):
            "order \(id) was placed by API client \(client)"
        case .ambiguousOrderID(let id, let clients):
            "order id \(id) is used by API clients \(clients.map(String.init).joined(separator: " and "))"
        case .notModifiable(let text): "cannot modify \(text)"
        }
    }
}

/// The strategy of a ticket session: it never trades (the ticket is the session's one order).
public struct TicketStrategy: Strategy {
    /// Creates the strategy.
    public init() {}

    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
}
