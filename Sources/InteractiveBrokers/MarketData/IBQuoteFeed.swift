import LiveSession
import Synchronization
import TradingEngine
import TradingModel
import TWSClient
import TWSProtocol

/// Engine quotes from TWS market data (reqMktData), one line per instrument, for strategies that ask for them
/// (`Strategy.usesQuotes`, `data.quotes`), and each instrument's trading-halt status (tick 49, `data.watchHalts`).
///
/// Each line's ticks fold into a `QuoteTicks` as the connection reads them; a `.quote` is handed on when bid or ask
/// changed (see `QuoteTicks` for the coalescing). Quotes are stamped by `clock` when their tick arrives (the runner
/// passes its injected wall clock, UTC): TWS ticks carry no time of their own. A refused line ends the feed with the
/// refusal; whether to fall back to delayed data is the session core's decision (`LiveSessionCore.quoteFeedFailed`).
/// Ending `run(deliver:)` (task cancellation, or a line's failure) sends cancelMktData for every line.
///
/// ```swift
/// let feed = IBQuoteFeed(connection: connection, contracts: book, instruments: ids, clock: configuration.clock.now)
/// try await feed.run { event in inbox.yield(.quotes(tag, event)) }
/// ```
public struct IBQuoteFeed: Sendable {
    private let connection: TWSConnection
    private let contracts: ContractBook
    private let instruments: [InstrumentID]
    private let clock: @Sendable () -> Timestamp

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
    }

    /// Subscribes every instrument and hands each quote, halt and notice to `deliver` as the connection reads its
    /// tick (on the connection's isolation, in the order read), until every line ended or the task is cancelled.
    /// - Throws: the first line's error (e.g. 354 no live permission, 200 no contract).
    public func run(deliver: @escaping @Sendable (IBQuoteEvent) -> Void) async throws {
        let lines = ReceiverLines()
        var subscriptions: [TWSSubscription] = []
        do {
            for id in instruments {
                let contract = try contracts.contract(for: id)
                let line = Line(id: id, clock: clock, deliver: deliver)
                subscriptions.append(try await connection.marketData(contract: contract, into: lines.receiver(line.receive)))
            }
        } catch {
            ReceiverLines.cancel(subscriptions)
            throw error
        }
        try await lines.wait(for: subscriptions)
    }

    /// One instrument's line: its ticks so far.
    private final class Line: Sendable {
        let id: InstrumentID
        let clock: @Sendable () -> Timestamp
        let deliver: @Sendable (IBQuoteEvent) -> Void
        /// Only the connection's handling of this line's ticks touches it, one at a time.
        private let ticks = Mutex(QuoteTicks())

        init(id: InstrumentID, clock: @escaping @Sendable () -> Timestamp, deliver: @escaping @Sendable (IBQuoteEvent) -> Void) {
            self.id = id
            self.clock = clock
            self.deliver = deliver
        }

        func receive(_ item: SubscriptionItem<TWSMarketDataEvent>) {
            switch item {
            case .data(.generic(let type, let value)) where type == .halted:
                if let status = TradingHalt.status(tickValue: value) { deliver(.halt(id, status)) }
            case .data(let event):
                let quote = ticks.withLock { ticks -> Quote? in
                    ticks.apply(event) ? ticks.quote(at: clock()) : nil
                }
                if let quote { deliver(.quote(id, quote)) }
            case .notice(let notice):
                deliver(.notice(id, notice))
            }
        }
    }
}
