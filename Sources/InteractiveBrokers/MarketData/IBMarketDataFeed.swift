import Synchronization
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

/// Engine bar events from TWS's 5-second real-time bars, one subscription per instrument.
///
/// Bars are stamped with their start (UTC); `.barsClosed(t)` follows once every instrument's bar of `t` arrived
/// (or a later bar showed that one will not). Subscriptions end with the connection; after a 1101 (data lost) the
/// runner starts a new feed.
///
/// ```swift
/// let subscription = RealTimeBarSubscription(instruments: universe.instruments.map(\.id))
/// let feed = IBMarketDataFeed(connection: connection, contracts: book, subscription: subscription)
/// let events = await feed.start()
/// group.addTask { try await feed.run() }
/// for await event in events { if let e = event.engineEvent { engine.handle(e) } }
/// ```
///
/// Latency: a bar is mapped and assembled on the subscription's own task, under a lock rather than on this actor,
/// and handed straight to the consumer: no actor hop and, with `deliver`, no stream of its own to wake a task
/// through (docs/live-trading.md, Latency).
public actor IBMarketDataFeed {
    private let connection: TWSConnection
    private let contracts: ContractBook
    private let subscription: RealTimeBarSubscription
    /// The slice assembler and the consumer, behind one lock so events leave in the assembler's order.
    private let delivery: Delivery
    private let output: AsyncStream<IBMarketDataEvent>
    private let continuation: AsyncStream<IBMarketDataEvent>.Continuation

    /// Creates a feed whose events are read from `start()`.
    /// - Parameters:
    ///   - connection: a ready connection.
    ///   - contracts: the contract of each instrument.
    ///   - subscription: the instruments and what to show.
    public init(connection: TWSConnection, contracts: ContractBook, subscription: RealTimeBarSubscription) {
        let (output, continuation) = AsyncStream.makeStream(of: IBMarketDataEvent.self)
        self.init(
            connection: connection, contracts: contracts, subscription: subscription, output: output,
            continuation: continuation, deliver: { continuation.yield($0) })
    }

    /// Creates a feed that hands every event to `deliver`, in order, on the task that received the bar (the
    /// runner's hot path: it saves the hop through the feed's own stream); `start()` then yields nothing.
    /// - Parameters:
    ///   - connection: a ready connection.
    ///   - contracts: the contract of each instrument.
    ///   - subscription: the instruments and what to show.
    ///   - deliver: takes each event; called under the feed's lock, so it must not block (e.g. a stream's yield).
    public init(
        connection: TWSConnection, contracts: ContractBook, subscription: RealTimeBarSubscription,
        deliver: @escaping @Sendable (IBMarketDataEvent) -> Void
    ) {
        let (output, continuation) = AsyncStream.makeStream(of: IBMarketDataEvent.self)
        self.init(
            connection: connection, contracts: contracts, subscription: subscription, output: output,
            continuation: continuation, deliver: deliver)
    }

    private init(
        connection: TWSConnection, contracts: ContractBook, subscription: RealTimeBarSubscription,
        output: AsyncStream<IBMarketDataEvent>, continuation: AsyncStream<IBMarketDataEvent>.Continuation,
        deliver: @escaping @Sendable (IBMarketDataEvent) -> Void
    ) {
        self.connection = connection
        self.contracts = contracts
        self.subscription = subscription
        self.output = output
        self.continuation = continuation
        self.delivery = Delivery(instruments: subscription.instruments, deliver: deliver)
    }

    /// The feed's events; the stream ends when `run()` ends.
    public func start() -> AsyncStream<IBMarketDataEvent> { output }

    /// Subscribes every instrument and delivers bars until the subscriptions end.
    /// - Throws: the first subscription's error (e.g. 354 not subscribed, 420 pacing, connection closed).
    public func run() async throws {
        defer { continuation.finish() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in subscription.instruments {
                let contract = try contracts.contract(for: id)
                // Bars reach `delivery` on the connection's actor as they are routed (no stream hop); the task only
                // waits for the subscription's end, and cancelling it cancels the subscription.
                let delivery = delivery
                let end = try await connection.realTimeBars(
                    contract: contract, whatToShow: subscription.whatToShow,
                    useRTH: subscription.useRegularTradingHours
                ) { item in delivery.receive(item, for: id) }
                group.addTask {
                    for try await _ in end {}
                }
            }
            try await group.waitForAll()
        }
    }
}

/// The feed's assembler and consumer. A `Mutex` instead of the actor: the connection calls it synchronously as it
/// routes each bar, and the lock keeps bars and closed slices of several instruments in the assembler's order.
private final class Delivery: Sendable {
    private let slices: Mutex<BarSliceAssembler>
    private let deliver: @Sendable (IBMarketDataEvent) -> Void

    init(instruments: [InstrumentID], deliver: @escaping @Sendable (IBMarketDataEvent) -> Void) {
        slices = Mutex(BarSliceAssembler(instruments: instruments))
        self.deliver = deliver
    }

    func receive(_ item: SubscriptionItem<TWSRealTimeBar>, for id: InstrumentID) {
        switch item {
        case .data(let wire):
            do throws(IBMappingError) {
                let bar = try BarMapping.bar(wire)
                slices.withLock { slices in
                    for event in slices.add(bar, for: id) { deliver(.engine(event)) }
                }
            } catch {
                slices.withLock { _ in deliver(.malformedBar(id, error)) }
            }
        case .notice(let notice):
            slices.withLock { _ in deliver(.notice(id, notice)) }
        }
    }
}

/// What an `IBMarketDataFeed` subscribes to.
public struct RealTimeBarSubscription: Sendable, Hashable {
    /// The instruments.
    public var instruments: [InstrumentID]
    /// `TRADES` (default), `MIDPOINT`, `BID` or `ASK`.
    public var whatToShow: String
    /// Regular trading hours only (default `true`).
    public var useRegularTradingHours: Bool

    /// Creates a subscription.
    public init(instruments: [InstrumentID], whatToShow: String = "TRADES", useRegularTradingHours: Bool = true) {
        self.instruments = instruments
        self.whatToShow = whatToShow
        self.useRegularTradingHours = useRegularTradingHours
    }
}

/// What an `IBMarketDataFeed` reports.
public enum IBMarketDataEvent: Sendable, Equatable {
    /// A bar or a closed slice for the engine.
    case engine(EngineEventValue)
    /// A bar that could not be mapped (dropped, never defaulted).
    case malformedBar(InstrumentID, IBMappingError)
    /// A notice about an instrument's subscription (e.g. 10167 delayed data).
    case notice(InstrumentID, TWSNotice)

    /// The engine event, `nil` for the other cases.
    public var engineEvent: EngineEvent? {
        guard case .engine(let value) = self else { return nil }
        switch value {
        case .bar(let id, let bar): return .bar(id, bar)
        case .barsClosed(let time): return .barsClosed(time)
        }
    }
}
