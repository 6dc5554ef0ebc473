import TWSProtocol
import TradingModel

/// A market rule's bands (marketRule) → the `TickTable` order prices are rounded with. Pure.
///
/// IB's doubles are rounded to the 1e-8 of a `Price` (0.0001 is exact then). A rule that is empty, has an
/// increment of zero or a non-representable value, or two bands at one edge, gives `nil`: the caller keeps the
/// contract's `minTick` and says so.
public enum MarketRuleMapping {
    /// The table of a rule's bands, or `nil` when they do not make one.
    public static func ticks(_ increments: [TWSPriceIncrement]) -> TickTable? {
        var bands: [(lowEdge: Price, increment: Price)] = []
        for band in increments {
            guard let edge = Price(checkedApproximately: band.lowEdge),
                let increment = Price(checkedApproximately: band.increment)
            else { return nil }
            bands.append((edge, increment))
        }
        return TickTable(bands: bands)
    }
}
