import Analytics
import Backtest
import TradingModel

/// Accounts run apart, measured as one book: each symbol's backtest has its own cash, and the book's equity at any
/// moment is the sum of theirs (an account without a point yet counts at its starting cash, one between points at
/// its latest). With fixed sizing and cash that never binds, that is the portfolio backtest of all the symbols
/// together, to the unit; it is what a vectorized sweep computes (vectorbt's columns, each with its own cash,
/// grouped).
///
/// Built one account at a time, so a sweep over 500 symbols keeps one merged curve, never 500.
public struct PooledBook: Sendable {
    /// Times (nanoseconds, UTC) and the book's equity, cash and gross exposure there, in the engine's units.
    public private(set) var times: [Int64] = []
    public private(set) var equity: [Int64] = []
    public private(set) var cash: [Int64] = []
    public private(set) var gross: [Int64] = []
    /// Closed trades of every account, in the order added, and the account of each (0 for the first added).
    public private(set) var trades: [TradeRecord] = []
    public private(set) var tradeAccounts: [Int] = []
    /// The accounts added and what they started with together.
    public private(set) var accounts = 0
    public private(set) var initialCash: Int64 = 0
    /// The accounts' commissions together, exact, in the engine's units (`BacktestResult.commissionTotal`'s parts):
    /// all of them, those of positions still open at the end, those of futures rolls.
    public private(set) var commissions = PooledCommissions()

    /// An empty book.
    public init() {}

    /// A book as stored (`PooledBook(decoding:)` checks the parts first).
    init(
        times: [Int64], equity: [Int64], cash: [Int64], gross: [Int64], trades: [TradeRecord], tradeAccounts: [Int],
        accounts: Int, initialCash: Int64, commissions: PooledCommissions
    ) {
        (self.times, self.equity, self.cash, self.gross) = (times, equity, cash, gross)
        (self.trades, self.tradeAccounts, self.accounts, self.initialCash) = (trades, tradeAccounts, accounts, initialCash)
        self.commissions = commissions
    }

    /// Adds one account's backtest (in instrument order: a single backtest lists trades entered at one time in that
    /// order).
    public mutating func add(_ result: BacktestResult) {
        let curve = result.equityCurve
        merge(AccountCurve(curve: curve), startingWith: result.initialCash.units)
        let closed = result.analyticsTrades
        trades += closed
        tradeAccounts += repeatElement(accounts, count: closed.count)
        accounts += 1
        initialCash &+= result.initialCash.units
        var open = Money.zero
        for trade in result.trades where trade.isOpen { open += trade.commission }
        let rolls = result.rollCharges.reduce(Money.zero) { $0 + $1.cost }
        commissions.add(PooledCommissions(
            total: result.trades.reduce(rolls.units) { $0 &+ $1.commission.units }, open: open.units, rolls: rolls.units))
    }

    /// Adds another book's accounts after this one's (a file shard's book, in shard order): the sum is the book of
    /// all their accounts, to the unit, as if each had been added here.
    public mutating func add(_ other: PooledBook) {
        merge(BookCurve(book: other), startingWith: other.initialCash)
        trades += other.trades
        tradeAccounts += other.tradeAccounts.map { $0 + accounts }
        accounts += other.accounts
        initialCash &+= other.initialCash
        commissions.add(other.commissions)
    }

    /// Sums `curve` into the book on the union of their times.
    private mutating func merge<Curve: PooledCurve>(_ curve: Curve, startingWith start: Int64) {
        var (mergedTimes, mergedEquity, mergedCash, mergedGross) = ([Int64](), [Int64](), [Int64](), [Int64]())
        let capacity = times.count + curve.count
        mergedTimes.reserveCapacity(capacity)
        mergedEquity.reserveCapacity(capacity)
        mergedCash.reserveCapacity(capacity)
        mergedGross.reserveCapacity(capacity)
        // Both sides carry their latest values forward; before its first point each side is all cash.
        var book = (equity: initialCash, cash: initialCash, gross: Int64(0))
        var other = (equity: start, cash: start, gross: Int64(0))
        var i = 0
        var j = 0
        while i < times.count || j < curve.count {
            let bookTime = i < times.count ? times[i] : .max
            let otherTime = j < curve.count ? curve.time(at: j) : .max
            let time = min(bookTime, otherTime)
            if bookTime == time {
                book = (equity[i], cash[i], gross[i])
                i += 1
            }
            if otherTime == time {
                other = curve.point(at: j)
                j += 1
            }
            mergedTimes.append(time)
            mergedEquity.append(book.equity &+ other.equity)
            mergedCash.append(book.cash &+ other.cash)
            mergedGross.append(book.gross &+ other.gross)
        }
        (times, equity, cash, gross) = (mergedTimes, mergedEquity, mergedCash, mergedGross)
    }

    /// The book's equity at each of its times (the report's chart).
    public var timedEquity: [TimedEquity] {
        zip(times, equity).map { TimedEquity(time: Timestamp(nanoseconds: $0), equity: Money(units: $1).doubleValue) }
    }

    /// The book's curve for `Analytics` (epoch seconds, account currency).
    public var analyticsEquity: EquitySeries {
        let (times, equity, cash, gross) = (self.times, self.equity, self.cash, self.gross)
        return EquitySeries(
            count: times.count, time: { times[$0] / Timestamp.nanosecondsPerSecond },
            equity: { Money(units: equity[$0]).doubleValue }, cash: { Money(units: cash[$0]).doubleValue },
            grossExposure: { Money(units: gross[$0]).doubleValue })
    }

    /// The trades in the order a single backtest of every symbol lists them (`RoundTripBuilder`): by entry time, then
    /// by account (the instrument order), then as the account listed them. Sums over trades then add in the same
    /// order, so the book's metrics equal the portfolio's to the last bit.
    public var orderedTrades: [TradeRecord] {
        trades.indices.sorted { a, b in
            (trades[a].entryTime, tradeAccounts[a], a) < (trades[b].entryTime, tradeAccounts[b], b)
        }.map { trades[$0] }
    }

    /// The book's sweep metrics.
    /// - Throws: `ResearchError.analyticsFailed` when the curve is unusable (no account, no point).
    public func metrics(periodsPerYear: Int) throws(ResearchError) -> SweepMetrics {
        var report: PerformanceReport
        do {
            report = try PerformanceReport.analyze(equity: analyticsEquity, trades: orderedTrades, periodsPerYear: periodsPerYear)
            // The accounts' commissions together, rounded once: what a single backtest of them all prints.
            report.commissions = CommissionTotal(
                total: Money(units: commissions.total), onOpenPositions: Money(units: commissions.open),
                inFuturesRolls: Money(units: commissions.rolls))
        } catch {
            throw .analyticsFailed("\(error)")
        }
        return SweepMetrics(report: report, equity: equity.map { Money(units: $0).doubleValue })
    }
}

/// The commissions of a pooled book's accounts together, exact, in the engine's units of the account's currency.
public struct PooledCommissions: Hashable, Sendable {
    /// Every fill's and every futures roll's.
    public var total: Int64 = 0
    /// Of which the fills of positions still open at the end.
    public var open: Int64 = 0
    /// Of which futures rolls.
    public var rolls: Int64 = 0

    /// Creates the parts (none by default).
    public init(total: Int64 = 0, open: Int64 = 0, rolls: Int64 = 0) {
        (self.total, self.open, self.rolls) = (total, open, rolls)
    }

    /// Adds another book's (or account's) commissions.
    mutating func add(_ other: PooledCommissions) {
        total &+= other.total
        open &+= other.open
        rolls &+= other.rolls
    }
}

/// A curve summed into a book: times in nanoseconds and values in the engine's units.
private protocol PooledCurve {
    var count: Int { get }
    func time(at index: Int) -> Int64
    func point(at index: Int) -> (equity: Int64, cash: Int64, gross: Int64)
}

private struct AccountCurve: PooledCurve {
    let curve: EquityCurve
    var count: Int { curve.count }
    func time(at index: Int) -> Int64 { curve.time(at: index).nanoseconds }
    func point(at index: Int) -> (equity: Int64, cash: Int64, gross: Int64) {
        (curve.equity(at: index).units, curve.cash(at: index).units, curve.grossExposure(at: index).units)
    }
}

private struct BookCurve: PooledCurve {
    let book: PooledBook
    var count: Int { book.times.count }
    func time(at index: Int) -> Int64 { book.times[index] }
    func point(at index: Int) -> (equity: Int64, cash: Int64, gross: Int64) {
        (book.equity[index], book.cash[index], book.gross[index])
    }
}

extension MarketData {
    /// Each instrument's bars as data of its own (the bars are shared, not copied).
    public var eachInstrument: [MarketData] {
        universe.instruments.indices.map { k in
            MarketData(universe: Universe(instruments: [universe.instruments[k]]), series: [series[k]])
        }
    }
}
