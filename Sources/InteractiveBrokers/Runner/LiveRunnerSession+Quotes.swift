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
    /// continuation retires it (cancelMktData). Quotes are stamped with the time they arrived on the runner's
    /// injected clock (`resilience.clock`, UTC), not the latest bar's time (`QuoteTime`: a replay keeps data
    /// time). A feed that fails (an error, a refusal,
    /// its lines ending) is started again with backoff (`resilience.quoteRetry`), with an ALERT after repeated
    /// failure; the strategy keeps running on bars meanwhile (quotes are an addition to the bars).
    func startQuotes(
        _ connection: TWSConnection, input: RunnerInbox,
        group: inout ThrowingTaskGroup<Void, any Error>
    ) async -> AsyncStream<Void>.Continuation? {
        guard subscribesQuotes else { return nil }
        let (retire, retirement) = AsyncStream.makeStream(of: Void.self)
        let (book, ids, logger) = (self.book, self.ids, self.logger)
        let resilience = configuration.resilience
        let time = self.time
        // Arrival on the injected wall clock; the data time only against a replay (`QuoteTime`).
        let stamp: @Sendable () -> Timestamp = { QuoteTime.stamp(arrival: resilience.clock(), dataTime: time.now()) }
        let makeFeed: @Sendable () -> IBQuoteFeed = {
            IBQuoteFeed(
                connection: connection, contracts: book, instruments: ids,
                delayedFallback: resilience.delayedFallback, logger: logger, clock: stamp)
        }
        group.addTask {
            await withTaskGroup(of: Void.self) { inner in
                inner.addTask {
                    await QuoteSupervisor.run(
                        connection, makeFeed: makeFeed, input: input, resilience: resilience, logger: logger)
                }
                inner.addTask { for await _ in retire {} }
                await inner.next()
                inner.cancelAll()
            }
        }
        logger.info("subscribed to quotes (reqMktData) for \(ids.count) instruments")
        return retirement
    }
}

/// Keeps a run's quote feed going.
enum QuoteSupervisor {
    /// Runs quote feeds one after the other until cancelled (retired) or the connection closes (the reconnect
    /// path starts a new one): each failure waits `quoteRetry`'s delay; a delivered quote ends the streak.
    static func run(
        _ connection: TWSConnection, makeFeed: @Sendable () -> IBQuoteFeed,
        input: RunnerInbox, resilience: ResilienceSettings, logger: Logger
    ) async {
        let retry = resilience.quoteRetry
        var failures = 0
        while !Task.isCancelled {
            let feed = makeFeed()
            let events = await feed.start()
            let reason: String = await withTaskGroup(of: String.self) { attempt in
                attempt.addTask {
                    do {
                        try await feed.run()
                        return "the quote lines ended"
                    } catch { return "\(error)" }
                }
                for await event in events {  // ends when run() ends
                    if case .quote = event, failures > 0 {
                        logger.notice("quotes are back after \(failures) failed attempts")
                        resilience.observer?(.quotesRecovered)
                        failures = 0
                    }
                    input.yield(.quotes(event))
                }
                return await attempt.next() ?? "the quote feed ended"
            }
            // Retired (a resubscription or the stop), or the connection is gone: not a quote failure.
            guard !Task.isCancelled, await connection.session != nil else { return }
            failures += 1
            let (level, text) = retry.failure(
                "the quote feed (reqMktData)", reason: reason + "; the strategy keeps running on bars",
                failures: failures)
            logger.log(level: level, "\(text)")
            resilience.observer?(.quotesFailed(failures: failures, alert: retry.isAlert(failures: failures)))
            try? await Task.sleep(for: retry.delay(afterFailures: failures))
        }
    }
}

extension Session {
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
