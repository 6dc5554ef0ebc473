import Logging
import TWSProtocol
import TradingEngine
import TradingModel

// Market data: 5-second bars and quotes into the engine, in the order they came, once; the feeds' subscriptions,
// their ends, and the quote feed's retries.
extension LiveSessionCore {
    /// A bar or quote feed's event. While a recovery (resynchronization, back-fill) or the stop's drain is under
    /// way it waits: the engine sees history before what came after it.
    mutating func marketInput(_ input: SessionInput, at now: Timestamp, _ out: inout Actions) {
        guard case .running = phase else { return }
        // Also while the reconciliation gate compares the book: the strategy decides on the confirmed one.
        if recovery != nil || bookGate?.resynchronized == true {
            deferredMarket.append(input)
            return
        }
        switch input {
        case .market(_, let event):
            switch event {
            case .bar(let id, let bar):
                if desk.contracts.isContinuous(id), rollIfDue(id, bar, &out) { return }
                for value in slices.add(bar, for: id) { source(value.engineEvent, at: now, &out) }
            case .engine(let value):
                source(value.engineEvent, at: now, &out)
            case .malformedBar(let id, let error):
                out.log(.warning, "malformed bar of \(universe[id].symbol) dropped: \(error)")
            case .notice(let id, let notice):
                out.log(.notice, "market data \(universe[id].symbol): \(notice.code) \(notice.message)")
            }
        case .quotes(_, let event):
            quoteEvent(event, &out)
        default:
            break
        }
    }

    /// A 5-second bar or a closed slice: the feed watch hears the bar, the aggregator makes the strategy's bars.
    private mutating func source(_ source: EngineEvent, at now: Timestamp, _ out: inout Actions) {
        if case .bar(let id, let bar) = source { feedHeard(id, bar, at: now, &out) }
        guard acceptSource(source) else { return }
        for strategyEvent in aggregator.handle(source) where accept(strategyEvent) {
            step(strategyEvent, &out)
        }
    }

    /// Whether a 5-second source bar is new (a resubscription may repeat one); slices pass.
    mutating func acceptSource(_ event: EngineEvent) -> Bool {
        guard case .bar(let id, let bar) = event else { return true }
        if bar.timestamp <= lastSourceBarTime[id.index] { return false }
        lastSourceBarTime[id.index] = bar.timestamp
        counts.sourceBars += 1
        return true
    }

    /// Whether a strategy bar or slice is new (bars already seen — warm-up overlap, a resubscription after a reconnect
    /// — are skipped); a new bar advances data time.
    mutating func accept(_ event: EngineEvent) -> Bool {
        switch event {
        case .bar(let id, let bar):
            if bar.timestamp <= lastBarTime[id.index] { return false }
            lastBarTime[id.index] = bar.timestamp
            counts.bars += 1
            if bar.timestamp > dataTime || !dataTimeFromBars {
                dataTime = bar.timestamp
                dataTimeFromBars = true
            }
        case .barsClosed(let closed):
            if closed <= lastClosed { return false }
            lastClosed = closed
        default:
            break
        }
        return true
    }

    /// Market events that waited for a recovery, in order.
    mutating func releaseDeferredMarket(at now: Timestamp, _ out: inout Actions) {
        let waiting = deferredMarket
        deferredMarket = []
        for input in waiting {
            switch input {
            case .market(let tag, _), .quotes(let tag, _):
                guard tag == barFeed || tag == quoteFeed else { continue }
                marketInput(input, at: now, &out)
            default:
                continue
            }
        }
    }

    /// Subscribes 5-second bars (and quotes when the run has them).
    /// - Parameter newFeed: a resubscription after 1101 (the feed's number grows).
    mutating func subscribe(newFeed: Bool, at now: Timestamp, _ out: inout Actions) {
        if newFeed {
            feedNumber += 1
            counts.resubscriptions += 1
        }
        let bars = tag()
        barFeed = bars
        slices = BarSliceAssembler(instruments: ids)
        feedWatchBegins(at: now)
        out.append(
            .subscribeBars(
                bars,
                RealTimeBarSubscription(
                    instruments: ids, whatToShow: settings.whatToShow,
                    useRegularTradingHours: !settings.outsideRegularTradingHours), desk.contracts))
        if subscribesQuotes, quoteFeed == nil {
            subscribeQuotes(&out)
        }
        out.log(
            .info,
            aggregator.isPassThrough
                ? "subscribed to 5-second bars; running"
                : "subscribed to 5-second bars, building \(aggregator.size) bars; running")
        out.append(.milestone(.runner(.subscribed(generation: counts.reconnects, feed: feedNumber))))
    }

    /// Ends the feeds (a resubscription, the stop, a lost connection).
    mutating func retireFeeds(_ out: inout Actions) {
        if let barFeed { out.append(.cancel(barFeed)) }
        if let quoteFeed { out.append(.cancel(quoteFeed)) }
        barFeed = nil
        quoteFeed = nil
        quoteRetryAt = nil
    }

    /// Whether this run opens reqMktData lines: for quotes (`data.quotes`, auto: as the strategy asks) or to watch
    /// trading halts (`data.watchHalts`).
    var subscribesQuotes: Bool { quotesReachEngine || settings.watchHalts == true }

    /// An instrument the run watches and never trades: the volatility gauge, a currency pair for its rate alone.
    func isWatchedOnly(_ id: InstrumentID) -> Bool {
        let symbol = universe[id].symbol
        return symbol == settings.engine.risk.volatilitySymbol || settings.engine.rateOnlySymbols.contains(symbol.rawValue)
    }

    private mutating func subscribeQuotes(_ out: inout Actions) {
        let quotes = tag()
        quoteFeed = quotes
        delayedQuotes.removeAll()
        // The volatility gauge (an index) and the pairs held for their rates are never traded: bars only.
        let traded = ids.filter { !isWatchedOnly($0) }
        out.append(.subscribeQuotes(quotes, traded, desk.contracts))
        out.log(
            .info,
            quotesReachEngine
                ? "subscribed to quotes (reqMktData) for \(traded.count) instruments"
                : "subscribed to reqMktData for \(traded.count) instruments to watch trading halts")
    }

    /// The bar feed failed: TWS's 10225 (a bust event deactivated it) asks for a new subscription with the connection
    /// fine; anything else ends the feed, a market data refusal with the way out.
    mutating func barFeedFailed(_ failure: SessionFailure, connectionUp: Bool, at now: Timestamp, _ out: inout Actions) {
        if case .rejected(10225, let text) = failure, connectionUp {
            barFeedInterrupted(text, at: now, &out)
            return
        }
        let reason = MarketDataRefusal.stopReason(failure, delayedFallback: settings.resilience.delayedFallback)
        barFeedEnded(reason, connectionUp: connectionUp, at: now, &out)
    }

    /// The bar feed ended. With the socket still up the subscription itself failed (e.g. 354 / 10089, no market
    /// data permission): reconnecting would not help, the run stops. Otherwise the connection went with it.
    mutating func barFeedEnded(_ reason: String, connectionUp: Bool, at now: Timestamp, _ out: inout Actions) {
        barFeed = nil
        guard case .running = phase else { return }
        if connectionUp {
            out.log(.critical, "market data failed with the connection up: \(reason)")
            stop("market data failed: \(reason)", at: now, &out)
            return
        }
        out.log(.notice, "market data ended with the connection: \(reason)")
        out.append(.disconnect(reason))
        lost(reason, at: now, &out)
    }

    /// TWS deactivated the bar feed and asks for a new subscription (10225, a bust event): the bars it missed are
    /// back-filled and the feed subscribed again, the order connection untouched, as for a dead feed.
    mutating func barFeedInterrupted(_ reason: String, at now: Timestamp, _ out: inout Actions) {
        guard case .running = phase, connected else { return }
        let text = "TWS deactivated the bar feed (\(reason)); back-filling and subscribing again"
        out.log(.warning, text)
        if settings.journaled { out.append(journalEvent(.connection, text)) }
        renewBarFeed(after: "the bar feed's deactivation", at: now, &out)
    }

    /// A bar feed that stopped delivering with the connection up (dead, or deactivated by TWS): the feeds retired,
    /// the missed bars back-filled (from `since`, else the last closed slice), a new feed subscribed.
    mutating func renewBarFeed(after outage: String, since: Timestamp? = nil, at now: Timestamp, _ out: inout Actions) {
        retireFeeds(&out)
        recover([.backfill(after: outage, since: since), .subscribe(newFeed: true)], at: now, &out)
    }

    /// A quote feed event: quotes into the engine (stamped with their arrival on the injected clock, or the data
    /// time against a replay, `QuoteTime`), the rest logged.
    private mutating func quoteEvent(_ event: IBQuoteEvent, _ out: inout Actions) {
        switch event {
        case .quote(let id, var quote):
            if quoteFailures > 0 {
                out.log(.notice, "quotes are back after \(quoteFailures) failed attempts")
                out.append(.milestone(.connectivity(.quotesRecovered)))
                quoteFailures = 0
            }
            guard quotesReachEngine else { return }
            counts.quotes += 1
            quote.timestamp = QuoteTime.stamp(arrival: quote.timestamp, dataTime: dataTime)
            step(.quote(id, quote), &out)
        case .halt(let id, let halt):
            haltStatus(id, halt, at: inputTime, &out)
        case .notice(let id, let notice):
            // 10167: TWS shows this line delayed (after a fallback, or as the connection's market data type says).
            if MarketDataRefusal(code: notice.code) == .showingDelayed { delayedQuotes.insert(id) }
            out.log(.info, "quotes of \(universe[id].symbol): \(notice)")
        case .fellBackToDelayed(let id):
            delayedQuotes.insert(id)
            out.log(.notice, "quotes of \(universe[id].symbol) are delayed (data.delayedFallback)")
        }
    }

    /// The quote feed ended: with the connection up it failed, and is started again after a backoff (an ALERT after
    /// repeated failure); the strategy keeps running on bars meanwhile.
    mutating func quoteFeedEnded(_ reason: String, connectionUp: Bool, at now: Timestamp, _ out: inout Actions) {
        quoteFeed = nil
        guard case .running = phase, connectionUp, connected else { return }
        quoteFailures += 1
        let retry = settings.resilience.quoteRetry
        let (level, text) = retry.failure(
            "the quote feed (reqMktData)", reason: reason + "; the strategy keeps running on bars",
            failures: quoteFailures)
        out.log(level, text)
        out.append(
            .milestone(.connectivity(.quotesFailed(failures: quoteFailures, alert: retry.isAlert(failures: quoteFailures)))))
        let at = now + TimeSpan(retry.delay(afterFailures: quoteFailures))
        quoteRetryAt = at
        out.append(.wakeUp(at: at))
    }

    /// The quote feed failed. A line refused for lack of live permission, where TWS says delayed data exists, falls
    /// back once per connection when `data.delayedFallback` is on: the connection's market data type becomes delayed
    /// (reqMarketDataType 3, which keeps live data where the login has it) and the lines are asked again at once.
    /// Anything else, or a refusal after the fallback, is retried with backoff (`quoteFeedEnded`).
    mutating func quoteFeedFailed(_ failure: SessionFailure, connectionUp: Bool, at now: Timestamp, _ out: inout Actions) {
        if settings.resilience.delayedFallback, connectionUp, connected, case .running = phase,
            case .rejected(let code, _) = failure, MarketDataRefusal(code: code)?.fallsBackToDelayed == true,
            delayedFallbackGeneration != generation
        {
            delayedFallbackGeneration = generation
            quoteFeed = nil
            out.log(
                .notice,
                "quotes refused (\(code)): no live permission; falling back to delayed data (reqMarketDataType 3, data.delayedFallback)")
            out.append(.setMarketDataType(.delayed))
            subscribeQuotes(&out)
            return
        }
        quoteFeedEnded("\(failure)", connectionUp: connectionUp, at: now, &out)
    }

    /// On the tick: a failed quote feed whose backoff is over starts again.
    mutating func retryQuotes(at now: Timestamp, _ out: inout Actions) {
        guard let at = quoteRetryAt, now >= at, case .running = phase, connected, recovery == nil, quoteFeed == nil
        else { return }
        quoteRetryAt = nil
        subscribeQuotes(&out)
    }
}
