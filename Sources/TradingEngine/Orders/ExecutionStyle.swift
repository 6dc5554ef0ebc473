import TradingModel

/// How a strategy's entries are worked (`orders.entry`, `orders.timeout`, … in the config): the order type an entry is
/// sent as, and what happens when it has not filled in time. The same style runs in backtests and live
/// (`ExecutionStyled`), so a backtest of limit entries trades the way the bot will.
///
/// Only entries (orders that open or add to a position) are styled; exits and reversals keep the strategy's market
/// orders, so a position is never left waiting on a limit to get out. Orders other than styled entries get `timeout`
/// as a plain time limit (cancelled when it runs out), as `orders.timeout` always did.
public struct ExecutionStyle: Hashable, Sendable, Codable {
    /// The order type an entry is sent as.
    public enum Pricing: Hashable, Sendable, Codable {
        /// A market order (the strategy's own choice).
        case market
        /// A limit at `offset` from a reference price; a positive offset pays up (a buy above, a sell below the
        /// reference), a negative one waits for a better price.
        case limit(offset: PriceOffset, from: PriceReference)
        /// A market order worked by IB's Adaptive algo (a backtest fills it as a market order, with
        /// `backtest.adaptiveSlippage`).
        case adaptive(AdaptivePriority)
        /// IB's MIDPRICE order, worked at the quote's midpoint, capped at `cap` from `from` when a cap is given (a
        /// buy pays at most, a sell takes at least, that price). A backtest fills it at the next bar's open, without
        /// the spread, when the open is within the cap (else it works like a limit at the cap). Both are optional so
        /// a session log written before caps still reads.
        case midprice(cap: PriceOffset? = nil, from: PriceReference? = nil)
        /// A stop order `offset` beyond the last close in the trade's direction (a buy stop above it, a sell stop
        /// below): the entry waits for the move to confirm itself (a breakout).
        case stop(offset: PriceOffset)
        /// A trailing stop entry: a buy trails the price from below by `trail` and triggers when the price rises
        /// that far off its low (a sell the mirror); ticks are a trailing amount, bps a trailing percent.
        case trailing(trail: PriceOffset)
    }

    /// The price a limit entry is set from.
    public enum PriceReference: String, Hashable, Sendable, Codable, CaseIterable {
        /// The last bar's close.
        case last
        /// The best bid (live quotes; the last close when there is no quote, as in a backtest on bars).
        case bid
        /// The best ask (as `bid`).
        case ask
    }

    /// A distance in ticks of the instrument or in basis points of the reference price.
    public enum PriceOffset: Hashable, Sendable, Codable, CustomStringConvertible {
        /// Whole minimum ticks.
        case ticks(Int)
        /// Basis points (1/100 of a percent) of the reference price.
        case basisPoints(Double)

        /// The distance in price units at `reference` with minimum tick `tick` (a zero tick counts as one cent).
        public func units(at reference: Price, tick: Price) -> Int64 {
            switch self {
            case .ticks(let n): return Int64(n) * (tick.units > 0 ? tick.units : Price(approximately: 0.01).units)
            case .basisPoints(let bps): return Int64((Double(reference.units) * bps / 10_000).rounded())
            }
        }

        /// `2 ticks`, `-1 tick`, `5 bps`.
        public var description: String {
            switch self {
            case .ticks(let n): return "\(n) \(n == 1 || n == -1 ? "tick" : "ticks")"
            case .basisPoints(let bps):
                let text = bps == bps.rounded() && bps.magnitude < 1e9 ? String(Int64(bps)) : String(bps)
                return "\(text) bps"
            }
        }

        /// Reads `2 ticks`, `-1 tick`, `5 bps`, `2.5bps`, `0` (zero ticks); `nil` for anything else.
        public init?(text: String) {
            let trimmed = Self.trimmed(Substring(text.lowercased()))
            if trimmed == "0" {
                self = .ticks(0)
                return
            }
            for (unit, isTicks) in [("ticks", true), ("tick", true), ("bps", false), ("bp", false)] {
                guard trimmed.hasSuffix(unit) else { continue }
                let number = Self.trimmed(trimmed.dropLast(unit.count))
                if isTicks {
                    guard let n = Int(number), n.magnitude <= 10_000 else { return nil }
                    self = .ticks(n)
                } else {
                    guard let bps = Double(number), bps.isFinite, bps.magnitude <= 10_000 else { return nil }
                    self = .basisPoints(bps)
                }
                return
            }
            return nil
        }

        static func trimmed(_ text: Substring) -> String {
            String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        }

        /// `true` for a distance above zero.
        public var isPositive: Bool {
            switch self {
            case .ticks(let n): n > 0
            case .basisPoints(let bps): bps > 0
            }
        }
    }

    /// What an entry that has not filled within `timeout` becomes.
    public enum TimeoutAction: String, Hashable, Sendable, Codable, CaseIterable {
        /// Cancelled (what fills stays).
        case cancel
        /// Its limit moved by `repriceStep` towards paying up, up to `reprices` times, then `afterReprices`.
        case reprice
        /// Cancelled, then the unfilled rest sent as a market order.
        case market
    }

    /// The order type of entries.
    public var entry: Pricing
    /// How long an order may work (`nil`: no limit). Styled entries then follow `onTimeout`; other orders the
    /// strategy sent without a timeout of their own are cancelled.
    public var timeout: TimeSpan?
    /// What a styled entry becomes at its timeout.
    public var onTimeout: TimeoutAction
    /// Reprices before `afterReprices` (with `onTimeout: reprice`).
    public var reprices: Int
    /// How far each reprice moves the limit towards paying up.
    public var repriceStep: PriceOffset
    /// What an entry still unfilled after its last reprice becomes: `cancel` or `market`.
    public var afterReprices: TimeoutAction
    /// Entries' time in force (`nil`: the strategy's own, GTC for the built-ins).
    public var timeInForce: TimeInForce?
    /// A GTD entry's lifetime (needed with `timeInForce: .gtd`).
    public var goodFor: TimeSpan?

    /// Creates a style; the defaults are the strategy's market orders with no time limit.
    public init(
        entry: Pricing = .market, timeout: TimeSpan? = nil, onTimeout: TimeoutAction = .cancel, reprices: Int = 0,
        repriceStep: PriceOffset = .ticks(1), afterReprices: TimeoutAction = .cancel, timeInForce: TimeInForce? = nil,
        goodFor: TimeSpan? = nil
    ) {
        self.entry = entry
        self.timeout = timeout
        self.onTimeout = onTimeout
        self.reprices = reprices
        self.repriceStep = repriceStep
        self.afterReprices = afterReprices
        self.timeInForce = timeInForce
        self.goodFor = goodFor
    }

    /// Only a time limit on every order (what `orders.timeout` alone asks for).
    public static func timeout(_ timeout: TimeSpan) -> ExecutionStyle { ExecutionStyle(timeout: timeout) }

    /// `true` when entries are sent as the strategy asked (only, perhaps, a time limit).
    public var leavesEntriesAlone: Bool { entry == .market && timeInForce == nil }

    /// `true` when limit entries are priced from quotes (live, they are then subscribed).
    public var needsQuotes: Bool {
        switch entry {
        case .limit(_, let from): return from != .last
        case .midprice(.some, let from): return (from ?? .last) != .last
        default: return false
        }
    }

    /// One line for the start-up log and the summary: `limit 1 tick from last, 30s timeout, reprice 2× by 1 tick
    /// then cancel`.
    public var summary: String {
        var parts: [String] = []
        switch entry {
        case .market: parts.append("market entries")
        case .limit(let offset, let from): parts.append("limit entries \(offset) from \(from.rawValue)")
        case .adaptive(let priority): parts.append("adaptive entries (\(priority.rawValue.lowercased()))")
        case .midprice(let cap, let from):
            parts.append("midprice entries" + (cap.map { " capped \($0) from \((from ?? .last).rawValue)" } ?? ""))
        case .stop(let offset): parts.append("stop entries \(offset) beyond last")
        case .trailing(let trail): parts.append("trailing stop entries by \(trail)")
        }
        if let tif = timeInForce {
            parts.append(tif == .gtd ? "GTD \(goodFor.map(Self.text) ?? "?")" : tif.rawValue)
        }
        if let timeout {
            switch onTimeout {
            case .cancel: parts.append("cancelled after \(Self.text(timeout))")
            case .market: parts.append("sent at market after \(Self.text(timeout))")
            case .reprice:
                parts.append(
                    "repriced \(reprices)× by \(repriceStep) every \(Self.text(timeout)), then "
                        + (afterReprices == .market ? "sent at market" : "cancelled"))
            }
        }
        return parts.joined(separator: ", ")
    }

    /// What an entry not filled after `waited` becomes.
    public enum TimeoutStep: Hashable, Sendable {
        /// Its limit moved to this price (an IB modify), with the reason to journal.
        case reprice(Price, reason: String)
        /// Cancelled (what filled stays).
        case cancel
        /// Cancelled, then its unfilled rest sent at market.
        case cancelThenMarket
    }

    /// The step at an entry's timeout: the next reprice while some are left (limit entries with `onTimeout:
    /// reprice`), else the final step. One rule for the bot (`ExecutionStyled`) and `ibtrader order`.
    /// - Parameters:
    ///   - type: the entry's current pricing.
    ///   - side: its side (a buy's reprice raises the limit, a sell's lowers it).
    ///   - repricesMade: reprices already made.
    ///   - ticks: the instrument's price increments (a step in ticks is in the increment at the current limit; a
    ///     zero tick counts as one cent).
    ///   - waited: how long it waited (for the reason).
    public func timeoutStep(
        for type: OrderType, side: Side, repricesMade: Int, ticks: TickTable, waited: TimeSpan
    ) -> TimeoutStep {
        if onTimeout == .reprice, repricesMade < reprices, case .limit(let price) = type {
            let tick = ticks.increment(at: price)
            let step = repriceStep.units(at: price, tick: tick)
            let units = side == .buy ? price.units + step : price.units - step
            let next = Price(units: max(units, max(tick.units, 1)))
            return .reprice(
                next,
                reason: "not filled after \(Self.text(waited)): reprice \(repricesMade + 1) of \(reprices), LMT \(price) → \(next)")
        }
        let final = onTimeout == .reprice ? afterReprices : onTimeout
        return final == .market ? .cancelThenMarket : .cancel
    }

    /// `30s`, `2m`, `1h`: a timeout as the summary and the reasons write it.
    public static func text(_ span: TimeSpan) -> String {
        let seconds = span.nanoseconds / 1_000_000_000
        if seconds % 3600 == 0, seconds >= 3600 { return "\(seconds / 3600)h" }
        if seconds % 60 == 0, seconds >= 60 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}
