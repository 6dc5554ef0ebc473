import JournalModel
import TradingEngine
import TradingModel

/// Per instrument: whether a working stop has covered the position since it opened, and since when it has not.
struct ProtectionWatch: Sendable, Equatable {
    var wasCovered = false
    var uncoveredSince: Timestamp?
    var alerted = false
}

// A position that had its protective stop and has lost it (a cancel under a halt, a rejected resize, a stop cancelled
// in TWS by hand) is guarded by nothing while the bot runs: after `protectionGrace` without one it is an ALERT, journaled,
// and its return is said too. A position that never had a stop (a strategy without stops) is not watched; a flatten,
// the stop, a reconnect's unconfirmed book and the start-up are not judged.
extension LiveSessionCore {
    /// How long a position may be without the stop it had before that is an ALERT: a resize after a partial fill, or a
    /// re-send after a modify the broker refused, takes a moment.
    static var protectionGrace: TimeSpan { .seconds(30) }

    /// Whether working stops on the closing side cover the whole position (the dashboard's `protected` too).
    static func isCoveredByStops(_ position: Position, open: [Order]) -> Bool {
        let closing: Side = position.isLong ? .sell : .buy
        let covered = open.filter { $0.instrument == position.instrument && $0.side == closing && $0.type.isStop }
            .reduce(Int64(0)) { $0 + $1.quantity.units - $1.filledQuantity.units }
        return covered >= position.quantity.units.magnitude
    }

    /// On the tick, while running.
    mutating func protectionTick(at now: Timestamp, _ out: inout Actions) {
        guard bookGate == nil, operatorState.flatten == nil, stopping == nil else { return }
        let open = engine.orders.openOrders
        var seen: Set<InstrumentID> = []
        for position in engine.portfolio.positions where !position.isFlat {
            let id = position.instrument
            seen.insert(id)
            let covered = Self.isCoveredByStops(position, open: open)
            var watch = protection[id] ?? ProtectionWatch()
            let symbol = universe[id].symbol
            if covered {
                if watch.alerted {
                    let text = "protection restored: \(position.quantity) \(symbol) is covered by a working stop again"
                    out.log(.notice, text)
                    if settings.journaled { out.append(journalEvent(.reconciliation, text)) }
                }
                watch = ProtectionWatch(wasCovered: true)
            } else if watch.wasCovered {
                let since = watch.uncoveredSince ?? now
                watch.uncoveredSince = since
                if !watch.alerted, now - since >= Self.protectionGrace {
                    watch.alerted = true
                    let text = "ALERT: \(position.quantity) \(symbol) is held without its protective stop for "
                        + "\(Self.text(now - since)) (it had one); nothing guards it at the broker. Check the stop in "
                        + "TWS, or close the position (`ibtrader ctl flatten`)"
                    out.log(.critical, text)
                    if settings.journaled { out.append(journalEvent(.reconciliation, text)) }
                }
            }
            protection[id] = watch
        }
        for (id, watch) in protection where !seen.contains(id) {
            protection[id] = nil
            if watch.alerted {
                let text = "protection restored: \(universe[id].symbol) is flat"
                out.log(.notice, text)
                if settings.journaled { out.append(journalEvent(.reconciliation, text)) }
            }
        }
    }
}
