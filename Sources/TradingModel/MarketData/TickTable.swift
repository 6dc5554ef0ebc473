/// The price increments of a contract by price level: IB's market rule (`reqMarketRule`), or a single minimum tick.
///
/// Each band starts at its `lowEdge` and runs up to the next band's; a price is on the tick when it is a multiple of
/// the increment of its band. US stocks (IB's rule 26): 0.0001 below $1, 0.01 from $1.
///
/// ```swift
/// let rule = TickTable(bands: [(.zero, Price("0.0001")!), (Price(1), Price("0.01")!)])!
/// rule.increment(at: Price("0.5")!)     // 0.0001
/// rule.increment(at: Price("50")!)      // 0.01
/// Price("0.50123")!.roundedDown(to: rule)   // 0.5012
/// ```
public struct TickTable: Hashable, Sendable, Codable, CustomStringConvertible {
    /// One band: from `lowEdge` (inclusive) up, prices are multiples of `increment`.
    public struct Band: Hashable, Sendable, Codable {
        /// Where the band starts.
        public var lowEdge: Price
        /// The band's price increment (zero: no rounding).
        public var increment: Price

        /// Creates a band.
        public init(lowEdge: Price, increment: Price) {
            self.lowEdge = lowEdge
            self.increment = increment
        }
    }

    /// The bands, by rising low edge (never empty).
    public let bands: [Band]

    /// One increment for every price (a contract's `minTick`; a backtest's instrument). A tick of zero or less
    /// rounds nothing.
    public init(_ tick: Price) {
        bands = [Band(lowEdge: .zero, increment: Price(units: max(tick.units, 0)))]
    }

    /// A table of bands; `nil` when there are none, an increment is not positive, or two bands share a low edge.
    /// The bands are sorted by low edge; the first also covers prices below its edge.
    public init?(bands: [(lowEdge: Price, increment: Price)]) {
        let sorted = bands.map { Band(lowEdge: $0.lowEdge, increment: $0.increment) }.sorted { $0.lowEdge < $1.lowEdge }
        guard !sorted.isEmpty, sorted.allSatisfy({ $0.increment.units > 0 }),
            zip(sorted, sorted.dropFirst()).allSatisfy({ $0.lowEdge < $1.lowEdge })
        else { return nil }
        self.bands = sorted
    }

    /// The increment at `price`: that of the last band whose low edge is at or below it (the first band's below
    /// every edge).
    public func increment(at price: Price) -> Price { bands[band(of: price)].increment }

    /// The largest increment: a multiple of every band's in the usual nested rules, so a price offset on it
    /// (a trail amount with no price known) is on the tick anywhere.
    public var largestIncrement: Price { bands.map(\.increment).max() ?? .zero }

    /// Whether there is a single band (a plain minimum tick).
    public var isSingleTick: Bool { bands.count == 1 }

    /// `0 → 0.0001, 1 → 0.01` (a single tick: `0.01`).
    public var description: String {
        if isSingleTick { return bands[0].increment.description }
        return bands.map { "\($0.lowEdge) → \($0.increment)" }.joined(separator: ", ")
    }

    /// The index of the band holding `price`.
    func band(of price: Price) -> Int {
        var low = 0
        var high = bands.count - 1
        // The last band whose edge is at or below the price (the first when none is).
        while low < high {
            let middle = (low + high + 1) / 2
            if bands[middle].lowEdge <= price { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

extension Price {
    /// The nearest price on `table` at or below this one: the increment of this price's band; when that band has
    /// no multiple between its edge and this price, the nearest one of the bands below.
    public func roundedDown(to table: TickTable) -> Price {
        var index = table.band(of: self)
        var price = self
        while true {
            let candidate = price.roundedDown(toTick: table.bands[index].increment)
            if index == 0 || candidate >= table.bands[index].lowEdge { return candidate }
            // Just below this band's edge, in the band under it.
            price = Price(units: table.bands[index].lowEdge.units - 1)
            index -= 1
        }
    }

    /// The nearest price on `table` at or above this one: the increment of this price's band; when its next
    /// multiple lies in the band above, the first price on the tick there.
    public func roundedUp(to table: TickTable) -> Price {
        var index = table.band(of: self)
        var price = self
        while true {
            let candidate = price.roundedUp(toTick: table.bands[index].increment)
            guard index + 1 < table.bands.count, candidate >= table.bands[index + 1].lowEdge else { return candidate }
            index += 1
            price = table.bands[index].lowEdge
        }
    }

    /// Whether the price is a multiple of the increment at it.
    public func isOnTick(_ table: TickTable) -> Bool { isOnTick(table.increment(at: self)) }
}
