import TradingEngine
import TradingModel

/// One manual order a ticket session carries out (`ibtrader order`): the core with no strategy runs its start-up
/// (account rule, contract, market rule, the broker's state), prices the order from a quote when asked, checks it
/// against the engine's risk rules on the broker's account, sends it through the order desk with its intent
/// journaled first, and finishes once TWS acknowledged it (an IOC: once it ended), rejected it, or the time is up.
public struct SessionTicket: Sendable {
    /// The validated order.
    public var order: ManualOrderTicket
    /// Its stable key: the orderRef is the run's prefix (`IBT:manual:`) and this.
    public var clientOrderID: ClientOrderID
    /// The pre-trade limits (`RiskConfig.makeRules()`, as the engine runs them).
    public var risk: RiskConfig
    /// The operator's kill switch: the order is denied.
    public var killSwitchEngaged = false
    /// What the order sets aside for its commission in the risk check (the configured schedule's most).
    public var commissionReserve = CommissionReserve.none
    /// How long to wait for TWS's acknowledgement (and for the daily P&L).
    public var timeout: TimeSpan

    /// Creates a ticket.
    public init(order: ManualOrderTicket, clientOrderID: ClientOrderID, risk: RiskConfig, timeout: TimeSpan) {
        self.order = order
        self.clientOrderID = clientOrderID
        self.risk = risk
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

    public var description: String {
        switch self {
        case .contract(let text), .offTick(let text), .request(let text): text
        }
    }
}

/// The strategy of a ticket session: it never trades (the ticket is the session's one order).
public struct TicketStrategy: Strategy {
    /// Creates the strategy.
    public init() {}

    public mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] { [] }
}
