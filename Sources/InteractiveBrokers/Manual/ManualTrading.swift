import Foundation
import JournalModel
import LiveSession
import Storage
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// Settings shared by the manual commands (`ibtrader order|modify|orders|cancel|positions|account`).
public struct ManualSettings: Sendable {
    /// The account to act on (default: the login's only account; a login with several needs one named).
    public var account: String?
    /// A live (non-`DU…`) account is used only when this names it, exactly as for `ibtrader run`.
    public var confirmedLiveAccount: String?
    /// Pre-trade limits, the engine's `RiskConfig`.
    public var risk = RiskConfig()
    /// The order journal (`nil`: orders are not journaled).
    public var journal: OrderJournal?
    /// The orderRef namespace of manual orders.
    public var reference = OrderReference(prefix: "IBT:manual:")
    /// How long to wait for TWS's acknowledgement (or for a cancel to take effect).
    public var timeout: Duration = .seconds(10)
    /// `cancel` may take an order another API client placed (`orders.cancelOtherClients`).
    public var cancelOtherClients = true
    /// The operator's kill switch: every order is denied.
    public var killSwitchEngaged = false
    /// What each order sets aside for its commission in the risk check (the configured schedule's most, as the bot).
    public var commissionReserve = CommissionReserve.none
    /// Business days before a contract month's last trading day from which it takes no new entry, as for the bot
    /// (`backtest.futuresRollDays`).
    public var futuresRollDays = FutureSpec.defaultRollDays
    /// The time stamped on journal rows.
    public var clock: @Sendable () -> Timestamp
    /// What the ticket session's waits sleep on (its timeout, the steps of `--order-timeout`): the wall clock, or a
    /// `VirtualLoop`'s in tests, with the connection on the same clock.
    public var sleeper: any Clock<Duration> = ContinuousClock()

    /// Creates settings.
    public init(clock: @escaping @Sendable () -> Timestamp) { self.clock = clock }
}

/// Why a manual command could not do its job (business outcomes — denials, rejections — are results, not errors).
public enum ManualTradingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The account rule refused (live account not confirmed, or not managed).
    case account(LiveRunnerError)
    /// TWS knows no contract, or several, for the symbol.
    case contract(String)
    /// The orderRef is already in the journal: the order was sent before (never send it twice).
    case duplicateOrderRef(String, state: String)
    /// No open order matches.
    case orderNotFound(String)
    /// The order belongs to another API client, and the configuration forbids cancelling another client's order.
    case otherClient(orderID: Int, clientID: Int)
    /// The order is another client's, and its id is also that of other listed orders (of these clients).
    case ambiguousOrderID(orderID: Int, clientIDs: [Int])
    /// The order belongs to another API client, which alone can modify it (TWS lets only the placing client modify).
    case otherClientModify(orderID: Int, clientID: Int)
    /// The change does not fit the order (a price its type does not have, nothing to change, unmappable terms).
    case notModifiable(String)
    /// A request failed.
    case request(String)
    /// The journal could not be written.
    case journal(String)
    /// A price is not on the contract's minimum tick.
    case offTick(String)

    /// A ticket session's error as the manual commands name it (`order`: the order's instrument, as written).
    init(_ error: LiveRunnerError, order: ManualOrderTicket?) {
        switch error {
        case .liveAccountNotConfirmed, .accountNotManaged, .accountNotChosen: self = .account(error)
        case .contractNotFound(let symbol): self = .contract(Self.noContract(order, symbol: symbol))
        case .ticket(.contract(let text)): self = .contract(text)
        case .ticket(.offTick(let text)): self = .offTick(text)
        case .ticket(.request(let text)), .startup(let text): self = .request(text)
        case .ticket(.orderNotFound(let target)): self = .orderNotFound(target)
        case .ticket(.otherClient(let id, let client)): self = .otherClient(orderID: id, clientID: client)
        case .ticket(.ambiguousOrderID(let id, let clients)): self = .ambiguousOrderID(orderID: id, clientIDs: clients)
        case .ticket(.otherClientModify(let id, let client)): self = .otherClientModify(orderID: id, clientID: client)
        case .ticket(.notModifiable(let text)): self = .notModifiable(text)
        }
    }

    /// What TWS did not know, named as the order named it: a stock (SMART, USD), a contract month (its exchange),
    /// a pair (IDEALPRO).
    static func noContract(_ order: ManualOrderTicket?, symbol: Symbol) -> String {
        let name = order.map { $0.localSymbol.map { "\($0) (\(symbol))" } ?? $0.symbol.rawValue } ?? symbol.rawValue
        switch InstrumentKind(symbol: symbol) {
        case .stock: return "\(name): TWS knows no stock contract (SMART, USD)"
        case let .future(future):
            return "\(name): TWS knows no such futures contract (\(future.spec.exchange), \(future.spec.currency)); IB lists "
                + "a product's contract months a few years ahead at most"
        case let .forex(pair): return "\(name): TWS knows no currency pair \(pair) on IDEALPRO"
        }
    }

    public var description: String {
        switch self {
        case .account(let error): error.description
        case .contract(let text): text
        case .duplicateOrderRef(let ref, let state):
            "orderRef \(ref) is already journaled (state \(state)): it was sent before and is not sent again"
        case .orderNotFound(let target): "no open order \(target) (see `ibtrader orders`)"
        case .otherClient(let id, let client):
            "order \(id) was placed by API client \(client), and orders.cancelOtherClients is false: cancel it from that "
                + "client (--client-id \(client)), or use `ibtrader cancel --all`"
        case .ambiguousOrderID(let id, let clients):
            "order id \(id) is used by API clients \(clients.map(String.init).joined(separator: " and ")): a cancel names "
                + "the id, so TWS could cancel another of them; cancel it from its own client (--client-id), or in TWS"
        case .otherClientModify(let id, let client):
            "order \(id) was placed by API client \(client); only that client can modify it (--client-id \(client))"
        case .notModifiable(let text): "cannot modify \(text)"
        case .request(let text): "TWS request failed: \(text)"
        case .journal(let text): "journal: \(text)"
        case .offTick(let text): text
        }
    }
}

/// The manual tools over one connection: what `ibtrader order|orders|cancel|positions|account` do, without the
/// command line (tested against the gateway simulator).
public enum ManualTrading {
    /// Checks the account rule of `ibtrader run`: paper (`DU…`) accounts pass; others only when confirmed by name.
    /// - Throws: `ManualTradingError.account`.
    public static func account(
        _ info: TWSSessionInfo, settings: ManualSettings
    ) throws(ManualTradingError) -> String {
        do {
            return try AccountRule.check(
                managed: info.accounts, configured: settings.account, confirmedLive: settings.confirmedLiveAccount)
        } catch {
            throw .account(error)
        }
    }

    /// Journals a note, ignoring a missing journal.
    static func note(_ kind: JournalEventKind, _ text: String, settings: ManualSettings) throws(ManualTradingError) {
        guard let journal = settings.journal else { return }
        do { try journal.recordEvent(kind, text, at: settings.clock()) } catch { throw .journal("\(error)") }
    }
}
