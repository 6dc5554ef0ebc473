import Foundation
import JournalModel
import Storage
import TradingEngine
import TradingModel
import TWSProtocol

@testable import InteractiveBrokers
@testable import LiveSession

/// Buys 10 at market whenever it is flat with nothing open: enough to see orders leave.
struct BuyWhenFlat: Strategy {
    mutating func handle(_ event: StrategyEvent, in context: some StrategyContext) -> [StrategyAction] {
        guard case .bar(let id, _) = event, context.position(for: id).quantity == .zero, !context.hasOpenOrders(for: id)
        else { return [] }
        return [.submit(.market(id, .buy, Quantity(10)))]
    }
}

/// A core driven by hand: inputs at chosen times, the actions it answers with. No sockets, no sleeps.
struct SessionCoreHarness<S: Strategy> {
    static var start: Timestamp { Timestamp(seconds: 1_700_000_000) }
    var core: LiveSessionCore<S>
    var now: Timestamp
    /// The bar feed the core subscribed last.
    var feed = SessionTag(0)
    /// Requests the core sent and nobody answered yet, oldest first.
    var outstanding: [(SessionTag, SessionRequest)] = []

    init(_ strategy: S, settings: SessionSettings = SessionCoreHarness.settings(), ticket: SessionTicket? = nil) {
        core = LiveSessionCore(strategy: strategy, settings: settings, now: Self.start, ticket: ticket)
        now = Self.start
    }

    static func settings(symbols: [Symbol] = ["AAPL"]) -> SessionSettings {
        var settings = SessionSettings(symbols: symbols, engine: EngineConfig(initialCash: Money(100_000)), strategyName: "Test")
        settings.reference = OrderReference(prefix: "T:")
        settings.resilience.resetSchedule = nil
        // The harness sends bars only when a test asks; minutes of ticks without one would be a dead feed.
        settings.resilience.deadFeedAfter = .zero
        return settings
    }

    /// Hands an input to the core `after` the previous one.
    @discardableResult
    mutating func send(_ input: SessionInput, after span: TimeSpan = .zero) -> [SessionAction] {
        now = now + span
        let actions = core.handle(input, at: now)
        if let tag = actions.subscriptions.last { feed = tag }
        for action in actions {
            switch action {
            case .request(let tag, let request): outstanding.append((tag, request))
            case .cancel(let tag): outstanding.removeAll { $0.0 == tag }
            default: break
            }
        }
        switch input {
        case .answer(let tag, _), .failed(let tag, _): outstanding.removeAll { $0.0 == tag }
        default: break
        }
        return actions
    }

    /// Answers every outstanding request (and those the answers lead to) with `answer(to:)`, except those
    /// `skipping` says to leave; returns all the actions.
    @discardableResult
    mutating func answerAll(skipping: (SessionRequest) -> Bool = { _ in false }) -> [SessionAction] {
        var actions: [SessionAction] = []
        while let (tag, request) = outstanding.first(where: { !skipping($0.1) }) {
            actions += send(.answer(tag, Self.answer(to: request)))
        }
        return actions
    }

    /// Answers every outstanding request (and those the answers lead to), oldest first, with `answer`'s answer where it
    /// gives one and `answer(to:)` otherwise; returns all the actions.
    @discardableResult
    mutating func answerAll(with answer: (SessionRequest) -> SessionAnswer?) -> [SessionAction] {
        var actions: [SessionAction] = []
        while let (tag, request) = outstanding.first {
            actions += send(.answer(tag, answer(request) ?? Self.answer(to: request)))
        }
        return actions
    }

    /// The requests among actions.
    static func requests(_ actions: [SessionAction]) -> [(SessionTag, SessionRequest)] {
        actions.compactMap { if case .request(let tag, let request) = $0 { (tag, request) } else { nil } }
    }

    /// Connects (generation `generation`) and answers the start-up's requests: contracts, the broker's empty state,
    /// no warm-up bars. Returns the actions of the last answer (the subscription).
    @discardableResult
    mutating func startUp(account: String = "DU111", generation: Int = 1) -> [SessionAction] {
        send(.start)
        return send(.connected(Self.connection(account: account, generation: generation))) + answerAll()
    }

    static func connection(account: String = "DU111", generation: Int = 1) -> SessionConnection {
        SessionConnection(
            generation: generation,
            info: TWSSessionInfo(serverVersion: 178, connectionTime: "t", accounts: [account], nextValidOrderID: 100),
            clientID: 7)
    }

    /// A plausible answer to a start-up request.
    static func answer(to request: SessionRequest) -> SessionAnswer {
        switch request {
        case .contractDetails(let contract):
            var qualified = contract
            qualified.contractID = 265_598
            return .contractDetails([TWSContractDetails(contract: qualified)])
        case .brokerState: return .brokerState(BrokerAnswers(openOrders: [], executions: [], positions: []))
        case .historicalBars: return .bars([])
        case .executions, .executionsSince, .executionsOf: return .executions([])
        case .openOrders: return .openOrders([])
        case .completedOrders: return .completedOrders([])
        case .serverTime: return .serverTime(start.nanoseconds / 1_000_000_000)
        case .positions: return .positions([])
        case .journalRestart: return .journalRestart(JournalRestartData())
        case .beginRun: return .run(JournalRun(number: 1, startedAt: start, account: "DU111"))
        case .whatIf: return .orderPreview(TWSOrderState(status: "PreSubmitted"))
        case .accountValues: return .accountValues([:])
        case .marketRule:
            return .marketRule([TWSPriceIncrement(lowEdge: 0, increment: 0.0001), TWSPriceIncrement(lowEdge: 1, increment: 0.01)])
        case .snapshot: return .snapshot([4: 100])
        case .dailyPnL: return .dailyPnL(nil)
        case .journaledRefs(let refs): return .journaledRefs(refs)
        }
    }

    /// TWS's report of an execution of the group's order at `index` (its contract, order id, side and orderRef): the
    /// whole order unless `shares` says less, at `price`; `id` is `E-<order id>` unless given.
    static func execution(
        of group: OrderGroup, at index: Int = 0, id: String? = nil, shares: Decimal? = nil, price: Double = 100,
        time: String = "20231114 22:13:20 UTC", permID: Int64 = 0
    ) -> TWSExecutionReport {
        let wire = group.placements[index]
        var execution = TWSExecution(executionID: id ?? "E-\(wire.orderID)")
        execution.orderID = wire.orderID
        execution.permID = permID
        execution.side = group.orders[index].side == .buy ? "BOT" : "SLD"
        execution.shares = shares ?? wire.order.totalQuantity ?? 0
        execution.cumulativeQuantity = execution.shares
        execution.price = price
        execution.time = time
        execution.orderRef = wire.order.orderRef
        return TWSExecutionReport(contract: group.contract(at: index), execution: execution)
    }

    /// A 5-second bar of instrument 0 at `time`, closing at `close`, from the current feed.
    func bar(at time: Timestamp, close: Double = 100) -> [SessionInput] {
        let price = Price(units: Int64(close * 1_000_000))
        let bar = Bar(timestamp: time, open: price, high: price, low: price, close: price, volume: Quantity(100))
        return [
            .market(feed, .engine(.bar(InstrumentID(index: 0), bar))),
            .market(feed, .engine(.barsClosed(time))),
        ]
    }
}

extension [SessionAction] {
    var placed: [OrderGroup] { compactMap { if case .place(let group) = $0 { group } else { nil } } }
    var logs: [String] { compactMap { if case .log(_, let text) = $0 { text } else { nil } } }
    var subscriptions: [SessionTag] {
        compactMap { if case .subscribeBars(let tag, _, _) = $0 { tag } else { nil } }
    }
}
