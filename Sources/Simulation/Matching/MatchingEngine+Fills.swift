import TradingModel

/// Time and liquidity of the data point being matched.
struct MatchContext {
    var time: Timestamp
    /// Bar volume, or `nil` for quotes (no cap).
    var volume: Quantity?
}

extension MatchingEngine {
    /// Matches one working order against a path: DAY and GTD expiry, activation, the price rules, the volume cap,
    /// then IOC, OCA and bracket effects.
    mutating func match(
        at i: Int, path: PricePath, context: MatchContext, used: inout Quantity,
        into reports: inout [ExecutionReport]
    ) {
        guard !working[i].isDone, working[i].isArmed, context.time >= working[i].activeAt else { return }
        let pastGoodTill = working[i].goodTill.map { context.time >= $0 } ?? false
        let pastDay = if let end = working[i].dayExpiry { context.time >= end } else {
            working[i].timeInForce == .day && working[i].sessions == nil
                && context.time.dayNumber > working[i].submittedAt.dayNumber
        }
        if pastGoodTill || pastDay {
            finish(at: i, report: .expired(working[i].id, at: context.time), into: &reports)
            cancelChildren(of: working[i].id, at: context.time, into: &reports)
            return
        }
        // Outside the order's sessions it rests (an IOC order, which cannot rest, is cancelled below).
        if let sessions = working[i].sessions, !allows(sessions, at: context.time) {
            if working[i].timeInForce == .ioc {
                finish(at: i, report: .canceled(working[i].id, reason: .immediateOrCancel, at: context.time), into: &reports)
                cancelChildren(of: working[i].id, at: context.time, into: &reports)
            }
            return
        }
        let sign = working[i].sign
        if let hit = working[i].mode.match(path, sign: sign) {
            let quantity = cappedQuantity(working[i].remaining, volume: context.volume, used: &used)
            if quantity.units > 0 {
                var price = Price(units: hit.price * sign)
                if hit.isAggressive {
                    let share = context.volume.map { $0.units > 0 ? quantity.doubleValue / $0.doubleValue : 0 } ?? 0
                    price = config.slippage(adaptive: working[i].isAdaptive).apply(
                        to: price, side: working[i].side, volumeShare: share, tick: ticks[working[i].instrument.index],
                        currencyPair: isPair(working[i].instrument.index))
                }
                execute(at: i, quantity: quantity, price: price, time: context.time, into: &reports)
            }
        }
        if working[i].timeInForce == .ioc, !working[i].isDone {
            finish(at: i, report: .canceled(working[i].id, reason: .immediateOrCancel, at: context.time), into: &reports)
            cancelChildren(of: working[i].id, at: context.time, into: &reports)
        }
    }

    /// Fills a market order at a bar's close (`.thisClose` mode).
    mutating func fillAtClose(
        of bar: Bar, orderAt i: Int, now: Timestamp, used: inout Quantity, into reports: inout [ExecutionReport]
    ) {
        let quantity = cappedQuantity(working[i].remaining, volume: bar.volume, used: &used)
        guard quantity.units > 0 else { return }
        let share = bar.volume.units > 0 ? quantity.doubleValue / bar.volume.doubleValue : 0
        let price = config.slippage(adaptive: working[i].isAdaptive).apply(
            to: bar.close, side: working[i].side, volumeShare: share, tick: ticks[working[i].instrument.index],
                        currencyPair: isPair(working[i].instrument.index))
        execute(at: i, quantity: quantity, price: price, time: now, into: &reports)
    }

    /// The part of `remaining` the volume cap allows, and books it as used: whole shares unless `fractionalShares`
    /// (IB fills a stock order in whole shares, a partial fill too).
    func cappedQuantity(_ remaining: Quantity, volume: Quantity?, used: inout Quantity) -> Quantity {
        guard let fraction = config.maxVolumeParticipation, let volume else { return remaining }
        var cap = Int64((Double(volume.units) * fraction).rounded(.down))
        if !config.fractionalShares {
            // To the nearest unit first, so 1,000 × 0.1 computed as 99.99999999… is 100 shares, then down to shares.
            cap = Int64((Double(volume.units) * fraction).rounded()) / FixedPoint.scale * FixedPoint.scale
        }
        let available = max(0, cap - used.units)
        let take = Quantity(units: min(remaining.units, available))
        used += take
        return take
    }

    /// Books an execution: fill report, remaining quantity, and what completion or OCA implies. With `funds` set for
    /// the order's account, the part of the fill the account cannot pay is cut first (`fundsCut`).
    mutating func execute(
        at i: Int, quantity requested: Quantity, price: Price, time: Timestamp, into reports: inout [ExecutionReport]
    ) {
        var quantity = requested
        var cut: FundsCut?
        if fundsInForce, fundsOf(working[i].account) != nil {
            (quantity, cut) = fundsCut(at: i, quantity: requested, price: price, time: time)
            if quantity.isZero, let cut {
                endCut(at: i, cut, into: &reports)
                return
            }
        }
        let order = working[i]
        // Per order: this fill pays the order's charge so far less what its earlier fills paid.
        let commission = commissions.commission(
            quantity: quantity, price: price, at: time, kind: kinds[order.instrument.index],
            order: &working[i].commission)
        reports.append(.filled(Fill(
            orderID: order.id, instrument: order.instrument, side: order.side, quantity: quantity, price: price,
            commission: commission, timestamp: time)))
        if var account = fundsOf(order.account) {
            let kind = kinds[order.instrument.index]
            account = account.after(
                order.side, quantity: quantity.doubleValue, price: price.doubleValue,
                commission: commission.doubleValue, multiplier: Double(kind.multiplier), paysNotional: kind.paysNotional)
            funds[order.account] = account
        }
        working[i].remaining -= quantity
        working[i].filled += quantity
        if let cut {
            endCut(at: i, cut, into: &reports)
        } else if working[i].remaining.units <= 0 {
            working[i].isDone = true
            workingCount[order.instrument.index] -= 1
            armChildren(of: order.id, from: time)
        }
        if let group = order.ocaGroup {
            for j in working.indices where j != i && !working[j].isDone && working[j].ocaGroup == group {
                finish(at: j, report: .canceled(working[j].id, reason: .ocaSibling, at: time), into: &reports)
            }
        }
    }

    /// Marks an order done and reports why.
    mutating func finish(at i: Int, report: ExecutionReport, into reports: inout [ExecutionReport]) {
        guard !working[i].isDone else { return }
        working[i].isDone = true
        workingCount[working[i].instrument.index] -= 1
        reports.append(report)
    }

    /// Cancels the bracket children of an order.
    mutating func cancelChildren(of parent: OrderID, at time: Timestamp, into reports: inout [ExecutionReport]) {
        for j in working.indices where working[j].parentID == parent && !working[j].isDone {
            finish(at: j, report: .canceled(working[j].id, reason: .parentCanceled, at: time), into: &reports)
        }
    }

    /// Arms the children of a completely filled parent; they may fill from the next data point on.
    mutating func armChildren(of parent: OrderID, from time: Timestamp) {
        for j in working.indices where working[j].parentID == parent {
            working[j].isArmed = true
            working[j].activeAt = max(working[j].activeAt, Timestamp(nanoseconds: time.nanoseconds + 1))
        }
    }

    /// Removes finished orders.
    mutating func compact() {
        if working.contains(where: \.isDone) { working.removeAll(where: \.isDone) }
    }

    /// The part of a fill the order's account can pay (`FundsAtFill`), and the cut when it is less than asked: the
    /// largest whole quantity (shares, contracts; 1e-8 units with `fractionalShares`) whose fill keeps the account
    /// within its rule, never less than the part that closes a position.
    mutating func fundsCut(at i: Int, quantity: Quantity, price: Price, time: Timestamp) -> (Quantity, FundsCut?) {
        let order = working[i]
        guard let account = fundsOf(order.account) else { return (quantity, nil) }
        let kind = kinds[order.instrument.index]
        let closing = account.closingPart(order.side, quantity: quantity.doubleValue)
        guard closing < quantity.doubleValue else { return (quantity, nil) }
        let step: Int64 = config.fractionalShares ? 1 : FixedPoint.scale
        func funded(_ units: Int64) -> Bool {
            var calculator = commissions
            var charges = order.commission
            let q = Quantity(units: units)
            let commission = calculator.commission(quantity: q, price: price, at: time, kind: kind, order: &charges)
            return account.after(
                order.side, quantity: q.doubleValue, price: price.doubleValue, commission: commission.doubleValue,
                multiplier: Double(kind.multiplier), paysNotional: kind.paysNotional
            ).isFunded
        }
        if funded(quantity.units) { return (quantity, nil) }
        // Whole steps between the closing part (always allowed) and the quantity asked: the largest funded one.
        let floor = Int64((closing * Double(FixedPoint.scale)).rounded(.up))
        var low = (floor + step - 1) / step, high = quantity.units / step
        if !funded(low * step) {
            low = floor / step
        } else {
            while low < high {
                let mid = (low + high + 1) / 2
                if funded(mid * step) { low = mid } else { high = mid - 1 }
            }
        }
        let take = Quantity(units: min(quantity.units, max(0, low * step)))
        let unit = switch kind { case .stock: "shares"; case .future: "contracts"; case .forex: "units" }
        let cut = FundsCut(
            orderID: order.id, instrument: order.instrument, time: time, asked: order.remaining, filled: take,
            price: price, reason: account.reason(asked: order.remaining, filled: take, price: price, unit: unit))
        return (take, cut)
    }

    /// Ends an order whose fill was cut or refused: the rest is canceled (`.buyingPower`). A bracket parent that
    /// filled in part keeps its protection: its children are resized to what filled and armed; one that filled
    /// nothing takes its children with it.
    mutating func endCut(at i: Int, _ cut: FundsCut, into reports: inout [ExecutionReport]) {
        var cut = cut
        let id = working[i].id
        let filled = working[i].filled
        if !filled.isZero {
            for j in working.indices where working[j].parentID == id && !working[j].isDone {
                working[j].remaining = filled
                working[j].isArmed = true
                working[j].activeAt = max(working[j].activeAt, Timestamp(nanoseconds: cut.time.nanoseconds + 1))
                cut.resizedChildren.append((working[j].id, filled))
            }
        }
        fundsCuts.append(cut)
        finish(at: i, report: .canceled(id, reason: .buyingPower, at: cut.time), into: &reports)
        if filled.isZero { cancelChildren(of: id, at: cut.time, into: &reports) }
    }
}
