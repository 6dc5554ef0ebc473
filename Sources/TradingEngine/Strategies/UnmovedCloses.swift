import TradingModel

/// How many closes in a row have been one price: what tells a built-in strategy that its indicator's window saw no
/// movement, so that the indicator's value is its "no movement" value and not a signal.
///
/// The rule ("neutral is not a signal", `docs/backtesting.md`): a strategy neither enters nor exits on an indicator
/// whose whole window is one price. TA-Lib defines those values, but they say nothing about the market: an RSI of 0
/// when the average gain and loss are both 0 (TA-Lib's convention; a strategy would read it as oversold and buy a
/// price that never moved), Bollinger bands of zero width (and, until the running sums rebase, a width of rounding
/// residue that makes `(close − middle) / σ` any number), two moving averages equal to the same constant (where a
/// rounding difference would read as a cross), a rate of change of 0 (which a momentum rotation's `minimumScore: 0`
/// accepts). Closes are compared exactly, in price units, so no tolerance decides it.
///
/// ```swift
/// var run = UnmovedCloses()
/// for close in [10, 10, 10] { run.update(Price(close)) }
/// run.isFlat(over: 3)   // true: the last 3 closes are one price
/// ```
@usableFromInline
struct UnmovedCloses: Sendable {
    @usableFromInline var lastClose = Int64.min
    /// Closes in a row at `lastClose` (the first of them included).
    @usableFromInline var length = 0

    @usableFromInline init() {}

    /// Counts one more close.
    @inlinable @inline(__always)
    mutating func update(_ close: Price) {
        if close.units == lastClose {
            length &+= 1
        } else {
            lastClose = close.units
            length = 1
        }
    }

    /// Whether the last `closes` closes were all one price (an indicator over them saw no movement).
    @inlinable @inline(__always)
    func isFlat(over closes: Int) -> Bool { length >= closes }
}
