import TradingModel

/// A continuous futures series spliced from contract months on a roll rule: the position leaves a contract
/// `rollDays` business days before its last trading day (`FutureSpec.rollDay(of:days:)`) and holds the next of the
/// product's roll months from that day on, the rule a rolled position follows.
///
/// - `backAdjusted`: each roll's gap (the new contract's close minus the old one's on the last day both traded
///   before the switch) is added to every earlier bar, so the series has no jump at a roll and a position's P&L on
///   it is the rolled position's, before the roll's cost. The latest contract's prices are as traded.
/// - `unadjusted`: prices as traded, with the gap left in (a backtest then makes each roll as the bot does: the
///   strategy's history moved by the closes' gap, a held position carried at the legs' difference at the roll bar,
///   `Roll.carry`; `BacktestConfig.historyRebases`).
///
/// By volume (`byVolume`), the position leaves a contract earlier: on the first business day after one on which the next
/// roll month traded more contracts than it (a Sunday evening's session in one month's file is no day to roll on) (the day's volume, known at its close: no look-ahead), and at the latest on
/// the rule's roll day. It never goes back to a month it left.
public struct ContinuousFuture: Sendable {
    /// How prices are spliced.
    public enum Adjustment: String, Sendable, CaseIterable {
        case backAdjusted = "back-adjusted"
        case unadjusted
    }

    /// One roll: the bar at which the next contract takes over, and the two contracts' prices it is measured by.
    public struct Roll: Hashable, Sendable {
        /// The first bar of the new contract.
        public var time: Timestamp
        /// The contract left and the one entered.
        public var from: ContractMonth, to: ContractMonth
        /// The day both traded, last before the switch, and their closes then (the gap is `newPrice − oldPrice`).
        public var priceTime: Timestamp
        public var oldPrice: Price, newPrice: Price
        /// The two legs' prices at the roll bar (`time`), where a held position rolls as the bot rolls it (two market
        /// orders at the bar's open): the old month's open, `nil` when the old month has no bar then, and the new
        /// month's open.
        public var oldOpen: Price?
        public var newOpen: Price

        /// What a position held across the roll is carried by: the legs' difference at the roll bar
        /// (`newOpen − oldOpen`), or the closes' gap (`newPrice − oldPrice`) when the old month has no bar then.
        public var carry: Price {
            guard let oldOpen else { return Price(units: newPrice.units - oldPrice.units) }
            return Price(units: newOpen.units - oldOpen.units)
        }
    }

    /// The spliced bars.
    public let bars: [Bar]
    /// The rolls, in time order.
    public let rolls: [Roll]
    /// The contract each bar was taken from.
    public let months: [ContractMonth]

    /// Splices contract months.
    /// - Parameters:
    ///   - spec: the product.
    ///   - contracts: each contract month's bars (ascending); months outside `spec.rollMonths` are not used.
    ///   - rollDays: business days before a contract's last trading day that the position moves to the next.
    ///   - adjustment: back-adjusted or as traded.
    ///   - byVolume: roll when the next month's volume passes the front one's (at the latest on the roll day).
    /// - Throws: `ContinuousFutureError` when two consecutive contracts never traded on the same bar before the
    ///   switch (no gap can be measured), or a back-adjusted price is not above zero.
    public static func build(
        spec: FutureSpec, contracts: [(month: ContractMonth, bars: [Bar])], rollDays: Int, adjustment: Adjustment,
        byVolume: Bool = false
    ) throws(ContinuousFutureError) -> ContinuousFuture {
        var byMonth: [ContractMonth: [Bar]] = [:]
        for contract in contracts where spec.rollMonths.contains(contract.month.month) {
            byMonth[contract.month, default: []] += contract.bars
        }
        var indexByTime: [ContractMonth: [Int64: Int]] = [:]
        for (month, bars) in byMonth {
            indexByTime[month] = Dictionary(bars.enumerated().map { ($1.timestamp.nanoseconds, $0) }, uniquingKeysWith: { a, _ in a })
        }
        let times = Set(byMonth.values.flatMap { $0.map(\.timestamp.nanoseconds) }).sorted()
        var bars: [Bar] = []
        var months: [ContractMonth] = []
        var rolls: [Roll] = []
        var gaps: [Int64] = []
        var cursor = FrontMonthCursor(spec: spec, rollDays: rollDays)
        var volumes = byVolume ? VolumeRule(spec: spec, byMonth: byMonth) : nil
        for nanoseconds in times {
            let time = Timestamp(nanoseconds: nanoseconds)
            var front = cursor.month(onDay: FutureSpec.tradingDay(of: time))
            if volumes != nil { front = volumes!.month(onDay: FutureSpec.tradingDay(of: time), byDays: front) }
            guard let index = indexByTime[front]?[nanoseconds], let bar = byMonth[front]?[index] else { continue }
            if let previous = months.last, previous != front {
                let (priceTime, old, new) = try gapPrices(
                    from: previous, to: front, before: nanoseconds, byMonth: byMonth, indexByTime: indexByTime)
                let oldOpen = indexByTime[previous]?[nanoseconds].flatMap { byMonth[previous]?[$0].open }
                rolls.append(Roll(
                    time: time, from: previous, to: front, priceTime: priceTime, oldPrice: old, newPrice: new,
                    oldOpen: oldOpen, newOpen: bar.open))
                gaps.append(new.units - old.units)
            }
            bars.append(bar)
            months.append(front)
        }
        if adjustment == .backAdjusted, !rolls.isEmpty {
            var shift: Int64 = 0
            var roll = rolls.count - 1
            for k in stride(from: bars.count - 1, through: 0, by: -1) {
                while roll >= 0, bars[k].timestamp < rolls[roll].time {
                    shift += gaps[roll]
                    roll -= 1
                }
                guard shift != 0 else { continue }
                var bar = bars[k]
                bar.open.units += shift
                bar.high.units += shift
                bar.low.units += shift
                bar.close.units += shift
                guard bar.low.units > 0 else {
                    throw .nonPositive(root: spec.root, time: bar.timestamp, price: bar.low)
                }
                bars[k] = bar
            }
        }
        return ContinuousFuture(bars: bars, rolls: rolls, months: months)
    }


    /// The front month by volume: each trading day's volume of every month, and the month held so far.
    struct VolumeRule {
        let spec: FutureSpec
        /// Contracts traded, by month and trading day.
        let volume: [ContractMonth: [Int64: Int64]]
        var held: ContractMonth?
        var day: Int64?

        init(spec: FutureSpec, byMonth: [ContractMonth: [Bar]]) {
            self.spec = spec
            var volume: [ContractMonth: [Int64: Int64]] = [:]
            for (month, bars) in byMonth {
                for bar in bars { volume[month, default: [:]][FutureSpec.tradingDay(of: bar.timestamp), default: 0] += bar.volume.units }
            }
            self.volume = volume
        }

        /// The month held on `day`: the one held so far, or the next roll month once it traded more on the last day
        /// both traded before `day`; never before the days rule's month `byDays`.
        mutating func month(onDay day: Int64, byDays: ContractMonth) -> ContractMonth {
            if let held, self.day == day || !USEquityCalendar.isTradingDay(day) { return max(held, byDays) }
            self.day = day
            var month = max(held ?? byDays, byDays)
            while case let next = spec.nextRollMonth(after: month), let ours = volume[month], let theirs = volume[next],
                let last = ours.keys.filter({ $0 < day && theirs[$0] != nil }).max(), theirs[last]! > ours[last]!
            {
                month = next
            }
            held = month
            return month
        }
    }

    /// The last time before `limit` at which both contracts have a bar, and their closes then.
    private static func gapPrices(
        from old: ContractMonth, to new: ContractMonth, before limit: Int64, byMonth: [ContractMonth: [Bar]],
        indexByTime: [ContractMonth: [Int64: Int]]
    ) throws(ContinuousFutureError) -> (Timestamp, Price, Price) {
        let oldBars = byMonth[old] ?? []
        for bar in oldBars.reversed() where bar.timestamp.nanoseconds < limit {
            if let j = indexByTime[new]?[bar.timestamp.nanoseconds], let newBar = byMonth[new]?[j] {
                return (bar.timestamp, bar.close, newBar.close)
            }
        }
        throw .noCommonBar(from: old, to: new)
    }
}

/// Why contract months cannot be spliced.
public enum ContinuousFutureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Two consecutive contracts never traded on the same bar before the roll.
    case noCommonBar(from: ContractMonth, to: ContractMonth)
    /// Back-adjusting took a price to zero or below.
    case nonPositive(root: String, time: Timestamp, price: Price)
    /// No contract month of the product in the data.
    case noContracts(root: String)

    public var description: String {
        switch self {
        case let .noCommonBar(from, to):
            "the contracts \(from) and \(to) have no bar at the same time before the roll, so the roll's gap cannot be "
                + "measured: add the \(to) contract's bars from before the roll"
        case let .nonPositive(root, time, price):
            "back-adjusting \(root) takes its price to \(price) at \(time): use unadjusted prices for this "
                + "history"
        case let .noContracts(root):
            "no \(root) contract month in the data (symbols like \(root)Z2013, files like \(root)Z2013_1d.csv)"
        }
    }
}
