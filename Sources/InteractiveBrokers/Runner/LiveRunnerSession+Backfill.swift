import Foundation
import Logging
import Storage
import TWSClient
import TWSProtocol
import TradingEngine
import TradingModel

// The back-fill of bars missed during an outage (1102, 1101, a reconnect): chunked historical requests, fed with
// entries paused; beyond `data.maxBackfill` only the warm-up span is fetched (a re-warm) and an ALERT is raised.
extension Session {
    /// Feeds the bars missed since the last closed slice from historical data, in order and once, with entries
    /// paused: indicators, marks and timers catch up, but no order is sent on a bar that is already history (the
    /// strategy's wishes are denied and logged). Live bars already queued that overlap are skipped by the loop's
    /// last-bar check.
    ///
    /// A gap up to `data.maxBackfill` is filled in full, in requests IB accepts for the bar size (`BackfillPlan`),
    /// paced by the connection. A longer gap — hours offline, a gateway restart over a night — is not fetched in
    /// full: its older bars would take many paced requests (the loop waits meanwhile) for a state the strategy no
    /// longer trades on. Only its last warm-up span (`data.warmup`) is fed, so the indicators are as warm as after a
    /// restart, and an ALERT says which bars stay missing (the strategy's own state, e.g. bars since entry, spans the
    /// hole). Time passes while the requests wait for pacing, so what went missing meanwhile is fetched in a further
    /// round (three at most).
    mutating func backfill(_ connection: TWSConnection, broker: IBBroker, after outage: String) async {
        guard configuration.resilience.backfill, lastClosed > .zero else { return }
        let policy = BackfillPolicy(
            barSize: configuration.warmupBarSize, maximum: configuration.resilience.maxBackfill,
            rewarm: HistoricalDuration(configuration.warmupDuration)?.span ?? configuration.resilience.maxBackfill)
        var fed = 0
        var denied = 0
        var range: (first: Timestamp, last: Timestamp)?
        var covered = lastClosed
        var planned = false
        var cutShort = false
        for _ in 0..<3 {
            if let reason = stopFlag?.reason {
                logger.notice("back-fill after \(outage) cut short: \(reason)")
                cutShort = true
                break
            }
            let serverNow: Timestamp
            do { serverNow = Timestamp(seconds: try await connection.currentTime()) } catch {
                logger.warning("back-fill after \(outage) skipped: no server time (\(error))")
                break
            }
            guard let plan = BackfillPlan.make(from: max(lastClosed, covered), to: serverNow, policy: policy) else {
                break
            }
            planned = true
            covered = plan.serverNow - plan.barLength
            if plan.isTruncated { alertTruncated(plan, after: outage) }
            guard let fetched = await fetch(plan, connection) else {
                logger.notice("back-fill after \(outage) cut short: \(stopFlag?.reason ?? "stopping")")
                cutShort = true
                break
            }
            let bars = plan.select(fetched, lastSeen: lastBarTime)
            guard let first = bars.first, let last = bars.last else { continue }
            range = (range?.first ?? first.1.timestamp, last.1.timestamp)
            let deniedBefore = engine.denials.count
            await feed(bars, broker: broker)
            denied += engine.denials.count - deniedBefore
            fed += bars.count
        }
        backfilledBars += fed
        guard planned, !cutShort else { return }  // no complete bar was missing, or stopping
        if let range {
            logger.notice(
                "back-filled \(fed) bars missed during \(outage) (\(range.first) … \(range.last)); \(denied) orders the strategy wanted on them were not sent")
        }
        configuration.resilience.observer?(.backfilled(bars: fed))
    }

    /// Every request of the plan for every instrument; a failed request is logged and its bars stay missing.
    /// - Returns: `nil` when a stop was asked for meanwhile (`fetchUnlessStopped`).
    private func fetch(_ plan: BackfillPlan, _ connection: TWSConnection) async -> [(InstrumentID, Bar)]? {
        var fetches: [HistoricalFetch] = []
        for id in ids {
            let symbol = universe[id].symbol.rawValue
            for request in plan.requests {
                do {
                    var query = TWSHistoricalBarsQuery(
                        contract: try book.contract(for: id), duration: request.duration,
                        barSize: configuration.warmupBarSize)
                    query.endDateTime = request.endDateTime
                    query.whatToShow = configuration.whatToShow
                    query.useRTH = !configuration.outsideRegularTradingHours
                    query.formatDate = 2  // epoch seconds: no bar read in TWS's login time zone
                    fetches.append(
                        HistoricalFetch(
                            id: id, query: query, what: "back-fill of \(symbol) until \(request.end)"))
                } catch {
                    logger.warning("back-fill of \(symbol) until \(request.end) failed: \(error)")
                }
            }
        }
        guard let answers = await fetchUnlessStopped(fetches, connection) else { return nil }
        var fetched: [(InstrumentID, Bar)] = []
        for (id, items) in answers {
            for item in items {
                do { fetched.append((id, try BarMapping.bar(item))) } catch {
                    logger.warning("back-fill bar of \(universe[id].symbol) dropped: \(error)")
                }
            }
        }
        return fetched
    }

    /// Feeds bars with entries paused, closing each time's slice after its last bar.
    private mutating func feed(_ bars: [(InstrumentID, Bar)], broker: IBBroker) async {
        setEntryPause(.backfill, true)
        var k = 0
        while k < bars.count {
            let (id, bar) = bars[k]
            lastBarTime[id.index] = bar.timestamp
            time.advance(to: bar.timestamp)
            await handle(.bar(id, bar), broker: broker)
            k += 1
            if k == bars.count || bars[k].1.timestamp != bar.timestamp, bar.timestamp > lastClosed {
                lastClosed = bar.timestamp
                await handle(.barsClosed(bar.timestamp), broker: broker)
            }
        }
        setEntryPause(.backfill, false)
    }

    /// The gap is longer than `data.maxBackfill`: only its last warm-up span is fetched. Logged as an ALERT and
    /// journaled, since the strategy now trades across a hole in its data.
    private func alertTruncated(_ plan: BackfillPlan, after outage: String) {
        func seconds(_ span: TimeSpan) -> Int64 { span.nanoseconds / Timestamp.nanosecondsPerSecond }
        let text =
            "ALERT: the gap after \(outage) (\(seconds(plan.gap)) s) is longer than data.maxBackfill "
            + "(\(seconds(configuration.resilience.maxBackfill)) s): the bars from \(plan.lastClosed) to \(plan.start) "
            + "(\(seconds(plan.start - plan.lastClosed)) s) are not back-filled; the indicators are re-warmed on the "
            + "last \(seconds(plan.serverNow - plan.start)) s (data.warmup); the strategy's own state spans the hole"
        logger.warning("\(text)")
        if let journal = configuration.journal {
            try? journal.recordEvent(.connection, text, at: plan.serverNow)
        }
    }
}
