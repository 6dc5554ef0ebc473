import Logging
import TWSProtocol
import TradingEngine
import TradingModel

// Dead feeds: IB's real-time bar subscriptions can go silent with no error (after a data-farm flap, after the nightly
// reset), and the strategy then trades on a frozen price for hours. `FeedWatch` counts each symbol's silence in
// regular hours (`feedHours`: pre-market and after-hours minutes without a trade are normal); past
// `data.deadFeedAfter` the feed is taken as dead: an ALERT (journaled), the bar feed retired and resubscribed, and the
// silent symbols' bars back-filled from their last one, as after a 1101. The watch sleeps while
// it could not expect bars: not running or not connected, a recovery or the stop under way, the book gate closed, a
// market data farm reported broken; it counts again from when that ends.
extension LiveSessionCore {
    /// The market's time now, as well as the session knows it: the gateway's clock at its last answer, moved on by the
    /// time since (else the latest bar's time). Not the data time once the gateway has answered: before the first bar
    /// that is the wall clock, which a gateway replaying history is far from.
    var marketNow: Timestamp {
        guard let clock = serverClock else { return dataTime }
        return clock.server + (inputTime - clock.at)
    }

    /// The hours a silence counts in: the regular session when IB gave it, else the trading hours.
    var watchedHours: SessionTimes { feedHours.isEmpty ? aggregator.sessions : feedHours }

    /// A 5-second bar of `id` arrived: a silence reported for it ends.
    mutating func feedHeard(_ id: InstrumentID, _ bar: Bar, at now: Timestamp, _ out: inout Actions) {
        guard feedWatch.isOn, let silence = feedWatch.bar(id, ending: bar.timestamp + .seconds(5), at: now) else { return }
        let symbol = universe[id].symbol.rawValue
        let text = "bars of \(symbol) are back after its feed was found silent (last bar before it: \(silence.lastBar))"
        out.log(.notice, text)
        if settings.journaled { out.append(journalEvent(.connection, text)) }
        out.append(.milestone(.connectivity(.feedRecovered(symbol: symbol))))
    }

    /// On the tick: the symbols silent past the limit, if the watch can expect bars now.
    mutating func feedWatchTick(at now: Timestamp, _ out: inout Actions) {
        guard feedWatch.isOn else { return }
        let farmBroken = farms.broken.contains { $0.farm.kind == .marketData }
        guard case .running = phase, connected, recovery == nil, stopping == nil, barFeed != nil, bookGate == nil,
            !farmBroken
        else {
            if phase == .running || phase == .reconnecting { feedWatch.begin(at: now, market: marketNow) }
            return
        }
        let silent = feedWatch.check(at: now, sessions: watchedHours)
        if !silent.isEmpty { deadFeed(silent, at: now, &out) }
    }

    /// A new bar feed: every symbol's silence counts from now.
    mutating func feedWatchBegins(at now: Timestamp) {
        feedWatch.begin(at: now, market: marketNow)
    }

    /// Silent symbols: said (an ALERT the first time in a row, outside IB's reset window), journaled, resubscribed
    /// and back-filled from the earliest of their last bars.
    private mutating func deadFeed(_ silent: [InstrumentID], at now: Timestamp, _ out: inout Actions) {
        counts.deadFeeds += 1
        let symbols = silent.map { universe[$0].symbol.rawValue }
        let names = symbols.joined(separator: ", ")
        let again = silent.allSatisfy { (feedWatch.silences[$0.index]?.reports ?? 0) > 1 }
        let expected = connectivity.isExpected(at: now)
        let alert = !again && !expected
        let lastBars = silent.compactMap { feedWatch.silences[$0.index]?.lastBar }
        let since = silent.map { lastBarTime[$0.index] }.filter { $0 > .zero }.min()
        var text =
            "no bar of \(names) for \(Self.text(settings.resilience.deadFeedAfter)) of trading hours "
            + "(data.deadFeedAfter; last bar \(lastBars.min().map { "\($0)" } ?? "none")): the feed is taken as dead; "
            + "resubscribing and back-filling"
        if again { text += " (still silent: the next look waits twice as long)" }
        if expected { text += " (in IB's reset window)" }
        if alert {
            out.log(.warning, "ALERT: " + text)
        } else {
            out.log(expected ? .notice : .warning, text)
        }
        if settings.journaled { out.append(journalEvent(.connection, text)) }
        out.append(.milestone(.connectivity(.feedSilent(symbols: symbols, alert: alert))))
        renewBarFeed(after: "the silent feed of \(names)", since: since, at: now, &out)
    }
}
