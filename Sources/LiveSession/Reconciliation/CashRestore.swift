import JournalModel
import TradingModel

/// The engine's cash after a restart: the cash the crashed run had, not the configured capital. Pure.
///
/// **Decision.** The journal's latest cash checkpoint of the account (`JournalCashCheckpoint`, written after each
/// start-up reconciliation) plus the fills journaled after it. The restart journals every execution the broker
/// still lists before this runs, so those fills are complete for the day; the checkpoint bounds the work to one
/// run's fills. (Summing every fill since the first run would also work, but breaks as soon as the broker's
/// execution list no longer reaches back — IB lists a few days at most — or a journal is pruned; checkpoints also
/// carry a change of `strategy.cash` from the first run on.)
///
/// 1. Commissions joined since the checkpoint to fills it had already counted: charged now.
/// 2. Each later fill of the account in the universe: buys pay notional + commission, sells receive notional −
///    commission (`Portfolio.apply`), and the expected positions move by it. Fills of `ibtrader order` in the same
///    account and symbols count too: the restart adopts the broker's positions, so their cost must be paid.
/// 3. Where the broker's position still differs from checkpoint + fills (an execution the broker no longer lists,
///    a transfer), the difference is booked and said. Shares the broker holds beyond the fills are bought at the
///    broker's average cost (the rule of a first run). Shares the fills give but the broker no longer holds (closed
///    by hand, a gateway that lost its books) leave at their own average cost from the journal's fills: no P&L is
///    assumed for a sale nobody saw. Booking them at nothing would show their whole value as a loss.
///
/// Each amount is booked in the currency its instrument is priced in: an account in euros trading ES keeps the
/// dollars ES's fills move apart from its euros (`JournalCashCheckpoint.foreignCash`), as `Portfolio` does.
///
/// A future's price is never paid (`InstrumentKind.paysNotional`, read from the symbol): its fills move cash by the
/// commission, and a fill that reduces the position by its gain or loss against the position's average fill price
/// times the multiplier, as `Portfolio` books them. The average at the checkpoint is replayed from the journal's
/// fills up to it (the broker's average cost when the journal does not reach back). A futures position that differs
/// from checkpoint + fills is booked at its cost, which moves no cash: only a fill realizes a future's P&L.
///
/// ```swift
/// let restored = CashRestore.restore(checkpoint: latest, fills: journal.fills(), account: "DU1",
///                                    universe: symbols, brokerPositions: positions, averageCosts: costs)
/// engine.restore(cash: restored.cash, commissions: restored.commissions, at: now)
/// ```
public enum CashRestore {
    /// The restored balances.
    public struct Outcome: Sendable, Hashable {
        /// The engine's cash in the account's currency itself.
        public var cash: Money
        /// The engine's cash in each other currency (an account trading instruments priced in others), in it.
        public var foreign: [String: Money] = [:]
        /// The engine's commission total (in the account's currency).
        public var commissions: Money
        /// Fills applied after the checkpoint.
        public var fillsApplied: Int
        /// Positions that did not follow from the fills, booked at the broker's cost (for the log).
        public var adjustments: [String]
    }

    /// Restores the balances.
    /// - Parameters:
    ///   - checkpoint: the account's latest checkpoint.
    ///   - fills: the journal's fills (all, in journal order; others are filtered out here).
    ///   - account: the account traded (fills of other accounts are ignored; a fill without account counts).
    ///   - universe: the symbols the engine trades.
    ///   - brokerPositions: the broker's positions now, by symbol.
    ///   - averageCosts: the broker's average cost per unit, by symbol.
    ///   - accountCurrency: the account's currency: a fill of an instrument priced in another moves that currency's
    ///     cash (`CurrencyConversion.currency(of:)`).
    ///   - rates: the account's currency per unit of each other, the latest known: the commissions of fills in
    ///     another currency join the total at it.
    /// - Returns: cash, commissions and what was adjusted.
    public static func restore(
        checkpoint: JournalCashCheckpoint, fills: [JournalFill], account: String, universe: Set<Symbol>,
        brokerPositions: [Symbol: Quantity], averageCosts: [Symbol: Price], accountCurrency: String = "USD",
        rates: [String: Double] = [:]
    ) -> Outcome {
        var cash = checkpoint.foreignCash
        cash[accountCurrency] = checkpoint.cash
        var counted: [String: Money] = [:]
        var commissions = checkpoint.commissions
        func charge(_ amount: Money, in currency: String) {
            commissions += currency == accountCurrency ? amount : amount.converted(at: rates[currency] ?? 0)
        }
        var expected = checkpoint.positions
        var applied = 0
        var futures: [Symbol: FuturesHolding] = [:]
        for fill in fills where universe.contains(fill.symbol) && (fill.account ?? account) == account {
            let commission = fill.commission ?? .zero
            let kind = InstrumentKind(symbol: fill.symbol)
            let currency = CurrencyConversion.currency(of: kind)
            if fill.sequence <= checkpoint.fillCheckpoint {
                counted[currency, default: .zero] += commission
                continue
            }
            if kind.paysNotional {
                let notional = Money(price: fill.price, quantity: fill.quantity)
                cash[currency, default: .zero] += fill.side == .buy ? -notional - commission : notional - commission
            } else {
                var holding = futures[fill.symbol] ?? FuturesHolding(
                    symbol: fill.symbol, checkpoint: checkpoint, fills: fills, account: account,
                    brokerCost: averageCosts[fill.symbol], kind: kind)
                cash[currency, default: .zero] += holding.apply(fill) - commission
                futures[fill.symbol] = holding
            }
            charge(commission, in: currency)
            expected[fill.symbol, default: .zero] += fill.side == .buy ? fill.quantity : -fill.quantity
            applied += 1
        }
        // Commissions that reached fills the checkpoint had counted without them, in each fill's currency.
        for currency in Set(counted.keys).union(checkpoint.foreignFillCommissions.keys).union([accountCurrency]) {
            let total = counted[currency] ?? .zero
            let known = currency == accountCurrency
                ? checkpoint.fillCommissions : checkpoint.foreignFillCommissions[currency] ?? .zero
            cash[currency, default: .zero] -= total - known
            charge(total - known, in: currency)
        }
        var adjustments: [String] = []
        for symbol in universe.sorted() {
            let broker = brokerPositions[symbol] ?? .zero
            let believed = expected[symbol] ?? .zero
            guard broker != believed else { continue }
            let difference = broker - believed
            let kind = InstrumentKind(symbol: symbol)
            let currency = CurrencyConversion.currency(of: kind)
            if !kind.paysNotional {
                adjustments.append(
                    "\(symbol): broker holds \(broker), journal fills give \(believed); \(difference) contracts taken "
                        + "at their cost (a future's price is not paid: no cash moves). Check the account in TWS")
                continue
            }
            let shrank = broker.magnitude < believed.magnitude && (broker.isZero || (broker.units > 0) == (believed.units > 0))
            if shrank, let own = journalCost(of: symbol, holding: believed, fills: fills, account: account) {
                cash[currency, default: .zero] -= Money(price: own, quantity: difference)
                adjustments.append(
                    "\(symbol): broker holds \(broker), journal fills give \(believed); the broker lists no execution "
                        + "for the \(difference.magnitude) gone: taken out at their journal cost \(own), no P&L assumed. "
                        + "Check the account in TWS")
                continue
            }
            let cost = averageCosts[symbol] ?? .zero
            cash[currency, default: .zero] -= Money(price: cost, quantity: difference)
            adjustments.append(
                "\(symbol): broker holds \(broker), journal fills give \(believed); \(difference) booked at \(cost)")
        }
        let home = cash.removeValue(forKey: accountCurrency) ?? .zero
        return Outcome(
            cash: home, foreign: cash, commissions: commissions, fillsApplied: applied, adjustments: adjustments)
    }

    /// The average cost of `holding` from the account's journaled fills of `symbol` (up to the fill sequence
    /// `through`), replayed in journal order (`nil` when they do not add up to `holding`: the journal does not reach
    /// back to the position's start).
    static func journalCost(
        of symbol: Symbol, holding: Quantity, fills: [JournalFill], account: String, through: Int64 = .max
    ) -> Price? {
        var quantity: Int64 = 0
        var average: Int64 = 0
        for fill in fills where fill.symbol == symbol && (fill.account ?? account) == account && fill.sequence <= through {
            let delta = fill.side == .buy ? fill.quantity.units : -fill.quantity.units
            let after = quantity + delta
            if quantity == 0 || (quantity > 0) == (delta > 0) {
                let cost = Int128(average) * Int128(quantity) + Int128(fill.price.units) * Int128(delta)
                average = after == 0 ? 0 : Int64(clamping: cost / Int128(after))
            } else if after == 0 {
                average = 0
            } else if (after > 0) != (quantity > 0) {
                average = fill.price.units
            }
            quantity = after
        }
        guard quantity == holding.units, quantity != 0 else { return nil }
        return Price(units: average)
    }

    /// The commissions of the account's fills up to a checkpoint, by the currency their instruments are priced in
    /// (`JournalCashCheckpoint.fillCommissions` is the account's currency's, `foreignFillCommissions` the others').
    public static func fillCommissions(
        _ fills: [JournalFill], upTo checkpoint: Int64, account: String, universe: Set<Symbol>
    ) -> [String: Money] {
        var total: [String: Money] = [:]
        for fill in fills
        where fill.sequence <= checkpoint && universe.contains(fill.symbol) && (fill.account ?? account) == account {
            total[CurrencyConversion.currency(of: InstrumentKind(symbol: fill.symbol)), default: .zero] +=
                fill.commission ?? .zero
        }
        return total
    }
}

/// A futures position replayed from a checkpoint with `Position`'s own rule: the cash each fill realizes is the
/// reduced part's gain or loss times the multiplier.
struct FuturesHolding {
    var position: Position

    /// The position the checkpoint held, at its journal cost up to the checkpoint (else the broker's).
    init(
        symbol: Symbol, checkpoint: JournalCashCheckpoint, fills: [JournalFill], account: String, brokerCost: Price?,
        kind: InstrumentKind
    ) {
        let held = checkpoint.positions[symbol] ?? .zero
        position = Position(instrument: InstrumentID(index: 0), kind: kind)
        position.quantity = held
        position.averagePrice = held.isZero ? .zero : CashRestore.journalCost(
            of: symbol, holding: held, fills: fills, account: account, through: checkpoint.fillCheckpoint)
            ?? brokerCost ?? .zero
    }

    /// Books a fill; returns the cash it realizes (before its commission).
    mutating func apply(_ fill: JournalFill) -> Money {
        position.apply(Fill(
            orderID: OrderID(0), instrument: position.instrument, side: fill.side, quantity: fill.quantity,
            price: fill.price, timestamp: fill.time))
    }
}
