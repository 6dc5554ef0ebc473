import Foundation
import Simulation
import TWSProtocol
import TradingModel

extension GatewayState {
    // MARK: - placeOrder

    mutating func placeOrder(orderID: Int, contract: TWSContract, order: TWSOrder, clientID: Int) -> [GatewayAction] {
        let key = OrderKey(clientID: clientID, orderID: orderID)
        if let existing = orders[key] {
            return modifyOrder(existing, contract: contract, order: order)
        }
        func reject(_ code: Int, _ text: String) -> [GatewayAction] {
            sendToClient(clientID, .error(TWSErrorMessage(requestID: orderID, code: code, message: text)))
        }
        guard orderID > 0, orderID < Int(Int32.max) else {
            return reject(321, "Error validating request:-'orderId' \(orderID) is out of range")
        }
        guard orderID > (highestOrderID[clientID] ?? 0) else {
            return reject(103, "Duplicate order id")
        }
        highestOrderID[clientID] = orderID
        if let refusal = pendingFaults.refuseNextOrder {
            // `refuse CODE`: refused before it exists (TWS's 321 validation refusals send no order status).
            pendingFaults.refuseNextOrder = nil
            return reject(refusal.code, refusal.text)
        }
        guard let instrument = resolve(contract) else { return reject(200, TWSErrorText.noSecurityDefinition) }
        // Like IB: an order whose account is missing or unknown is refused before it exists (no order status).
        if let refusal = accountRefusal(order.account) { return reject(321, refusal) }
        let accountCode = accountCode(named: order.account)
        let quantity = Self.orderSize(order) ?? Quantity(units: -1)
        // PROTOCOL.md §4: a rejection is errMsg 201 followed by a terminal orderStatus (an off-tick price is IB's
        // error 110, with its own text).
        func rejected(_ reason: String) -> [GatewayAction] {
            (reason == Self.offTickText ? reject(110, reason) : reject(201, TWSErrorText.rejected(reason))) + sendToClient(clientID, .orderStatus(TWSOrderStatus(
                orderID: orderID, status: "Cancelled", filled: 0, remaining: max(quantity, .zero).decimal,
                parentID: order.parentID,
                clientID: clientID)))
        }
        if let reason = pendingFaults.rejectNextOrder {
            pendingFaults.rejectNextOrder = nil
            return rejected(reason)
        }
        if let exchange = instrument.indexExchange {
            return rejected("\(instrument.symbol) is an index on \(exchange): it has no order book to trade")
        }
        if let reason = validate(order, instrument: instrument, quantity: quantity) {
            return rejected(reason)
        }
        if let reason = contractSizeRefusal(instrument, quantity: quantity) { return rejected(reason) }
        // A what-if order is previewed, never placed (its id is used up, as in TWS).
        if order.whatIf {
            return whatIfPreview(orderID: orderID, contract: contract, order: order, clientID: clientID,
                instrument: instrument, quantity: quantity, account: accountCode)
        }
        if let reason = buyingPowerShortfall(order, instrument: instrument, quantity: quantity, account: accountCode) {
            return rejected(reason)
        }
        var entry = GatewayOrder(
            key: key, engineID: OrderID(nextEngineID), permID: nextPermID, instrument: instrument.id,
            contract: qualifiedContract(instrument, exchange: contract.exchange), wire: order, account: accountCode,
            status: "PendingSubmit", isHeld: !order.transmit, quantity: quantity)
        nextEngineID += 1
        nextPermID += 1
        if entry.wire.timeInForce.isEmpty { entry.wire.timeInForce = "DAY" }
        orders[key] = entry
        engineOrders[entry.engineID] = key
        guard order.transmit else { return [] }
        if let span = pendingFaults.locateNextShortSale, order.parentID == 0, isShortSale(key) {
            pendingFaults.locateNextShortSale = nil
            return holdForLocate(key, for: span)
        }
        // A transmitting order releases its held parent and held siblings (bracket).
        var release: [OrderKey] = []
        if order.parentID != 0 {
            let parentKey = OrderKey(clientID: clientID, orderID: order.parentID)
            if let parent = orders[parentKey], parent.isHeld { release.append(parentKey) }
            release += orders.values.filter { $0.isHeld && $0.wire.parentID == order.parentID && $0.key != key }
                .sorted { $0.key.orderID < $1.key.orderID }.map(\.key)
        }
        release.append(key)
        let isBracket = order.parentID != 0
        var out: [GatewayAction] = []
        for k in release {
            guard var o = orders[k] else { continue }
            o.isHeld = false
            if isBracket, o.wire.parentID != 0, o.wire.ocaGroup.isEmpty {
                o.wire.ocaGroup = "bracket-\(clientID)-\(o.wire.parentID)"
                o.wire.ocaType = 3
            }
            orders[k] = o
            out += transmit(k)
        }
        if pendingFaults.presetNoticeNextOrder, order.parentID == 0 {
            // preset-cancel: IB's 10349 and a Cancelled status with nothing filled, then the order goes on (TWS
            // resubmits it) and may fill: what ib_async and its users took for a cancellation.
            pendingFaults.presetNoticeNextOrder = false
            out = sendToClient(clientID, .error(TWSErrorMessage(
                requestID: orderID, code: 10349, message: "Order TIF was set to DAY based on order preset.")))
                + sendToClient(clientID, .orderStatus(TWSOrderStatus(
                    orderID: orderID, status: "Cancelled", filled: 0, remaining: quantity.decimal,
                    permID: entry.permID, clientID: clientID)))
                + out
        }
        if order.outsideRTH, engine.config.sessions != nil, !engineType(order, instrument: instrument).worksOutsideRegularHours {
            // TWS goes on with such an order, in regular hours only, and says so first.
            out = sendToClient(clientID, .error(TWSErrorMessage(
                requestID: orderID, code: 2109, message: "Order Event Warning:Attribute 'Outside Regular Trading "
                    + "Hours' is ignored based on the order type and destination. PlaceOrder is now being processed.")))
                + out
        }
        if let note = oddLotNote(order, instrument: instrument, quantity: quantity) {
            // Below IDEALPRO's minimum: TWS says so, then routes it as an odd lot, and it fills.
            out = sendToClient(clientID, .error(TWSErrorMessage(requestID: orderID, code: 399, message: note))) + out
        }
        // The group is transmitted as one: only now may the market fill any of it.
        out += matchNow(instrument.id)
        if pendingFaults.deactivateNextOrder, order.parentID == 0, let placed = orders[key], !placed.isTerminal {
            // `deactivate`: accepted, then deactivated (one that filled at once is not: the fault waits for one that rests).
            pendingFaults.deactivateNextOrder = false
            out += deactivate(key)
        }
        if pendingFaults.twinNextOrder, order.parentID == 0, let placed = orders[key], !placed.isTerminal {
            // twin-order: an order that rests lives a second time, under another id and permId with the same orderRef
            // (one client order, two live broker orders). One that filled at once is not twinned: no client could
            // stop its twin, so the fault waits for an order whose twin the client can find and cancel. The client's
            // own id sequence is left as it was.
            pendingFaults.twinNextOrder = false
            let highest = highestOrderID[clientID]
            let twinKey = OrderKey(clientID: clientID, orderID: orderID + Self.twinOffset)
            out += placeOrder(orderID: twinKey.orderID, contract: contract, order: order, clientID: clientID)
            highestOrderID[clientID] = highest
            if let twin = orders[twinKey] { twinPermIDs.insert(twin.permID) }
        }
        return out
    }

    /// How far a `twin-order` twin's id is from its original's.
    static let twinOffset = 1_000_000

    /// The order's size on the fixed-point grid: 0 when unset, `nil` when it does not fit (`1e40`, more than 8
    /// decimals), so the rejection names what was sent instead of reading it as 0.
    static func orderSize(_ order: TWSOrder) -> Quantity? {
        guard let size = order.totalQuantity else { return .zero }
        return Quantity(size.description)
    }

    /// IB's error 110: a price off the contract's tick (the increment of its market rule at that price).
    static let offTickText = "The price does not conform to the minimum price variation for this contract."

    /// Why TWS would refuse an order, or `nil`.
    func validate(_ order: TWSOrder, instrument: SimulatedInstrument, quantity: Quantity) -> String? {
        guard quantity.units > 0 else {
            let size = quantity.units < 0 ? order.totalQuantity.map { "\($0)" } ?? "" : quantity.description
            return "Order size \(size) is not valid"
        }
        guard quantity < Quantity(100_000_000) else { return "Order size \(quantity) is too large" }
        for value in [order.limitPrice, order.auxPrice, order.limitPriceOffset, order.trailingPercent].compactMap({ $0 })
        where !value.isFinite || abs(value) >= 10_000_000 {
            return "Price \(value) is out of range"
        }
        guard ["BUY", "SELL", "SSHORT"].contains(order.action.uppercased()) else {
            return "Invalid action: \(order.action)"
        }
        let tif = order.timeInForce.uppercased()
        guard tif.isEmpty || ["DAY", "GTC", "IOC", "GTD"].contains(tif) else {
            return "Time in force \(order.timeInForce) is not supported by the simulator"
        }
        if tif == "GTD" {
            guard let goodTill = Timestamp(compactUTCText: order.goodTillDate) else {
                return "Good-till date '\(order.goodTillDate)' is not valid: expected yyyyMMdd-HH:mm:ss (UTC)"
            }
            guard goodTill > now else { return "Good-till date \(order.goodTillDate) is in the past" }
        }
        let type = order.orderType.uppercased()
        if !order.algoStrategy.isEmpty {
            guard order.algoStrategy.lowercased() == "adaptive" else {
                return "Algo \(order.algoStrategy) is not supported by the simulator"
            }
            guard type == "MKT" || type == "LMT" else { return "The Adaptive algo works only MKT and LMT orders" }
            let priority = order.algoParams.first { $0.tag == "adaptivePriority" }?.value ?? "Normal"
            guard AdaptivePriority(name: priority) != nil else {
                return "Adaptive priority \(priority) is not valid: use Urgent, Normal or Patient"
            }
        }
        // Each price against the increment at that price (the instrument's market rule).
        let ticks = ticks(of: instrument)
        func offTick(_ value: Double?) -> Bool {
            guard let value else { return false }
            return !Price(approximately: value).isOnTick(ticks)
        }
        // A stock's limit and stop prices are positive (TWS refuses 0 and negative ones).
        func notPositive(_ value: Double?) -> String? {
            guard let value, value <= 0 else { return nil }
            return "The price \(value) is not valid: it must be positive"
        }
        switch type {
        case "MKT": break
        case "LMT":
            guard order.limitPrice != nil else { return "Limit price is missing" }
            if let reason = notPositive(order.limitPrice) { return reason }
        case "STP":
            guard order.auxPrice != nil else { return "Stop price is missing" }
            if let reason = notPositive(order.auxPrice) { return reason }
        case "STP LMT":
            guard order.auxPrice != nil, order.limitPrice != nil else { return "Stop or limit price is missing" }
            if let reason = notPositive(order.auxPrice) ?? notPositive(order.limitPrice) { return reason }
        case "TRAIL", "TRAIL LIMIT":
            guard order.auxPrice != nil || order.trailingPercent != nil else {
                return "Trailing amount or percent is missing"
            }
        case "MIDPRICE":
            // IB's MIDPRICE: US stocks only (all the simulator has); lmtPrice is an optional price cap (0: none, as TWS
            // echoes an unset one and a client modifying from the echo sends it back).
            if let reason = notPositive(order.limitPrice == 0 ? nil : order.limitPrice) { return reason }
        default:
            return "Order type \(order.orderType) is not supported by the simulator"
        }
        if type != "TRAIL" && type != "TRAIL LIMIT", offTick(order.limitPrice) || offTick(order.auxPrice) {
            return Self.offTickText
        }
        return nil
    }

    /// Why IB refuses an order's size for its contract: a future in part contracts, a currency order above
    /// IDEALPRO's maximum (`CurrencyPair.idealproSizes`). `nil` when the size goes.
    func contractSizeRefusal(_ instrument: SimulatedInstrument, quantity: Quantity) -> String? {
        switch instrument.kind {
        case .future:
            guard quantity.units % FixedPoint.scale != 0 else { return nil }
            return "Order size \(quantity) is not valid: a futures order is in whole contracts"
        case let .forex(pair):
            guard let sizes = pair.idealproSizes, sizes.maximum > 0, quantity > Quantity(sizes.maximum) else { return nil }
            return "Order size \(quantity) \(pair.base) exceeds the IdealPro maximum of \(sizes.maximum) \(pair.base)"
        case .stock:
            return nil
        }
    }

    /// TWS's 399 warning for a currency order below IDEALPRO's minimum, which it routes as an odd lot (to IDEAL, at
    /// wider prices in the market; the simulator fills it at its quote); `nil` for any other order.
    func oddLotNote(_ order: TWSOrder, instrument: SimulatedInstrument, quantity: Quantity) -> String? {
        guard case let .forex(pair) = instrument.kind, let sizes = pair.idealproSizes, quantity < Quantity(sizes.minimum)
        else { return nil }
        return "Order Message:\n\(order.action.uppercased()) \(quantity) \(pair) Forex\nWarning: your order size is below "
            + "the \(pair.base) \(sizes.minimum) IdealPro minimum and will be routed as an odd lot order."
    }

    /// Why the account cannot carry the order: the initial margin (`MarginRates`: 50 % for a stock) of what it adds
    /// to the position must be available. `nil` when it can.
    func buyingPowerShortfall(
        _ order: TWSOrder, instrument: SimulatedInstrument, quantity: Quantity, account code: String
    ) -> String? {
        let account = accounts[bookIndex(code)]
        let held = account.holdings[instrument.id]?.quantity.doubleValue ?? 0
        let signed = (order.action.uppercased() == "BUY" ? 1.0 : -1.0) * quantity.doubleValue
        let increase = max(0, abs(held + signed) - abs(held))
        if increase > 0 {
            let quote = QuoteModel.top(instrument, at: now)
            // A price of 0 is TWS's echo of an unset one (a client modifying from the echo sends it back): no price.
            let positive = { (value: Double?) in value.flatMap { $0 > 0 ? $0 : nil } }
            let reference = positive(order.limitPrice) ?? quote?.ask.doubleValue ?? positive(order.auxPrice) ?? 0
            let margin = increase * reference * instrument.multiplier * MarginRates(instrument.kind).initial
            let rates = baseRates()
            let valuation = account.valuation(marks: marks(), rates: rates)
            let base = account.baseCurrency
            let inBase = margin * baseRate(of: instrument.kind, in: rates)
            if inBase > valuation.availableFunds {
                return String(format: "YOUR ORDER IS NOT ACCEPTED. IN ORDER TO OBTAIN THE DESIRED POSITION YOUR "
                    + "EQUITY WITH LOAN VALUE [%.2f \(base)] MUST EXCEED THE INITIAL MARGIN [%.2f \(base)] (insufficient "
                    + "buying power)", valuation.netLiquidation, inBase + valuation.initialMargin)
            }
        }
        return nil
    }

    /// The engine's order type for a wire order (trailing percents of TRAIL LIMIT become amounts at today's price).
    func engineType(_ order: TWSOrder, instrument: SimulatedInstrument) -> OrderType {
        func price(_ v: Double?) -> Price { Price(approximately: v ?? 0) }
        switch order.orderType.uppercased() {
        case "LMT": return .limit(price(order.limitPrice))
        case "MIDPRICE": return .midprice(cap: order.limitPrice.flatMap { $0 > 0 ? Price(approximately: $0) : nil })
        case "STP": return .stop(price(order.auxPrice))
        case "STP LMT": return .stopLimit(stop: price(order.auxPrice), limit: price(order.limitPrice))
        case "TRAIL":
            if let percent = order.trailingPercent { return .trailingPercent(percent) }
            return .trailingAmount(price(order.auxPrice))
        case "TRAIL LIMIT":
            var trail = price(order.auxPrice)
            if let percent = order.trailingPercent, let last = QuoteModel.top(instrument, at: now)?.last {
                trail = Price(approximately: last.doubleValue * percent / 100)
            }
            return .trailingLimit(trail: trail, limitOffset: price(order.limitPriceOffset ?? 0))
        default: return .market
        }
    }

    /// Hands a released order to the matching engine and reports it working; market orders fill at once.
    mutating func transmit(_ key: OrderKey) -> [GatewayAction] {
        guard var entry = orders[key] else { return [] }
        let instrument = data.instrument(entry.instrument)
        let side: Side = entry.wire.action.uppercased() == "BUY" ? .buy : .sell
        let tif = TimeInForce(rawValue: entry.wire.timeInForce.uppercased()) ?? .day
        var request = OrderRequest(
            instrument: entry.instrument, side: side, quantity: entry.quantity,
            type: engineType(entry.wire, instrument: instrument), timeInForce: tif)
        let execution = OrderExecution(
            algo: entry.wire.algoStrategy.caseInsensitiveCompare("Adaptive") == .orderedSame ? .adaptive(.normal) : nil,
            outsideRegularHours: entry.wire.outsideRTH, includeOvernight: entry.wire.includeOvernight,
            goodTill: tif == .gtd ? Timestamp(compactUTCText: entry.wire.goodTillDate) : nil)
        if !execution.isPlain || tif == .gtd { request.execution = execution }
        request.ocaGroup = entry.wire.ocaGroup.isEmpty ? nil : "\(key.clientID)/\(entry.wire.ocaGroup)"
        var model = TradingModel.Order(
            id: entry.engineID, clientOrderID: ClientOrderID("\(key.clientID).\(key.orderID)"), request: request,
            createdAt: now)
        if entry.wire.parentID != 0, let parent = orders[OrderKey(clientID: key.clientID, orderID: entry.wire.parentID)] {
            model.parentID = parent.engineID
        }
        var reports: [ExecutionReport] = []
        engine.submit(model, at: now, account: bookIndex(entry.account), into: &reports)
        let waiting = model.parentID.map { parent in engine.workingOrderIDs.contains(parent) } ?? false
        let stopLike = request.isStopLike
        // Held for its session (e.g. a market order before the open) it is PreSubmitted, as at IB.
        let inSession = engine.config.sessions.map { rules in
            rules.session(at: now).map { rules.sessions(for: request.type, execution: request.execution).contains(.init($0.kind)) }
                ?? false
        } ?? true
        entry.status = waiting || stopLike || !inSession || !instrument.series.isTrading(at: now)
            ? "PreSubmitted" : "Submitted"
        orders[key] = entry
        var out = sendToClient(key.clientID, entry.openOrder())
        out += sendToClient(key.clientID, entry.orderStatus())
        out += process(reports)
        return out
    }

    /// Matches an instrument's working orders against the current quote (1 ns after now, the engine's minimum
    /// latency), if its session is open.
    mutating func matchNow(_ id: InstrumentID) -> [GatewayAction] {
        let instrument = data.instrument(id)
        // A halted book trades nothing: orders rest until the halt clears.
        guard halts[id] == nil, instrument.series.isTrading(at: now), let top = QuoteModel.top(instrument, at: now)
        else { return [] }
        var quote = top.engineQuote
        quote.timestamp = Timestamp(nanoseconds: now.nanoseconds + 1)
        var reports: [ExecutionReport] = []
        let funded = setFunds(for: id)
        engine.process(quote: quote, for: id, liquidity: top.liquidity, into: &reports)
        let cuts = funded ? engine.takeFundsCuts() : []
        engine.clearFunds()
        return process(reports, cuts: cuts)
    }

    /// Gives the matching engine each account's buying power (`SimulationConfig.buyingPower`, the account kind the
    /// run's configuration names) before it fills an instrument's orders; `false` without a rule or orders.
    mutating func setFunds(for id: InstrumentID) -> Bool {
        guard let rule = engine.config.buyingPower, engine.hasWorkingOrders(for: id) else { return false }
        let rates = baseRates()
        let marks = marks()
        let rate = baseRate(of: data.instrument(id).kind, in: rates)
        for (index, book) in accounts.enumerated() {
            let valuation = book.valuation(marks: marks, rates: rates)
            engine.setFunds(FundsAtFill(
                rule: rule, cash: valuation.cash, equity: valuation.netLiquidation,
                grossExposure: valuation.grossPositionValue, held: book.holdings[id]?.quantity.doubleValue ?? 0,
                rate: rate), account: index)
        }
        return true
    }

    // MARK: - Modify and cancel

    mutating func modifyOrder(_ existing: GatewayOrder, contract: TWSContract, order: TWSOrder) -> [GatewayAction] {
        let key = existing.key
        func reject(_ code: Int, _ text: String) -> [GatewayAction] {
            sendToClient(key.clientID, .error(TWSErrorMessage(requestID: key.orderID, code: code, message: text)))
        }
        guard !existing.isTerminal else { return reject(104, "Can't modify a filled order") }
        let instrument = data.instrument(existing.instrument)
        guard let quantity = Self.orderSize(order) else {
            let size = order.totalQuantity.map { "\($0)" } ?? ""
            return reject(201, TWSErrorText.rejected("Order size \(size) is not valid"))
        }
        guard order.orderType.uppercased() == existing.wire.orderType.uppercased(),
            order.action.uppercased() == existing.wire.action.uppercased()
        else { return reject(321, "Error validating request:-'modify' : cause - order type or action changed") }
        guard order.account.isEmpty || order.account == existing.account else {
            return reject(422, "The account and clearing attributes on this order may not be changed")
        }
        let open = max(quantity - existing.filled, .zero)
        if let reason = validate(order, instrument: instrument, quantity: open)
            ?? contractSizeRefusal(instrument, quantity: quantity)
            ?? buyingPowerShortfall(order, instrument: instrument, quantity: open, account: existing.account)
        {
            return reason == Self.offTickText ? reject(110, reason) : reject(201, TWSErrorText.rejected(reason))
        }
        var updated = existing
        var wire = order
        wire.ocaGroup = existing.wire.ocaGroup
        wire.ocaType = existing.wire.ocaType
        if wire.timeInForce.isEmpty { wire.timeInForce = existing.wire.timeInForce }
        updated.wire = wire
        updated.quantity = quantity
        if existing.isHeld {
            updated.isHeld = !order.transmit
            orders[key] = updated
            return order.transmit ? transmit(key) + matchNow(existing.instrument) : []
        }
        var reports: [ExecutionReport] = []
        engine.modify(
            existing.engineID, OrderModification(quantity: quantity, type: engineType(order, instrument: instrument)),
            context: (filled: existing.filled, now: now), into: &reports)
        if reports.contains(where: { if case .modifyRejected = $0 { return true } else { return false } }) {
            return reject(201, TWSErrorText.rejected("the modification was refused by the matching engine"))
        }
        orders[key] = updated
        var out = sendToClient(key.clientID, updated.openOrder())
        out += sendToClient(key.clientID, updated.orderStatus())
        out += matchNow(existing.instrument)
        return out
    }

    mutating func cancelOrder(_ key: OrderKey, connection: ConnectionID) -> [GatewayAction] {
        guard let entry = orders[key], !entry.isTerminal else {
            let code = orders[key] == nil ? 10147 : 161
            let text = orders[key] == nil ? "OrderId \(key.orderID) that needs to be cancelled is not found."
                : "Cancel attempted when order is not in a cancellable state.  Order permId =\(orders[key]?.permID ?? 0)"
            return [.send(connection, .error(TWSErrorMessage(requestID: key.orderID, code: code, message: text)))]
        }
        if entry.isHeld || entry.status == "PendingSubmit" || entry.inactivity != nil {
            // Not in the market (held, not yet transmitted, or Inactive): nothing to take out of it.
            return finish(key, status: "Cancelled", notice: true)
        }
        var reports: [ExecutionReport] = []
        engine.cancel(entry.engineID, at: now, into: &reports)
        return process(reports)
    }

    mutating func globalCancel() -> [GatewayAction] {
        var out: [GatewayAction] = []
        for key in orders.values.filter({ !$0.isTerminal }).sorted(by: { $0.permID < $1.permID }).map(\.key) {
            guard let entry = orders[key], !entry.isTerminal else { continue }
            if let connection = connections(ofClient: key.clientID).first {
                out += cancelOrder(key, connection: connection)
            } else {
                var reports: [ExecutionReport] = []
                engine.cancel(entry.engineID, at: now, into: &reports)
                out += process(reports)
            }
        }
        return out
    }

    /// Marks an order terminal and tells its client (orderStatus, then 202 for cancels the client asked for).
    mutating func finish(_ key: OrderKey, status: String, notice: Bool) -> [GatewayAction] {
        guard var entry = orders[key] else { return [] }
        entry.status = status
        entry.isHeld = false
        entry.inactivity = nil
        entry.completedAt = now
        orders[key] = entry
        var out = sendToClient(key.clientID, entry.orderStatus())
        if notice {
            out += sendToClient(key.clientID, .error(TWSErrorMessage(
                requestID: key.orderID, code: 202, message: TWSErrorText.orderCanceled)))
        }
        return out
    }

    /// Messages for every connection of a clientId.
    func sendToClient(_ clientID: Int, _ response: TWSResponse) -> [GatewayAction] {
        connections(ofClient: clientID).map { .send($0, response) }
    }

    /// Last prices of every instrument with a position in any account.
    func marks() -> [InstrumentID: Double] {
        var result: [InstrumentID: Double] = [:]
        for book in accounts {
            for id in book.holdings.keys where result[id] == nil {
                if let q = QuoteModel.top(data.instrument(id), at: now) { result[id] = q.last.doubleValue }
            }
        }
        return result
    }
}

extension GatewayState {
    /// Whether the client on `connection` has an order `orderID` here (a placeOrder for it is then a modification).
    package func holdsOrder(_ orderID: Int, from connection: ConnectionID) -> Bool {
        guard let clientID = sessions[connection]?.clientID else { return false }
        return orders[OrderKey(clientID: clientID, orderID: orderID)] != nil
    }
}
