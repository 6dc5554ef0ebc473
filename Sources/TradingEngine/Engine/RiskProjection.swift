import TradingModel

/// The portfolio a new order is checked against: the positions once the open orders that the engine counts on
/// have traded, at current marks (a buy that may pay more, a capped entry, at its price: `referencePrice(for:)`).
/// Built once per order; `view(quantity:)` then values any size of it in O(1), so scaling an order down to fit a
/// limit is a search over sizes, not a rebuild per size.
///
/// Which open orders count (bracket children never do: they protect, they do not build positions):
/// - an order that *increases* a position counts, whatever its type (a resting limit buy may fill);
/// - an order that *reduces* a position counts only if it is a market order sent at the current time: a
///   rebalance's sells free room for its buys, but a sell that has waited a bar without filling is not counted on;
/// - the part of a reversal beyond flat is an increase.
struct RiskProjection {
    /// Projected signed quantity per instrument index (only instruments with pending orders).
    var projected: [Int: Int64] = [:]
    /// Non-flat positions once pending orders trade, the request's instrument excluded.
    var otherActiveCount = 0
    /// Gross exposure once pending orders trade, the request's instrument excluded.
    var otherGross = Money.zero
    /// Exposure of the request's sector once pending orders trade, the request's instrument excluded.
    var otherSector = Money.zero
    /// Initial margin of the other positions once pending orders trade, and the instrument's rate (margin rule).
    var otherInitialMargin: Money?
    var initialRate = 0.0
    /// Cost of the open buys not yet paid for, less (with T+0 settlement) the proceeds of counted sells.
    var pendingCash = Money.zero
    /// What each order sets aside for its commission; the open orders' together; the request's instrument kind.
    var reserve = CommissionReserve.none
    var pendingCommission = Money.zero
    var kind = InstrumentKind.stock
    /// The request's instrument: position, projected quantity before the request, reference price.
    var position: Position
    var before: Int64 = 0
    var price: Price
    var base: RiskView

    /// The view for the request at a given size.
    func view(for request: OrderRequest, quantity: Quantity, sectorLimited: Bool) -> RiskView {
        var view = base
        let after = before + request.side.sign * quantity.units
        view.isEntry = after.magnitude > before.magnitude
        let postValue = Money(units: FixedPoint.multiply(price.units, after)).times(position.multiplier).magnitude
            .converted(at: base.valueRate)
        view.postTradePositionValue = postValue
        view.postTradeGrossExposure = otherGross + postValue
        if sectorLimited { view.postTradeSectorExposure = otherSector + postValue }
        if !reserve.isNone {
            view.commissionReserve = pendingCommission
                + reserve.amount(quantity: quantity, price: price, kind: kind).converted(at: base.valueRate)
        }
        if let otherInitialMargin {
            view.postTradeInitialMargin =
                otherInitialMargin + Money(units: Int64((Double(postValue.units) * initialRate).rounded(.up)))
        }
        return view
    }
}

extension EngineCore {
    /// The projection `request` (already created as order `id`, skipped among the open orders) is checked against.
    func projection(for request: OrderRequest, id: OrderID?, stopDistance: Price?) -> RiskProjection {
        let portfolio = _state.portfolio
        let target = request.instrument.index
        var pending: [Int: Int64] = [:]
        var pendingCash = Money.zero
        var premium = Money.zero
        var pendingCommission = Money.zero
        let reserve = config.commissionReserve
        let immediateSettlement = portfolio.settlementDays == 0
        for openID in _state.orders.openIDs where openID != id {
            guard let order = _state.orders.order(openID), order.parentID == nil else { continue }
            let index = order.instrument.index
            let held = portfolio.positions[index].quantity.units + pending[index, default: 0]
            let signed = order.side.sign * order.remainingQuantity.units
            let price = referencePrice(for: order.request)
            var counted = signed
            if held != 0, (signed > 0) != (held > 0) {
                // The reducing part (up to flat) counts only for a market order sent now; the rest is an increase.
                let reducing = signed > 0 ? min(signed, -held) : max(signed, -held)
                let credited = order.type == .market && order.createdAt >= _state.now
                counted = credited ? signed : signed - reducing
                if credited, order.side == .sell, immediateSettlement, portfolio.positions[index].paysNotional {
                    pendingCash -= Money(units: FixedPoint.multiply(price.units, reducing.magnitude.toInt64))
                        .converted(at: portfolio.rate(for: order.instrument))
                }
            }
            if order.side == .buy, portfolio.positions[index].paysNotional {
                pendingCash += Money(units: FixedPoint.multiply(price.units, signed.magnitude.toInt64))
                    .converted(at: portfolio.rate(for: order.instrument))
            }
            if counted != 0 { pending[index, default: 0] += counted }
            // Every open order pays its commission when it fills (an exit's out of its proceeds: counted anyway).
            if !reserve.isNone {
                pendingCommission += reserve.amount(
                    quantity: order.remainingQuantity, price: price, kind: _state.universe[order.instrument].kind
                ).converted(at: portfolio.rate(for: order.instrument))
            }
            // A buy valued above the mark (a capped entry at its cap) counts at that price in the gross exposure.
            let mark = portfolio.marks[index]
            if index != target, order.side == .buy, counted > 0, price.units > mark.units {
                premium += Money(units: FixedPoint.multiply(price.units - mark.units, counted))
                    .times(portfolio.positions[index].multiplier).converted(at: portfolio.rate(for: order.instrument))
            }
        }
        let position = portfolio.position(for: request.instrument)
        let price = referencePrice(for: request)
        var projection = RiskProjection(
            position: position, price: price,
            base: RiskView(
                now: _state.now, equity: portfolio.equity, position: position, referencePrice: price, isEntry: false,
                monitor: _riskMonitor.status))
        projection.base.valueRate = portfolio.rate(for: request.instrument)
        projection.before = position.quantity.units + pending[target, default: 0]
        projection.pendingCash = pendingCash
        projection.reserve = reserve
        projection.pendingCommission = pendingCommission
        projection.kind = _state.universe[request.instrument].kind
        projection.projected = pending
        // Counts and gross exposure: the portfolio's, with each pending instrument's term replaced.
        var active = portfolio.activePositionCount - (position.isFlat ? 0 : 1)
        var gross = portfolio.grossExposure - portfolio.exposure(of: request.instrument, quantity: position.quantity.units)
        for (index, delta) in pending where index != target && delta != 0 {
            let held = portfolio.positions[index].quantity.units
            let id = InstrumentID(index: index)
            gross += portfolio.exposure(of: id, quantity: held + delta) - portfolio.exposure(of: id, quantity: held)
            if held == 0 && held + delta != 0 { active += 1 }
            if held != 0 && held + delta == 0 { active -= 1 }
        }
        projection.otherActiveCount = active
        projection.otherGross = gross + premium
        if config.risk.maxSectorPercentOfEquity != nil {
            projection.otherSector = sectorExposure(of: request.instrument, pending: pending)
        }
        var base = projection.base
        base.grossExposure = portfolio.grossExposure
        base.activePositionCount = active + (projection.before == 0 ? 0 : 1)
        base.pendingQuantity = Quantity(units: projection.before - position.quantity.units)
        base.stopDistance = stopDistance
        if let vol = volatilityInstrument { base.volatilityLevel = _state.lastBars[vol.index]?.close.doubleValue }
        if config.risk.requireSettledCash == true { base.settledCash = portfolio.settledCash - pendingCash }
        if let rates = marginRates {
            var margin = 0.0
            for index in portfolio.positions.indices where index != target {
                let quantity = portfolio.positions[index].quantity.units + pending[index, default: 0]
                guard quantity != 0 else { continue }
                margin += Double(portfolio.exposure(of: InstrumentID(index: index), quantity: quantity).units) * rates.initial(index)
            }
            projection.otherInitialMargin = Money(units: Int64(margin.rounded(.up)))
            projection.initialRate = rates.initial(target)
        }
        if let returns = _returns {
            base.bookCorrelation = bookCorrelation(
                of: request.instrument, side: request.side, pending: pending, returns: returns)
        }
        projection.base = base
        return projection
    }

    /// The exposure-weighted correlation of an instrument's returns with the other positions once pending orders
    /// trade: Σ |E_j| · sign(q_j) · sign(side) · ρ_ij / Σ |E_j| over the positions with at least half a window of
    /// common returns; `nil` when none has.
    private func bookCorrelation(
        of instrument: InstrumentID, side: Side, pending: [Int: Int64], returns: ReturnHistory
    ) -> BookCorrelation? {
        let portfolio = _state.portfolio
        var weighted = 0.0, total = 0.0, count = 0
        let own = returns.returns(instrument.index)
        for index in portfolio.positions.indices where index != instrument.index {
            let quantity = portfolio.positions[index].quantity.units + pending[index, default: 0]
            guard quantity != 0,
                let rho = returns.correlation(own, InstrumentID(index: index), minimumOverlap: max(10, returns.window / 2))
            else { continue }
            let exposure = Double(portfolio.exposure(of: InstrumentID(index: index), quantity: quantity).units)
            let sign: Double = (quantity > 0) == (side == .buy) ? 1 : -1
            weighted += exposure * sign * rho
            total += exposure
            count += 1
        }
        guard total > 0 else { return nil }
        return BookCorrelation(
            correlation: weighted / total, averagePositionValue: Money(units: Int64((total / Double(count)).rounded())),
            bars: returns.window)
    }

    /// The projected exposure of an instrument's sector without the instrument itself. An instrument without a
    /// sector (an empty `Instrument.sector`) is a sector of its own: nothing else counts with it.
    private func sectorExposure(of instrument: InstrumentID, pending: [Int: Int64]) -> Money {
        let sector = _state.universe[instrument].sector
        guard !sector.isEmpty else { return .zero }
        let portfolio = _state.portfolio
        var exposure = Money.zero
        for other in _state.universe.instruments where other.sector == sector && other.id != instrument {
            let index = other.id.index
            let quantity = portfolio.positions[index].quantity.units + pending[index, default: 0]
            guard quantity != 0 else { continue }
            exposure += portfolio.exposure(of: other.id, quantity: quantity)
        }
        return exposure
    }
}
