import Logging
import JournalModel
import TWSProtocol
import TradingEngine
import TradingModel

// The back-fill of bars missed during an outage (1102, 1101, a reconnect): the server's time, a plan of requests IB
// accepts for the bar size (`BackfillPlan`), the bars fed in order and once with entries paused; beyond
// `data.maxBackfill` only the warm-up span is fetched (a re-warm) and an ALERT raised. Time passes while the requests
// wait for pacing, so what went missing meanwhile is fetched in a further round (three at most).
extension LiveSessionCore {
    /// A round: the server's time first.
    mutating func backfillRound(_ out: inout Actions) {
        guard let backfill = recovery?.backfill else { return }
        guard backfill.round < 3, stopping == nil else {
            endBackfill(&out)
            return
        }
        _ = request(.serverTime, for: .backfillTime, &out)
    }

    /// The server's time is in: plan the round and send its requests.
    mutating func backfillPlanned(serverNow: Timestamp, _ out: inout Actions) {
        guard var backfill = recovery?.backfill else { return }
        let policy = BackfillPolicy(
            barSize: settings.warmupBarSize, maximum: settings.resilience.maxBackfill,
            rewarm: HistoricalDuration(settings.warmupDuration)?.span ?? settings.resilience.maxBackfill,
            sessions: aggregator.sessions)
        // The first round starts where the back-fill was asked to (a silent symbol's last bar can be older than
        // the last closed slice); later rounds after what the earlier ones covered.
        let from = backfill.round == 0 ? backfill.covered : max(lastClosed, backfill.covered)
        guard let plan = BackfillPlan.make(from: from, to: serverNow, policy: policy) else {
            endBackfill(&out)
            return
        }
        backfill.planned = true
        backfill.covered = plan.serverNow - plan.barLength
        backfill.plan = plan
        backfill.fetched = []
        if plan.isTruncated { alertTruncated(plan, after: backfill.outage, &out) }
        for id in ids {
            guard let contract = try? desk.contracts.contract(for: id) else { continue }
            for chunk in plan.requests {
                var query = TWSHistoricalBarsQuery(contract: contract, duration: chunk.duration, barSize: settings.warmupBarSize)
                query.endDateTime = chunk.endDateTime
                query.whatToShow = settings.whatToShow(for: contract)
                query.useRTH = !settings.outsideRegularTradingHours
                query.formatDate = 2  // epoch seconds: no bar read in TWS's login time zone
                backfill.outstanding += 1
                _ = request(.historicalBars(query), for: .backfillBars(id), &out)
            }
        }
        recovery?.backfill = backfill
        if backfill.outstanding == 0 { feedBackfillRound(&out) }
    }

    /// One request's bars (empty for a failed one: its bars stay missing).
    mutating func backfillAnswered(_ id: InstrumentID, _ wire: [TWSBar], at now: Timestamp, _ out: inout Actions) {
        guard var backfill = recovery?.backfill else { return }
        backfill.outstanding -= 1
        for item in wire {
            do { backfill.fetched.append((id, try BarMapping.bar(item))) } catch {
                out.log(.warning, "back-fill bar of \(universe[id].symbol) dropped: \(error)")
            }
        }
        recovery?.backfill = backfill
        guard backfill.outstanding == 0 else { return }
        if backfill.cutShort {
            endBackfill(&out)
        } else {
            feedBackfillRound(&out)
        }
    }

    /// Feeds a round's bars with entries paused, closing each time's slice after its last bar; then the next round.
    private mutating func feedBackfillRound(_ out: inout Actions) {
        guard var backfill = recovery?.backfill, let plan = backfill.plan else { return }
        let bars = plan.select(backfill.fetched, lastSeen: lastBarTime)
        backfill.fetched = []
        backfill.round += 1
        if let first = bars.first, let last = bars.last {
            backfill.first = backfill.first ?? first.1.timestamp
            backfill.last = last.1.timestamp
            let deniedBefore = engine.denials.count
            setEntryPause(.backfill, true)
            var k = 0
            while k < bars.count {
                let (id, bar) = bars[k]
                lastBarTime[id.index] = bar.timestamp
                if bar.timestamp > dataTime || !dataTimeFromBars {
                    dataTime = bar.timestamp
                    dataTimeFromBars = true
                }
                step(.bar(id, bar), &out)
                k += 1
                if k == bars.count || bars[k].1.timestamp != bar.timestamp, bar.timestamp > lastClosed {
                    lastClosed = bar.timestamp
                    step(.barsClosed(bar.timestamp), &out)
                }
            }
            setEntryPause(.backfill, false)
            backfill.denied += engine.denials.count - deniedBefore
            backfill.fed += bars.count
        }
        recovery?.backfill = backfill
        backfillRound(&out)
    }

    /// No server time: this round is skipped (the bars stay missing).
    mutating func backfillWithoutServerTime(_ failure: SessionFailure, at now: Timestamp, _ out: inout Actions) {
        guard let backfill = recovery?.backfill else { return }
        out.log(.warning, "back-fill after \(backfill.outage) skipped: no server time (\(failure))")
        endBackfill(&out)
    }

    /// A stop: the requests under way are cancelled, the rest not sent.
    mutating func cutBackfillShort(_ reason: String, _ out: inout Actions) {
        guard var backfill = recovery?.backfill, !backfill.cutShort else { return }
        backfill.cutShort = true
        out.log(.notice, "back-fill after \(backfill.outage) cut short: \(reason)")
        for (tag, purpose) in pending.sorted(by: { $0.key < $1.key }) {
            switch purpose {
            case .backfillBars, .backfillTime:
                pending[tag] = nil
                out.append(.cancel(tag))
            default: continue
            }
        }
        backfill.outstanding = 0
        recovery?.backfill = backfill
        endBackfill(&out)
    }

    private mutating func endBackfill(_ out: inout Actions) {
        guard let backfill = recovery?.backfill else { return }
        recovery?.backfill = nil
        recovery?.current = nil
        counts.backfilledBars += backfill.fed
        if backfill.planned, !backfill.cutShort {
            if let first = backfill.first, let last = backfill.last {
                out.log(
                    .notice,
                    "back-filled \(backfill.fed) bars missed during \(backfill.outage) (\(first) … \(last)); \(backfill.denied) orders the strategy wanted on them were not sent")
            }
            out.append(.milestone(.connectivity(.backfilled(bars: backfill.fed))))
        }
        advanceRecovery(at: inputTime, &out)
    }

    /// The gap is longer than `data.maxBackfill`: only its last warm-up span is fetched. Logged as an ALERT and
    /// journaled, since the strategy now trades across a hole in its data.
    private func alertTruncated(_ plan: BackfillPlan, after outage: String, _ out: inout Actions) {
        func seconds(_ span: TimeSpan) -> Int64 { span.nanoseconds / Timestamp.nanosecondsPerSecond }
        let text =
            "ALERT: the gap after \(outage) (\(seconds(plan.gap)) s) is longer than data.maxBackfill "
            + "(\(seconds(settings.resilience.maxBackfill)) s): the bars from \(plan.lastClosed) to \(plan.start) "
            + "(\(seconds(plan.start - plan.lastClosed)) s) are not back-filled; the indicators are re-warmed on the "
            + "last \(seconds(plan.serverNow - plan.start)) s (data.warmup); the strategy's own state spans the hole"
        out.log(.warning, text)
        if settings.journaled { out.append(journalEvent(.connection, text)) }
    }
}
