import Logging
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

// Quotes (reqMktData) for strategies that ask for them: subscribed with each bar feed, retired with it (after a
// 1101 or a reconnect a new one starts beside the new bar feed), delivered through the same ordered input stream.
extension Session {
    /// Whether this run subscribes quotes: `data.quotes` (auto: as the strategy asks).
    var subscribesQuotes: Bool { configuration.quotes.subscribes(strategyAsks: engine.strategy.usesQuotes) }

    /// Starts the quote feed of one bar feed's stretch, when the run has quotes; finishing the returned
    /// continuation retires it (cancelMktData). A failed quote feed is logged and the run goes on with bars
    /// (quotes are an addition to the bars).
    func startQuotes(
        _ connection: TWSConnection, input: AsyncStream<RunnerInput>.Continuation,
        group: inout ThrowingTaskGroup<Void, any Error>
    ) async -> AsyncStream<Void>.Continuation? {
        guard subscribesQuotes else { return nil }
        let (retire, retirement) = AsyncStream.makeStream(of: Void.self)
        let time = self.time
        let feed = IBQuoteFeed(
            connection: connection, contracts: book, instruments: ids,
            delayedFallback: configuration.resilience.delayedFallback, logger: logger, clock: { time.now() })
        let events = await feed.start()
        let logger = self.logger
        group.addTask {
            await withTaskGroup(of: Void.self) { inner in
                inner.addTask {
                    do { try await feed.run() } catch {
                        logger.error("quotes ended: \(error); the run goes on with bars only")
                    }
                }
                inner.addTask { for await _ in retire {} }
                await inner.next()
                inner.cancelAll()
            }
        }
        group.addTask {
            for await event in events { input.yield(.quotes(event)) }
        }
        logger.info("subscribed to quotes (reqMktData) for \(ids.count) instruments")
        return retirement
    }

    /// One quote feed event: quotes into the engine, the rest logged.
    mutating func handleQuoteEvent(_ event: IBQuoteEvent, broker: IBBroker) async {
        switch event {
        case .quote(let id, let quote):
            quotes += 1
            await handle(.quote(id, quote), broker: broker)
        case .notice(let id, let notice):
            logger.info("quotes of \(universe[id].symbol): \(notice)")
        case .fellBackToDelayed(let id):
            logger.notice("quotes of \(universe[id].symbol) are delayed (data.delayedFallback)")
        }
    }
}

/// `OrderTimeoutDefault` asks for what its strategy asks for.
extension OrderTimeoutDefault {
    public var usesQuotes: Bool { base.usesQuotes }
}
