import Logging
import TWSProtocol
import TradingEngine
import TradingModel

// A continuous future (`ES continuous`) trades one contract month at a time: the front month by the backtest's roll
// rule (`backtest.futuresRollDays` business days before the last trading day, the next of the product's roll months
// from then on), chosen at the start by the server's trading day (`FutureSpec.tradingDay`, as the backtest counts
// it: the New York date, the next one from 18:00). On the first 5-second bar of the roll day, the position held in
// the month left rolls (`EngineCore.rollPosition`: the month's working orders cancelled, two market legs
// journaled in one group before either is sent, the exits carried over once both fill), and the bars and quotes
// move to the new month. The bar that told is the old month's and is dropped.
//
// Which month holds what is kept by month (`monthPositions`): the broker's positions at the start, then this run's
// fills (a roll leg's month is in its id). So a restart rolls what the broker still holds in an older month, and
// only that: after a crash with both legs filled there is nothing to roll, with the legs unsent and resent by the
// restart the roll waits for them, and with the legs abandoned as too old it is decided again.
extension LiveSessionCore {
    /// The continuous futures of the universe.
    var rolledIDs: [InstrumentID] { ids.filter { desk.contracts.isContinuous($0) } }

    /// The month a continuous future holds on a day.
    func frontMonth(of id: InstrumentID, onDay day: Int64) -> ContractMonth? {
        guard case let .future(future) = universe[id].kind else { return nil }
        return future.spec.frontMonth(onDay: day, rollDays: settings.engine.futuresRollDays)
    }

    /// The start-up's first step with a continuous future: each trades its front month on the server's trading day
    /// (`FutureSpec.tradingDay`, as the backtest counts it), then the contracts are qualified.
    mutating func chooseFrontMonths(serverNow: Timestamp?, _ out: inout Actions) {
        let day = FutureSpec.tradingDay(of: serverNow ?? inputTime)
        for id in rolledIDs {
            guard let month = frontMonth(of: id, onDay: day), case let .future(future) = universe[id].kind else {
                continue
            }
            desk.contracts.trade(id, month: month)
            monthMoves.append((id, .zero, month))
            let rollDay = Timestamp(
                nanoseconds: future.spec.rollDay(of: month, days: settings.engine.futuresRollDays) * Timestamp.nanosecondsPerDay)
            out.log(
                .info,
                "\(universe[id].symbol) trades \(future.spec.root) \(month) until its roll day, \(rollDay.description.prefix(10)) "
                    + "(\(settings.engine.futuresRollDays) business days before its last trading day)")
        }
        qualifyContracts(&out)
    }

    /// The broker's positions of the continuous futures, by contract month.
    mutating func recordMonthPositions(_ positions: [TWSPosition], _ out: inout Actions) {
        for position in positions where account.isEmpty || position.account == account {
            guard position.contract.securityType.uppercased() == "FUT",
                let id = try? desk.contracts.instrument(for: position.contract), desk.contracts.isContinuous(id),
                let month = ContractMonth(position.contract.lastTradeDateOrContractMonth.prefix(6)),
                let quantity = try? WireNumbers.quantity(position.quantity, field: "position"), !quantity.isZero
            else { continue }
            monthPositions[id, default: [:]][month, default: .zero] += quantity
        }
        for (id, months) in monthPositions {
            let listed = months.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }.joined(separator: ", ")
            out.log(.info, "\(universe[id].symbol) held at the broker: \(listed)")
        }
    }

    /// A fill of a continuous future counts in the month it traded: a roll leg's (its id says which), else the one
    /// the instrument trades now.
    mutating func recordMonthFill(_ fill: Fill) {
        let id = fill.instrument
        guard desk.contracts.isContinuous(id), let order = engine.orders.order(fill.orderID),
            let month = FuturesRollID.legMonth(of: order.clientOrderID.rawValue) ?? desk.contracts.month(of: id)
        else { return }
        monthPositions[id, default: [:]][month, default: .zero] += fill.side == .buy ? fill.quantity : -fill.quantity
    }

    /// A 5-second bar of a continuous future: rolls what is held in an older month, and on the first bar of a day
    /// that belongs to the next month moves the feeds there.
    /// - Returns: `true` when the bar is dropped (it is the month left's).
    mutating func rollIfDue(_ id: InstrumentID, _ bar: Bar, _ out: inout Actions) -> Bool {
        guard let current = desk.contracts.month(of: id), case let .future(future) = universe[id].kind else {
            return false
        }
        var cursor = rollCursors[id] ?? FrontMonthCursor(spec: future.spec, rollDays: settings.engine.futuresRollDays)
        let day = FutureSpec.tradingDay(of: bar.timestamp)
        var front = cursor.month(onDay: day)
        rollCursors[id] = cursor
        if settings.engine.futuresRollByVolume {
            if let moved = volumeFronts[id], moved > front { front = moved }
            // On business days only (a trading day is never a weekend's: Sunday evening's session is Monday's).
            if volumeChecks[id]?.day != day, USEquityCalendar.isTradingDay(day) {
                askVolumes(id, holding: max(current, front), day: day, &out)
            }
        }
        if monthPositions[id]?.contains(where: { $0.key != front && !$0.value.isZero }) == true {
            rollHeldMonths(id, to: front, at: bar.timestamp, &out)
        }
        guard front > current else { return false }
        monthMoves.append((id, lastBarTime[id.index], front))
        desk.contracts.trade(id, month: front)
        out.log(.notice, "\(universe[id].symbol) moves to \(front) (the roll day of \(current)): bars and quotes follow")
        if let contract = try? desk.contracts.contract(for: id), contract.contractID == 0 {
            _ = request(.contractDetails(contract), for: .rolledContract(id), &out)
        }
        requestRebaseBars(id, before: bar.timestamp, &out)
        retireFeeds(&out)
        subscribe(newFeed: true, at: inputTime, &out)
        return true
    }

    /// Rolls the bot's position held in a month other than `front` into it, one month at a time, unless a roll's legs
    /// are working, the broker's book is not confirmed, or the run is stopping. Only the bot's own part moves (the
    /// engine's position less what the front month holds): contracts of the root someone else holds stay where they
    /// are. One decision per instrument and day: a roll whose leg the broker refused is said (ALERT) and not sent
    /// again every five seconds; the next day, or a restart, decides again.
    private mutating func rollHeldMonths(
        _ id: InstrumentID, to front: ContractMonth, at time: Timestamp, _ out: inout Actions
    ) {
        guard bookGate == nil, stopping == nil, !entryPauses.contains(.journal) else { return }
        let working = engine.orders.openOrders(for: id)
        guard !working.contains(where: { FuturesRollID.legMonth(of: $0.clientOrderID.rawValue) != nil }) else { return }
        let held = monthPositions[id] ?? [:]
        let toMove = engine.portfolio.position(for: id).quantity - (held[front] ?? .zero)
        guard !toMove.isZero,
            let (month, holding) = held.sorted(by: { $0.key < $1.key })
                .first(where: { $0.key != front && $0.value.units.signum() == toMove.units.signum() })
        else { return }
        let day = FutureSpec.tradingDay(of: time)
        if rollDecided[id] == day {
            if rollStuck.insert(id).inserted {
                out.log(
                    .critical,
                    "ALERT: the roll of \(universe[id].symbol) did not complete: \(holding) still held in \(month); "
                        + "the bot decides it again tomorrow or at a restart (or roll it in TWS)")
            }
            return
        }
        let quantity = holding.magnitude < toMove.magnitude ? holding : toMove
        guard let roll = engine.rollPosition(id, quantity: quantity, from: month, to: front, at: time) else { return }
        rollDecided[id] = day
        rollStuck.remove(id)
        let symbol = universe[id].symbol
        let text =
            "roll \(symbol): \(quantity.magnitude) contract\(quantity.magnitude == Quantity(1) ? "" : "s") "
            + "\(quantity.units > 0 ? "long" : "short") from \(month) to \(front): \(roll.legOut.side.rawValue) "
            + "\(roll.legOut.quantity) \(month) (\(roll.legOut.clientOrderID)), \(roll.legIn.side.rawValue) "
            + "\(roll.legIn.quantity) \(front) (\(roll.legIn.clientOrderID))"
            + (roll.cancels.isEmpty ? "" : "; \(roll.cancels.count) working order\(roll.cancels.count == 1 ? "" : "s") on \(month) cancelled, its exits follow to \(front)")
        out.log(.notice, text)
        if settings.journaled { out.append(journalEvent(.roll, text, dataTime: time)) }
        for cancel in roll.cancels { carryOut(cancel, &out) }
        counts.commands += 1
        let result = desk.roll(roll, at: max(dataTime, time))
        if case .place(let group)? = result.instruction { out.append(.place(group)) }
        followUps += result.outputs
        if let failure = result.failure {
            out.log(.critical, "ALERT: roll of \(symbol) not sent: \(failure)")
        }
    }

    /// The roll by volume, on a day's first bar: the daily volumes of the month held and of the next roll month.
    private mutating func askVolumes(_ id: InstrumentID, holding month: ContractMonth, day: Int64, _ out: inout Actions) {
        guard case .future(let future) = universe[id].kind else { return }
        let next = future.spec.nextRollMonth(after: month)
        volumeChecks[id] = VolumeCheck(day: day, held: month, next: next)
        for asked in [month, next] {
            guard let contract = try? desk.contracts.contract(for: id, month: asked) else { continue }
            var query = TWSHistoricalBarsQuery(contract: contract, duration: "10 D", barSize: "1 day")
            query.whatToShow = settings.whatToShow(for: contract)
            query.useRTH = !settings.outsideRegularTradingHours
            _ = request(.historicalBars(query), for: .rollVolume(id, asked), &out)
        }
    }

    /// A month's daily volumes: once both months' are in, the next month that traded more on the last day both
    /// traded before today is where the position goes, on the next bar (at the latest on the days rule's roll day).
    mutating func volumesAnswered(_ id: InstrumentID, _ month: ContractMonth, _ wire: [TWSBar], _ out: inout Actions) {
        guard var check = volumeChecks[id], month == check.held || month == check.next else { return }
        var volumes: [Int64: Int64] = [:]
        for item in wire {
            if let bar = try? BarMapping.bar(item) {
                volumes[FutureSpec.tradingDay(of: bar.timestamp), default: 0] += bar.volume.units
            }
        }
        check.volumes[month] = volumes
        volumeChecks[id] = check
        guard let held = check.volumes[check.held], let next = check.volumes[check.next],
            let last = held.keys.filter({ $0 < check.day && next[$0] != nil }).max(), let theirs = next[last],
            let ours = held[last], theirs > ours, (volumeFronts[id] ?? check.held) < check.next
        else { return }
        volumeFronts[id] = check.next
        let date = Timestamp(nanoseconds: last * Timestamp.nanosecondsPerDay).description.prefix(10)
        out.log(
            .notice,
            "\(universe[id].symbol): \(check.next) traded more than \(check.held) on \(date) (\(Quantity(units: theirs)) "
                + "contracts against \(Quantity(units: ours))): it rolls to \(check.next) by volume on its next bar")
    }

    /// Asks for the new month's bars of the strategy's size up to the roll: the close of the one at the time of the
    /// old month's last bar measures the gap the strategy's history moves by (`rebaseHistory`).
    private mutating func requestRebaseBars(_ id: InstrumentID, before time: Timestamp, _ out: inout Actions) {
        // Nothing seen before the roll, nothing to move.
        guard let lastSeen = rewarm?.history.last(where: { $0.0 == id && $0.1.timestamp < time })?.1.timestamp,
            let contract = try? desk.contracts.contract(for: id), let size = BarSize(settings.warmupBarSize)
        else { return }
        // Ending with the old month's last bar (however long ago: a weekend, a holiday), as long as IB serves bars of
        // that size in one request (`ChunkPolicy`: an hour of 5-second bars, a month of hourly ones).
        let duration = ChunkPolicy(barSize: size).requestDuration
        var query = TWSHistoricalBarsQuery(contract: contract, duration: duration, barSize: settings.warmupBarSize)
        query.whatToShow = settings.whatToShow(for: contract)
        query.useRTH = !settings.outsideRegularTradingHours
        query.endDateTime = BackfillPlan.Request(end: lastSeen + .seconds(size.nominalSeconds), duration: duration).endDateTime
        query.formatDate = 2
        rebasePending[id] = time
        _ = request(.historicalBars(query), for: .rebaseBars(id), &out)
    }

    /// The new month's bars up to the roll: the gap is its close minus the old month's at the last bar the strategy
    /// saw that both have (the rule a back-adjusted backtest splices by). Every bar of the instrument before the roll
    /// moves by it, and the strategy re-warms on the bars it has seen (`EngineCore.rewarmStrategy`): its indicators
    /// go on without the jump, as on back-adjusted prices. Orders, positions and fills are not touched.
    mutating func rebaseHistory(_ id: InstrumentID, _ wire: [TWSBar], _ out: inout Actions) {
        guard let before = rebasePending.removeValue(forKey: id), let fresh = rewarm?.fresh else { return }
        var closes: [Int64: Price] = [:]
        for item in wire {
            if let bar = try? BarMapping.bar(item) { closes[bar.timestamp.nanoseconds] = bar.close }
        }
        let symbol = universe[id].symbol
        let month = desk.contracts.month(of: id).map { "\($0)" } ?? "the new month"
        guard let old = rewarm?.history.last(where: {
                $0.0 == id && $0.1.timestamp < before && closes[$0.1.timestamp.nanoseconds] != nil
            })?.1,
            let new = closes[old.timestamp.nanoseconds]
        else {
            out.log(
                .warning,
                "\(symbol): \(month) has no bar at the time of one the strategy saw before the roll (\(wire.count) bar\(wire.count == 1 ? "" : "s") "
                    + "came): the strategy's history keeps the old month's prices")
            return
        }
        let rebase = HistoryRebase(
            instrument: id, gap: Price(units: new.units - old.close.units), before: before,
            after: rewarm?.history.last?.1.timestamp ?? before)
        var moved = 0
        for k in rewarm!.history.indices where rewarm!.history[k].0 == id && rewarm!.history[k].1.timestamp < before {
            rewarm!.history[k].1 = rebase.apply(to: id, rewarm!.history[k].1)
            moved += 1
        }
        engine.rewarmStrategy(from: fresh, on: rewarm!.history)
        historyRebases.append(rebase)
        out.log(
            .notice,
            "\(symbol): the strategy's \(moved) bars before the roll moved by \(rebase.gap.units >= 0 ? "+" : "")\(rebase.gap) "
                + "to \(month)'s prices (its close \(new) beside the old month's \(old.close) at \(old.timestamp)) and it "
                + "re-warmed on them: its indicators go on without the roll's jump, as on back-adjusted prices")
    }

    /// The new month's contract details: its contract id, local symbol and trading class from now on.
    mutating func rolledContractQualified(_ id: InstrumentID, _ details: [TWSContractDetails], _ out: inout Actions) {
        guard let contract = details.first?.contract, contract.securityType == "FUT",
            let month = ContractMonth(contract.lastTradeDateOrContractMonth.prefix(6)), month == desk.contracts.month(of: id)
        else { return }
        desk.contracts.qualify(id, as: contract)
    }

    /// A roll leg's fill that completes the roll: said and journaled with both prices and the gap the exits moved by.
    mutating func rollFilled(_ fill: Fill, _ out: inout Actions) {
        guard let leg = engine.orders.order(fill.orderID), leg.state == .filled,
            let roll = FuturesRollID.leg(of: leg.clientOrderID.rawValue)
        else { return }
        let legs = engine.orders.orders.compactMap { order -> (month: ContractMonth, order: Order)? in
            guard order.instrument == leg.instrument, let other = FuturesRollID.leg(of: order.clientOrderID.rawValue),
                other.seconds == roll.seconds
            else { return nil }
            return (other.month, order)
        }.sorted { $0.month < $1.month }
        guard legs.count == 2, legs.allSatisfy({ $0.order.state == .filled }),
            let outPrice = legs[0].order.averageFillPrice, let inPrice = legs[1].order.averageFillPrice
        else { return }
        let (from, out0) = legs[0]
        let (to, in0) = legs[1]
        let gap = Price(units: inPrice.units - outPrice.units)
        let text =
            "roll \(universe[leg.instrument].symbol) done: \(out0.side.rawValue) \(out0.filledQuantity) \(from) at \(outPrice), "
            + "\(in0.side.rawValue) \(in0.filledQuantity) \(to) at \(inPrice) (the new month \(gap.units >= 0 ? "+" : "")\(gap) to "
            + "the old; working exits follow by as much)"
        out.log(.notice, text)
        if settings.journaled { out.append(journalEvent(.roll, text)) }
    }
}
