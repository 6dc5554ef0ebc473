import TWSProtocol
import TradingEngine
import TradingModel

/// A contract's price increments as `ibtrader order` and `modify` use them.
public struct ContractTicks: Sendable, Equatable {
    /// The market rule whose table `table` is; `nil`: the contract's minimum tick.
    public var rule: Int?
    /// The increments prices are checked against (a tick of zero: the contract reports none, nothing is checked).
    public var table: TickTable

    /// Creates ticks.
    public init(rule: Int?, table: TickTable) {
        self.rule = rule
        self.table = table
    }

    /// For a limit priced from a quote and a reprice's step: `table`, or a cent when the contract reports no tick.
    public var pricing: TickTable {
        table.largestIncrement.units > 0 ? table : TickTable(Price(units: 1_000_000))
    }

    /// Why one of the prices is refused (TWS would reject it with error 110), naming the two nearest prices that are
    /// on the tick; `nil` when all are on it. Each price is checked against the increment at that price (a trail
    /// amount against the largest increment).
    public func offTickMessage(_ types: [OrderType], symbol: String) -> String? {
        for type in types {
            guard let price = type.offTickPrices(table).first else { continue }
            let isOffset: Bool
            switch type {
            case .trailingAmount, .trailingLimit: isOffset = true
            default: isOffset = false
            }
            let tick = isOffset ? table.largestIncrement : table.increment(at: price)
            let down = isOffset ? price.roundedDown(toTick: tick) : price.roundedDown(to: table)
            let up = isOffset ? price.roundedUp(toTick: tick) : price.roundedUp(to: table)
            let rule = self.rule.map { "its tick at \(price) is \(tick) (market rule \($0): \(table))" }
            return "\(price) is not a price \(symbol) trades at: \(rule ?? "its minimum tick is \(tick)"); use \(down) or \(up)"
        }
        return nil
    }
}

extension ManualOrderTicket {
    /// The ticket with its limit (or MIDPRICE cap) set from `reference`, the quote `limitFromQuote` names: its
    /// offset towards paying up, on the tick in the protective direction.
    /// - Returns: the ticket and a line saying how the price was made (the ticket itself without `limitFromQuote`).
    public func priced(from reference: Price, ticks: TickTable) -> (ManualOrderTicket, String?) {
        guard let pricing = limitFromQuote else { return (self, nil) }
        // Ticks are the increment at the reference price (a $0.50 stock's is 0.0001 under IB's US-stock rule).
        let tick = ticks.increment(at: reference)
        let distance = pricing.offset.units(at: reference, tick: tick)
        let raw = Price(units: max(side == .buy ? reference.units + distance : reference.units - distance, tick.units))
        var priced = self
        switch type {
        case .midprice: priced.type = OrderType.midprice(cap: raw).onTick(ticks, side: side)
        default: priced.type = OrderType.limit(raw).onTick(ticks, side: side)
        }
        priced.limitFromQuote = nil
        return (priced, "priced \(priced.type): \(pricing.offset) from the \(pricing.from.rawValue) \(reference)")
    }
}

/// The prices of a snapshot a manual order reads (`ibtrader order`'s quote pricing and risk check).
public enum SnapshotPrice {
    /// The bid, ask or last (live, else delayed; the last falls back to the close); `nil` without one.
    public static func quote(_ prices: [TWSTickType: Double], from: ExecutionStyle.PriceReference) -> Price? {
        let ticks: [TWSTickType] =
            switch from {
            case .bid: [.bid, TWSTickType(rawValue: 66)]
            case .ask: [.ask, TWSTickType(rawValue: 67)]
            case .last: [.last, .delayedLast, .close, .delayedClose]
            }
        for tick in ticks {
            if let value = prices[tick], value > 0, let price = Price(checkedApproximately: value) { return price }
        }
        return nil
    }
}
