import Foundation
import TradingEngine
import TradingModel

/// What `ibtrader order` was asked to send, before validation: the command line's values as text.
public struct ManualOrderArguments: Sendable, Hashable {
    /// `buy` or `sell`.
    public var side: String
    /// The instrument as the bot's configuration names it (`AAPL`, `ES 2026-12`, `ESZ26`, `EUR.USD`, `EURUSD`) or
    /// as IB's local symbol of a contract month (`ESZ6`, `MESM6`).
    public var symbol: String
    /// The quantity (shares, contracts, or units of a pair's base currency).
    public var quantity: String
    /// `MKT`, `LMT`, `STP`, `STP_LMT` (or `STP LMT`), `TRAIL`, `MIDPRICE` (`--limit`: its cap).
    public var type: String = "MKT"
    /// `--limit`.
    public var limit: String?
    /// `--stop`.
    public var stop: String?
    /// `--trail-amount`.
    public var trailAmount: String?
    /// `--trail-percent`.
    public var trailPercent: String?
    /// `--take-profit` (bracket).
    public var takeProfit: String?
    /// `--stop-loss` (bracket).
    public var stopLoss: String?
    /// `DAY`, `GTC`, `IOC` or `GTD`.
    public var timeInForce: String = "DAY"
    /// `--good-till` (GTD): `2026-11-24T21:00:00Z`, `2026-11-24 21:00:00` or `20261124-21:00:00`, UTC.
    public var goodTill: String?
    /// `--outside-rth`.
    public var outsideRegularHours: Bool = false
    /// `--overnight`: also IB's overnight session (server version 189 and later).
    public var includeOvernight = false
    /// `--algo` (`adaptive`).
    public var algo: String?
    /// `--priority` (Adaptive: `urgent`, `normal`, `patient`).
    public var priority: String?
    /// `--limit-offset` (`1 tick`, `5 bps`): a LMT priced from a quote instead of `--limit` (MIDPRICE: its cap).
    public var limitOffset: String?
    /// `--limit-from` (`last`, `bid`, `ask`): the quote `--limit-offset` is measured from.
    public var limitFrom: String?
    /// `--order-timeout` (already read as a duration): how long the entry may work before `--on-timeout`.
    public var orderTimeout: Duration?
    /// `--on-timeout` (`cancel`, `reprice`, `market`).
    public var onTimeout: String?
    /// `--reprices` (with `--on-timeout reprice`).
    public var reprices: String?
    /// `--reprice-step` (`1 tick`, `2 bps`).
    public var repriceStep: String?
    /// `--after-reprices` (`cancel`, `market`).
    public var afterReprices: String?

    /// Creates arguments; the options not given are unset.
    public init(
        side: String, symbol: String, quantity: String, type: String = "MKT", limit: String? = nil,
        stop: String? = nil, trailAmount: String? = nil, trailPercent: String? = nil, takeProfit: String? = nil,
        stopLoss: String? = nil, timeInForce: String = "DAY", goodTill: String? = nil,
        outsideRegularHours: Bool = false, algo: String? = nil, priority: String? = nil
    ) {
        (self.side, self.symbol, self.quantity, self.type, self.limit, self.stop) = (side, symbol, quantity, type, limit, stop)
        (self.trailAmount, self.trailPercent, self.takeProfit, self.stopLoss) = (trailAmount, trailPercent, takeProfit, stopLoss)
        (self.timeInForce, self.goodTill, self.outsideRegularHours) = (timeInForce, goodTill, outsideRegularHours)
        (self.algo, self.priority) = (algo, priority)
    }
}

/// Why the arguments do not make an order. Each message names the option to fix.
public struct ManualOrderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A validated manual order: an entry, and for a bracket its stop-loss and take-profit.
///
/// ```swift
/// var arguments = ManualOrderArguments(side: "buy", symbol: "AAPL", quantity: "10")
/// arguments.type = "LMT"
/// arguments.limit = "150.25"
/// let ticket = try ManualOrderTicket(arguments, at: now)   // LMT 150.25 DAY
/// ```
public struct ManualOrderTicket: Sendable, Hashable {
    /// The instrument's one name, as the bot's universe writes it (`InstrumentKind.canonicalName(of:)`): `AAPL`,
    /// `ES 2026-12` (for `ESZ26`, `ESZ6`), `EUR.USD` (for `EURUSD`).
    public var symbol: Symbol
    /// IB's local symbol when the order named the contract by it (`MESM6`): the contract is asked for by it, as TWS
    /// does; `nil` otherwise.
    public var localSymbol: String?
    /// Buy or sell.
    public var side: Side
    /// Positive quantity.
    public var quantity: Quantity
    /// Pricing of the entry.
    public var type: OrderType
    /// Lifetime of the entry (the bracket's children are GTC, as the engine's are).
    public var timeInForce: TimeInForce
    /// Bracket take-profit limit price.
    public var takeProfit: Price?
    /// Bracket stop-loss stop price.
    public var stopLoss: Price?
    /// Algo, outside-RTH and GTD expiry of the entry (`nil`: a plain order). A bracket's children trade outside
    /// regular hours too when the entry does.
    public var execution: OrderExecution?
    /// A LMT's limit (or a MIDPRICE's cap) set at sending from a quote: `offset` from `from`, towards paying up, on
    /// the tick in the protective direction. `type` holds a placeholder price until then.
    public var limitFromQuote: LimitFromQuote?
    /// How the entry is worked once acknowledged (`--order-timeout`, `--on-timeout`, …): the command stays attached
    /// and cancels, reprices or sends the rest at market at each timeout, as the bot's execution styles do.
    /// `nil`: it is left to work at the broker.
    public var work: ExecutionStyle?

    /// `offset` from a quote's `from` price.
    public struct LimitFromQuote: Sendable, Hashable {
        public var offset: ExecutionStyle.PriceOffset
        public var from: ExecutionStyle.PriceReference
    }

    /// `true` with a take-profit and a stop-loss.
    public var isBracket: Bool { takeProfit != nil && stopLoss != nil }

    /// Validates the arguments.
    /// - Parameters:
    ///   - arguments: the command line's values.
    ///   - now: the session's time, which a local symbol's one-digit year is read against (`FutureLocalSymbol`).
    /// - Throws: `ManualOrderError` naming the option at fault.
    public init(_ arguments: ManualOrderArguments, at now: Timestamp) throws(ManualOrderError) {
        switch arguments.side.lowercased() {
        case "buy": side = .buy
        case "sell": side = .sell
        default: throw ManualOrderError("the side must be buy or sell, got '\(arguments.side)'")
        }
        (symbol, localSymbol) = try Self.instrument(arguments.symbol, at: now)
        guard let quantity = Quantity(arguments.quantity), quantity.units > 0 else {
            throw ManualOrderError("the quantity must be a positive number, got '\(arguments.quantity)'")
        }
        self.quantity = quantity
        switch arguments.timeInForce.uppercased() {
        case "DAY": timeInForce = .day
        case "GTC": timeInForce = .gtc
        case "IOC": timeInForce = .ioc
        case "GTD": timeInForce = .gtd
        default: throw ManualOrderError("--tif must be DAY, GTC, IOC or GTD, got '\(arguments.timeInForce)'")
        }
        (type, limitFromQuote) = try Self.pricing(arguments)
        takeProfit = try Self.price(arguments.takeProfit, "--take-profit")
        stopLoss = try Self.price(arguments.stopLoss, "--stop-loss")
        let execution = try Self.execution(arguments, type: type, timeInForce: timeInForce)
        self.execution = execution.isPlain ? nil : execution
        try checkBracket()
        if isBracket, timeInForce == .ioc {
            throw ManualOrderError("a bracket's entry cannot be IOC: its protective orders would outlive it")
        }
        work = try Self.work(arguments, type: type, timeInForce: timeInForce, bracket: isBracket)
    }

    /// The instrument's one name and the local symbol it was given by: a stock, a contract month (`ES 2026-12`,
    /// `ESZ26`, `ESZ2026`, IB's `ESZ6`) or a currency pair (`EUR.USD`, `EURUSD`); a rolled future (`ES continuous`) is
    /// the bot's, not an order's.
    static func instrument(_ text: String, at now: Timestamp) throws(ManualOrderError) -> (Symbol, String?) {
        let name = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ").uppercased()
        guard !name.isEmpty else { throw ManualOrderError("the symbol must not be empty") }
        let kind: InstrumentKind
        do { kind = try InstrumentKind.checked(name, at: now) } catch { throw ManualOrderError(error.description) }
        switch kind {
        case .stock:
            guard !name.contains(" ") else {
                throw ManualOrderError(
                    "the symbol must be one word (a stock), a contract month (ES 2026-12, ESZ6) or a currency pair "
                        + "(EUR.USD), got '\(text)'")
            }
            return (Symbol(name), nil)
        case let .future(future):
            guard future.month != nil else {
                throw ManualOrderError(
                    "'\(text)' is the bot's rolled front contract: a manual order names its contract month "
                        + "(\(future.spec.root) 2026-12, or IB's local symbol such as \(future.spec.root)Z6)")
            }
            return (Symbol(future.description), FutureLocalSymbol(name).map { _ in name })
        case let .forex(pair):
            return (Symbol(pair.description), nil)
        }
    }

    /// The ticket with its local symbol read again at `now` (the gateway's time: a one-digit year names the nearest
    /// contract month not yet expired then); unchanged without a local symbol.
    /// - Throws: `ManualOrderError` as the first reading would.
    public func readingLocalSymbol(at now: Timestamp) throws(ManualOrderError) -> ManualOrderTicket {
        guard let localSymbol else { return self }
        var ticket = self
        (ticket.symbol, ticket.localSymbol) = try Self.instrument(localSymbol, at: now)
        return ticket
    }

    /// What the instrument is (a stock, a contract month, a currency pair): its multiplier, its tick, its sizes.
    public var kind: InstrumentKind { InstrumentKind(symbol: symbol) }

    /// The instrument as the order named it: IB's local symbol when given (`MESM6`), else its one name.
    public var writtenName: String { localSymbol ?? symbol.rawValue }

    /// The name in a default orderRef key (no spaces): `AAPL`, `MESM6`, `ES2026-12`, `EUR.USD`.
    public var referenceName: String { writtenName.filter { $0 != " " } }

    /// The pricing, with `--limit-offset` / `--limit-from` for a LMT priced from a quote (or a MIDPRICE's cap).
    private static func pricing(_ a: ManualOrderArguments) throws(ManualOrderError) -> (OrderType, LimitFromQuote?) {
        guard let text = a.limitOffset else {
            if a.limitFrom != nil { throw ManualOrderError("--limit-from applies only with --limit-offset") }
            return (try orderType(a), nil)
        }
        guard let offset = ExecutionStyle.PriceOffset(text: text) else {
            throw ManualOrderError("--limit-offset must be N ticks or N bps (e.g. 1 tick, -2 ticks, 5 bps), got '\(text)'")
        }
        var from = ExecutionStyle.PriceReference.last
        if let name = a.limitFrom {
            guard let chosen = ExecutionStyle.PriceReference(rawValue: name.lowercased()) else {
                throw ManualOrderError("--limit-from must be last, bid or ask, got '\(name)'")
            }
            from = chosen
        }
        let name = a.type.uppercased()
        guard name == "LMT" || name == "MIDPRICE" else {
            throw ManualOrderError("--limit-offset prices a LMT (or caps a MIDPRICE) order, not a \(name) one")
        }
        if a.limit != nil { throw ManualOrderError("--limit and --limit-offset are exclusive: give one") }
        var priced = a
        priced.limit = "1"  // a placeholder: the price is set from the quote when the order is sent
        return (try orderType(priced), LimitFromQuote(offset: offset, from: from))
    }

    /// The working plan: `--order-timeout` and what happens at it; options that do not fit are refused.
    private static func work(
        _ a: ManualOrderArguments, type: OrderType, timeInForce: TimeInForce, bracket: Bool
    ) throws(ManualOrderError) -> ExecutionStyle? {
        guard let timeout = a.orderTimeout else {
            for (option, value) in [
                ("--on-timeout", a.onTimeout), ("--reprices", a.reprices), ("--reprice-step", a.repriceStep),
                ("--after-reprices", a.afterReprices),
            ] where value != nil {
                throw ManualOrderError("\(option) needs --order-timeout DURATION (how long the order may work)")
            }
            return nil
        }
        guard timeout >= .seconds(1), timeout <= .seconds(86_400) else {
            throw ManualOrderError("--order-timeout must be from 1s to 24h")
        }
        if bracket {
            throw ManualOrderError(
                "--order-timeout works single orders, not brackets (cancelling a partly filled entry would cancel the "
                    + "protection of what filled)")
        }
        if timeInForce == .ioc { throw ManualOrderError("an IOC order is cancelled at once when it does not fill: no --order-timeout") }
        var style = ExecutionStyle(timeout: TimeSpan(nanoseconds: timeout.nanosecondsValue))
        if let name = a.onTimeout {
            guard let action = ExecutionStyle.TimeoutAction(rawValue: name.lowercased()) else {
                throw ManualOrderError("--on-timeout must be cancel, reprice or market, got '\(name)'")
            }
            style.onTimeout = action
        }
        guard style.onTimeout == .reprice else {
            for (option, value) in [("--reprices", a.reprices), ("--reprice-step", a.repriceStep), ("--after-reprices", a.afterReprices)]
            where value != nil {
                throw ManualOrderError("\(option) applies only with --on-timeout reprice")
            }
            return style
        }
        guard case .limit = type else { throw ManualOrderError("--on-timeout reprice moves a limit: it needs --type LMT") }
        style.reprices = 2
        if let text = a.reprices {
            guard let n = Int(text), (1...20).contains(n) else {
                throw ManualOrderError("--reprices must be an integer from 1 to 20, got '\(text)'")
            }
            style.reprices = n
        }
        if let text = a.repriceStep {
            guard let step = ExecutionStyle.PriceOffset(text: text), step.isPositive else {
                throw ManualOrderError("--reprice-step must be N ticks or N bps above zero (e.g. 1 tick, 2 bps), got '\(text)'")
            }
            style.repriceStep = step
        }
        if let name = a.afterReprices {
            guard let action = ExecutionStyle.TimeoutAction(rawValue: name.lowercased()), action != .reprice else {
                throw ManualOrderError("--after-reprices must be cancel or market, got '\(name)'")
            }
            style.afterReprices = action
        }
        return style
    }

    /// The algo, outside-RTH and GTD terms; options that do not fit together are refused.
    private static func execution(
        _ a: ManualOrderArguments, type: OrderType, timeInForce: TimeInForce
    ) throws(ManualOrderError) -> OrderExecution {
        var execution = OrderExecution(outsideRegularHours: a.outsideRegularHours, includeOvernight: a.includeOvernight)
        switch (timeInForce, a.goodTill) {
        case (.gtd, nil): throw ManualOrderError("--tif GTD needs --good-till TIME (UTC, e.g. 2026-11-24T21:00:00Z)")
        case (.gtd, let text?):
            guard let time = goodTillTime(text) else {
                throw ManualOrderError(
                    "--good-till must be a UTC time like 2026-11-24T21:00:00Z or 20261124-21:00:00, got '\(text)'")
            }
            execution.goodTill = time
        case (_, _?): throw ManualOrderError("--good-till applies only with --tif GTD")
        case (_, nil): break
        }
        switch a.algo?.lowercased() {
        case nil:
            if a.priority != nil { throw ManualOrderError("--priority applies only with --algo adaptive") }
        case "adaptive":
            switch type {
            case .market, .limit: break
            default: throw ManualOrderError("--algo adaptive works only MKT and LMT orders")
            }
            var priority = AdaptivePriority.normal
            if let name = a.priority {
                guard let chosen = AdaptivePriority(name: name) else {
                    throw ManualOrderError("--priority must be urgent, normal or patient, got '\(name)'")
                }
                priority = chosen
            }
            execution.algo = .adaptive(priority)
        case let other?:
            throw ManualOrderError("--algo must be adaptive, got '\(other)'")
        }
        return execution
    }

    /// A UTC time written `2026-11-24T21:00:00Z`, `2026-11-24 21:00:00` or `20261124-21:00:00`.
    static func goodTillTime(_ text: String) -> Timestamp? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let time = Timestamp(compactUTCText: trimmed) { return time }
        var iso = trimmed
        if iso.hasSuffix("Z") { iso.removeLast() }
        let parts = iso.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 2, parts[0].count == 10, parts[1].count == 8 else { return nil }
        let date = parts[0].split(separator: "-")
        guard date.count == 3 else { return nil }
        return Timestamp(compactUTCText: "\(date.joined())-\(parts[1])")
    }

    /// The entry's pricing from `--type` and its price options; prices a type does not use are refused.
    private static func orderType(_ a: ManualOrderArguments) throws(ManualOrderError) -> OrderType {
        let name = a.type.uppercased().replacingOccurrences(of: " ", with: "_")
        let limit = try price(a.limit, "--limit")
        let stop = try price(a.stop, "--stop")
        let amount = try price(a.trailAmount, "--trail-amount")
        var percent: Double?
        if let text = a.trailPercent {
            guard let value = Double(text), value.isFinite, value > 0, value < 100 else {
                throw ManualOrderError("--trail-percent must be a number in (0, 100), got '\(text)'")
            }
            percent = value
        }
        func refuse(_ present: Bool, _ option: String) throws(ManualOrderError) {
            if present { throw ManualOrderError("\(option) does not apply to a \(name) order") }
        }
        switch name {
        case "MKT":
            try refuse(limit != nil, "--limit")
            try refuse(stop != nil, "--stop")
            try refuse(amount != nil || percent != nil, "--trail-amount/--trail-percent")
            return .market
        case "LMT":
            guard let limit else { throw ManualOrderError("a LMT order needs --limit PRICE") }
            try refuse(stop != nil, "--stop")
            try refuse(amount != nil || percent != nil, "--trail-amount/--trail-percent")
            return .limit(limit)
        case "STP":
            guard let stop else { throw ManualOrderError("a STP order needs --stop PRICE") }
            try refuse(limit != nil, "--limit")
            try refuse(amount != nil || percent != nil, "--trail-amount/--trail-percent")
            return .stop(stop)
        case "STP_LMT":
            guard let stop, let limit else { throw ManualOrderError("a STP_LMT order needs --stop PRICE and --limit PRICE") }
            try refuse(amount != nil || percent != nil, "--trail-amount/--trail-percent")
            return .stopLimit(stop: stop, limit: limit)
        case "MIDPRICE":
            // IB works it at the quote's midpoint; --limit is its price cap.
            try refuse(stop != nil, "--stop")
            try refuse(amount != nil || percent != nil, "--trail-amount/--trail-percent")
            return .midprice(cap: limit)
        case "TRAIL":
            try refuse(limit != nil, "--limit")
            try refuse(stop != nil, "--stop")
            switch (amount, percent) {
            case (let amount?, nil): return .trailingAmount(amount)
            case (nil, let percent?): return .trailingPercent(percent)
            case (nil, nil): throw ManualOrderError("a TRAIL order needs --trail-amount A or --trail-percent P")
            default: throw ManualOrderError("--trail-amount and --trail-percent are exclusive: give one")
            }
        default:
            throw ManualOrderError("--type must be MKT, LMT, STP, STP_LMT, TRAIL or MIDPRICE, got '\(a.type)'")
        }
    }

    private static func price(_ text: String?, _ option: String) throws(ManualOrderError) -> Price? {
        guard let text else { return nil }
        guard let value = Price(text), value.units > 0 else {
            throw ManualOrderError("\(option) must be a positive price, got '\(text)'")
        }
        return value
    }

    /// A bracket needs both legs, on the right sides of the entry.
    private func checkBracket() throws(ManualOrderError) {
        switch (takeProfit, stopLoss) {
        case (nil, nil): return
        case (_?, nil), (nil, _?):
            throw ManualOrderError("a bracket needs both --take-profit PRICE and --stop-loss PRICE")
        case (let target?, let stop?):
            switch type {
            case .market, .limit, .stop, .stopLimit: break
            default: throw ManualOrderError("a bracket's entry must be MKT, LMT, STP or STP_LMT")
            }
            let buying = side == .buy
            guard buying ? target > stop : target < stop else {
                throw ManualOrderError(
                    "--take-profit \(target) must be \(buying ? "above" : "below") --stop-loss \(stop) for a \(side.rawValue.lowercased())")
            }
            if case .limit(let entry) = type, buying ? !(stop < entry && entry < target) : !(target < entry && entry < stop) {
                throw ManualOrderError("the limit \(entry) must lie between --stop-loss \(stop) and --take-profit \(target)")
            }
        }
    }

    /// A single-order ticket from terms already validated (an order as `ibtrader modify` would leave it).
    /// - Parameters:
    ///   - symbol: the instrument's one name (`AAPL`, `ES 2026-12`, `EUR.USD`).
    ///   - request: side, quantity, pricing and time in force (its instrument is not used).
    public init(symbol: Symbol, request: OrderRequest) {
        self.symbol = symbol
        side = request.side
        quantity = request.quantity
        type = request.type
        timeInForce = request.timeInForce
        execution = request.execution
    }

    /// The entry request for an instrument.
    public func request(for instrument: InstrumentID) -> OrderRequest {
        var request = OrderRequest(
            instrument: instrument, side: side, quantity: quantity, type: type, timeInForce: timeInForce)
        request.execution = execution
        return request
    }

    /// The orders to hand to the broker: the entry under `clientOrderID`, then (bracket) the stop-loss `-SL` and
    /// take-profit `-TP` children, each already `submitted`, ids from `firstID` on.
    /// - Parameters:
    ///   - instrument: the instrument id in the broker's contract book.
    ///   - clientOrderID: the entry's stable key (its orderRef without the prefix).
    ///   - now: the creation time.
    public func orders(for instrument: InstrumentID, clientOrderID: ClientOrderID, at now: Timestamp) -> [Order] {
        var entry = Order(id: OrderID(1), clientOrderID: clientOrderID, request: request(for: instrument), createdAt: now)
        try? entry.lifecycle.apply(.submitted)
        guard isBracket else { return [entry] }
        let bracket = BracketOrder(entry: request(for: instrument), stopLoss: stopLoss, takeProfit: takeProfit)
        var result = [entry]
        for (k, child) in bracket.children.enumerated() {
            let suffix = k == 0 ? "SL" : "TP"
            var request = child
            if let execution, execution.outsideRegularHours || execution.includeOvernight {
                request.execution = OrderExecution(
                    outsideRegularHours: execution.outsideRegularHours, includeOvernight: execution.includeOvernight)
            }
            var order = Order(
                id: OrderID(Int64(k + 2)), clientOrderID: ClientOrderID("\(clientOrderID.rawValue)-\(suffix)"),
                request: request, createdAt: now)
            order.parentID = entry.id
            try? order.lifecycle.apply(.submitted)
            result.append(order)
        }
        return result
    }
}
