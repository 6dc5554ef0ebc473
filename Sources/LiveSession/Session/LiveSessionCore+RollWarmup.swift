import TWSProtocol
import TradingEngine
import TradingModel

// A bot started after a continuous future's roll, with a warm-up reaching back before it: the new month's own bars
// before its roll day are not what the strategy would have seen, running through the roll (its history moved by the
// gap then) or in a back-adjusted backtest. So the warm-up also asks for the month left, and splices as the roll
// does: the old month's bars before the roll day, moved by the gap at the last bar both months have; the new
// month's from the roll day on (`FutureSpec.tradingDay`).
extension LiveSessionCore {
    /// Asks for the month a continuous future left at its last roll, when the warm-up's window reaches back before
    /// that roll day.
    mutating func requestMonthLeft(
        _ id: InstrumentID, like query: TWSHistoricalBarsQuery, windowEnd: Timestamp, _ out: inout Actions
    ) {
        guard desk.contracts.isContinuous(id), case .future(let future) = universe[id].kind,
            let current = desk.contracts.month(of: id), let span = HistoricalDuration(settings.warmupDuration)?.span
        else { return }
        let left = future.spec.previousRollMonth(before: current)
        let rollDay = future.spec.rollDay(of: left, days: settings.engine.futuresRollDays)
        guard FutureSpec.tradingDay(of: windowEnd - span) < rollDay, let contract = try? desk.contracts.contract(for: id, month: left)
        else { return }
        var asked = query
        asked.contract = contract
        asked.contract.includeExpired = true  // the month left may have expired since (IB serves its history so)
        startup.monthsLeft[id] = (left, rollDay, [])
        startup.warmupPending += 1
        _ = request(.historicalBars(asked), for: .warmupMonthLeft(id), &out)
    }

    mutating func monthLeftBars(_ id: InstrumentID, _ wire: [TWSBar], _ out: inout Actions) {
        startup.warmupPending -= 1
        guard let left = startup.monthsLeft[id] else { return }
        startup.monthsLeft[id]?.bars = wire.compactMap { try? BarMapping.bar($0) }
            .filter { FutureSpec.tradingDay(of: $0.timestamp) < left.rollDay }
    }

    /// The warm-up's bars of each continuous future with a month left: that month's before the roll day moved by the
    /// gap, then the new month's from the roll day on. Without a bar both months have, the new month's own stay.
    mutating func spliceMonthsLeft(_ out: inout Actions) {
        for (id, left) in startup.monthsLeft.sorted(by: { $0.key.index < $1.key.index }) {
            let symbol = universe[id].symbol
            let current = desk.contracts.month(of: id).map { "\($0)" } ?? "the new month"
            var closes: [Int64: Price] = [:]
            for entry in startup.warmupBars where entry.1 == id { closes[entry.2.timestamp.nanoseconds] = entry.2.close }
            guard let old = left.bars.last(where: { closes[$0.timestamp.nanoseconds] != nil }),
                let new = closes[old.timestamp.nanoseconds]
            else {
                if !left.bars.isEmpty {
                    out.log(
                        .warning,
                        "\(symbol): \(current) has no bar at the time of one of \(left.month) before its roll: the "
                            + "strategy warms up on \(current)'s own bars")
                }
                continue
            }
            // Every bar of the month left moves (they all end before its roll day's session).
            let last = left.bars.map(\.timestamp).max() ?? old.timestamp
            let rebase = HistoryRebase(
                instrument: id, gap: Price(units: new.units - old.close.units), before: last + TimeSpan(nanoseconds: 1),
                after: old.timestamp)
            startup.warmupBars.removeAll { $0.1 == id && FutureSpec.tradingDay(of: $0.2.timestamp) < left.rollDay }
            for bar in left.bars { startup.warmupBars.append((bar.timestamp, id, rebase.apply(to: id, bar))) }
            let day = Timestamp(nanoseconds: left.rollDay * Timestamp.nanosecondsPerDay).description.prefix(10)
            out.log(
                .notice,
                "\(symbol): the warm-up crosses the roll of \(day): \(left.bars.count) bars of \(left.month) moved by "
                    + "\(rebase.gap.units >= 0 ? "+" : "")\(rebase.gap) to \(current)'s prices (its close \(new) beside "
                    + "\(left.month)'s \(old.close) at \(old.timestamp)), as the bot running through the roll or a "
                    + "back-adjusted backtest has them")
        }
        startup.monthsLeft = [:]
    }
}
