import LiveSession
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// Engine quotes from TWS market data (reqMktData), one line per instrument, for strategies that ask for them
/// (`Strategy.usesQuotes`, `data.quotes`), and each instrument's trading-halt status (tick 49, `data.watchHalts`).
///
/// Each line's ticks fold into a `QuoteTicks`; a `.quote` is delivered when bid or ask changed (see `QuoteTicks`
/// for the coalescing). Quotes are stamped by `clock` when their tick arrives (the runner passes its injected
/// wall clock, UTC): TWS ticks carry no time of their own. A refused line ends the feed with the refusal; whether to
/// fall back to delayed data is the session core's decision (`LiveSessionCore.quoteFeedFailed`). Ending `run()` (task
/// cancellation, or a line's failure) ends the streams, which sends cancelMktData for every line.
///
/// ```swift
/// let feed = IBQuoteFeed(connection: connection, contracts: book, instruments: ids, clock: configuration.clock.now)
/// let quotes = await feed.start()
/// group.addTask { try await feed.run() }
/// for await case .quote(let id, let quote) in quotes { engine.handle(.quote(id, quote)) }
/// ```
public actor IBQuoteFeed {
    private let connection: TWSConnection
    private let contracts: ContractBook
    private let instruments: [InstrumentID]
    private let clock: @Sendable () -> Timestamp
    private var lines: [InstrumentID: QuoteTicks] = [:]
    private let output: AsyncStream<IBQuoteEvent>
    private let continuation: AsyncStream<IBQuoteEvent>.Continuation

    /// Creates a feed.
    /// - Parameters:
    ///   - connection: a ready connection.
    ///   - contracts: the contract of each instrument.
    ///   - instruments: the instruments to quote.
    ///   - clock: the time stamped on quotes: when their tick arrived (UTC).
    public init(
        connection: TWSConnection, contracts: ContractBook, instruments: [InstrumentID],
        clock: @escaping @Sendable () -> Timestamp
    ) {
        self.connection = connection
        self.contracts = contracts
        self.instruments = instruments
        self.clock = clock
        (output, continuation) = AsyncStream.makeStream(of: IBQuoteEvent.self)
    }

    /// The feed's events; the stream ends when `run()` ends.
    public func start() -> AsyncStream<IBQuoteEvent> { output }

    /// Subscribes every instrument and delivers quotes until the lines end or the task is cancelled.
    /// - Throws: the first line's error (e.g. 354 no live permission, 200 no contract).
    public func run() async throws {
        defer { continuation.finish() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in instruments {
                let contract = try contracts.contract(for: id)
                group.addTask { try await self.line(id, contract: contract) }
            }
            try await group.waitForAll()
        }
    }

    /// One instrument's line until it ends; a refusal ends it with the error.
    private func line(_ id: InstrumentID, contract: TWSContract) async throws {
        let stream = try await connection.marketData(contract: contract)
        for try await item in stream { receive(item, for: id) }
    }

    private func receive(_ item: SubscriptionItem<TWSMarketDataEvent>, for id: InstrumentID) {
        switch item {
        case .data(.generic(let type, let value)) where type == .halted:
            if let status = TradingHalt.status(tickValue: value) { continuation.yield(.halt(id, status)) }
        case .data(let event):
            var ticks = lines[id] ?? QuoteTicks()
            let changed = ticks.apply(event)
            lines[id] = ticks
            if changed, let quote = ticks.quote(at: clock()) { continuation.yield(.quote(id, quote)) }
        case .notice(let notice):
            continuation.yield(.notice(id, notice))
        }
    }
}

