import LiveSession
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

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
public actor IBMarketDataFeed {
    private let connection: TWSConnection
    private let contracts: ContractBook
    private let subscription: RealTimeBarSubscription
    private var slices: BarSliceAssembler
    private let output: AsyncStream<IBMarketDataEvent>
    private let continuation: AsyncStream<IBMarketDataEvent>.Continuation

    /// Creates a feed whose events are read from `start()`.
    /// - Parameters:
    ///   - connection: a ready connection.
    ///   - contracts: the contract of each instrument.
    ///   - subscription: the instruments and what to show.
    public init(connection: TWSConnection, contracts: ContractBook, subscription: RealTimeBarSubscription) {
        self.connection = connection
        self.contracts = contracts
        self.subscription = subscription
        slices = BarSliceAssembler(instruments: subscription.instruments)
        (output, continuation) = AsyncStream.makeStream(of: IBMarketDataEvent.self)
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
                let bars = try await connection.realTimeBars(
                    contract: contract, whatToShow: subscription.whatToShow,
                    useRTH: subscription.useRegularTradingHours)
                group.addTask {
                    for try await item in bars { await self.receive(item, for: id) }
                }
            }
            try await group.waitForAll()
        }
    }

    /// One subscription's item: a bar into the assembler (and the events it completes), or a notice.
    private func receive(_ item: SubscriptionItem<TWSRealTimeBar>, for id: InstrumentID) {
        switch item {
        case .data(let wire):
            do throws(IBMappingError) {
                let bar = try BarMapping.bar(wire)
                for event in slices.add(bar, for: id) { continuation.yield(.engine(event)) }
            } catch {
                continuation.yield(.malformedBar(id, error))
            }
        case .notice(let notice):
            continuation.yield(.notice(id, notice))
        }
    }
}

