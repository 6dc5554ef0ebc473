import TradingModel

/// A top-of-book snapshot derived from the path with the session's statistics (what a market data line shows):
/// `quote.last`, `quote.bid`, … read its `top`.
@dynamicMemberLookup
public struct SimulatedQuote: Sendable, Equatable {
    /// Last, bid, ask, sizes and whether the session is open.
    public var top: TopOfBook
    /// Shares traded today so far.
    public var volume: Quantity
    /// Today's high so far.
    public var high: Price
    /// Today's low so far.
    public var low: Price
    /// Today's open.
    public var open: Price
    /// The previous session's close.
    public var close: Price

    /// A field of the top of the book.
    public subscript<T>(dynamicMember field: KeyPath<TopOfBook, T>) -> T { top[keyPath: field] }
}

/// The top of the book derived from the path: the last trade, a bid/ask around it and displayed sizes.
public struct TopOfBook: Sendable, Equatable {
    /// Time of the snapshot.
    public var time: Timestamp
    /// Last traded price (the path price rounded to the tick).
    public var last: Price
    /// Best bid (at or below `last`).
    public var bid: Price
    /// Best ask (at or above `last`).
    public var ask: Price
    /// Shares displayed at the bid and at the ask (whole round lots of the interval's volume, at least 100).
    public var size: Quantity
    /// What one quote can fill: the displayed size, or the volume of the data's bar under way in whole shares when
    /// larger. A market order sweeps the book past the round lots on display, as a paper account fills it, rather
    /// than waiting 5 s for the next quote; an order larger than the bar's volume still fills in parts. This is the
    /// backtest's volume rule (`maxVolumeParticipation` of the bar's volume), so both fill an order whole or in
    /// parts alike: 168 IBM at 18:30 on 2011-01-05 (100 displayed, 2,381 traded in the minute) fill at once.
    public var liquidity: Quantity
    /// Shares traded in the last 5 seconds (at least 100 while trading, zero outside the session).
    public var lastSize: Quantity
    /// `true` while the session is open.
    public var isTrading: Bool

    /// The quote as the matching engine sees it.
    public var engineQuote: Quote { Quote(timestamp: time, bid: bid, ask: ask, bidSize: size, askSize: size) }
}

/// Derives quotes from an instrument's path: spread of about 2 basis points (at least one tick), bid ≤ last ≤ ask.
public enum QuoteModel {
    /// Spread in basis points of the price.
    public static let spreadBasisPoints: Double = 2
    /// What a currency pair's quote shows at the bid and at the ask, in its base currency.
    public static let currencyQuoteSize: Int64 = 5_000_000
    /// The interval one displayed size stands for (the real-time bar length).
    public static let interval: TimeSpan = .seconds(5)

    /// The spread in ticks at a price: `spreadBasisPoints` of it (at least one tick); a currency pair's one tick
    /// (IDEALPRO's spread is a fraction of a pip: 0.5 pip on EUR.USD's 0.00005 tick, not 2 bp's 2.5 pips).
    public static func spreadTicks(_ price: Price, tick: Int64, currencyPair: Bool) -> Int64 {
        guard !currencyPair, tick > 0 else { return 1 }
        return max(1, Int64((Double(price.units) * spreadBasisPoints / 10_000 / Double(tick)).rounded()))
    }

    static func isPair(_ kind: InstrumentKind) -> Bool {
        if case .forex = kind { true } else { false }
    }

    /// The quote of an instrument at a time, or `nil` before its data starts.
    public static func quote(_ instrument: SimulatedInstrument, at now: Timestamp) -> SimulatedQuote? {
        var day = SessionDay()
        return quote(instrument, at: now, day: &day)
    }

    /// The quote of an instrument at a time, with `day` carrying the day's complete bars from one call to the next
    /// (a market data line asks every 5 seconds; see `InstrumentSeries.sessionStatistics(now:day:)`).
    public static func quote(
        _ instrument: SimulatedInstrument, at now: Timestamp, day: inout SessionDay
    ) -> SimulatedQuote? {
        guard let top = top(instrument, at: now) else { return nil }
        let tick = instrument.minTick.units
        let stats = instrument.series.sessionStatistics(now: now, tradingDay: TradingDay(kind: instrument.kind), day: &day)
        let today = stats?.today
        return SimulatedQuote(
            top: top, volume: today?.volume ?? .zero,
            high: round(today?.high ?? top.last, tick), low: round(today?.low ?? top.last, tick),
            open: round(today?.open ?? top.last, tick), close: round(stats?.previousClose ?? top.last, tick))
    }

    /// The top of the book at a time without the session's statistics (what fills, marks and margin checks read),
    /// or `nil` before the data starts.
    public static func top(_ instrument: SimulatedInstrument, at now: Timestamp) -> TopOfBook? {
        let series = instrument.series
        guard let i = series.barIndex(atOrBefore: now.nanoseconds), let raw = series.price(at: now) else { return nil }
        let tick = instrument.minTick.units
        let last = Price(units: raw.units.rounded(toMultipleOf: tick))
        let spreadTicks = Self.spreadTicks(last, tick: tick, currencyPair: Self.isPair(instrument.kind))
        let bid = Price(units: last.units - spreadTicks / 2 * tick)
        let ask = Price(units: bid.units + spreadTicks * tick)
        let trading = series.isTrading(at: now)
        let window = series.windows[i]
        let intervals = max(1, (window.end - window.start) / interval.nanoseconds)
        let perInterval = series.bars[i].volume.units / intervals
        // A pair's volume in the data is a count of price changes, not currency: IDEALPRO shows millions at a price.
        let size = if case .forex = instrument.kind {
            Quantity(Self.currencyQuoteSize)
        } else {
            Quantity(max(100, (perInterval / 100_000_000 / 100) * 100))
        }
        let liquidity = if case .forex = instrument.kind {
            size
        } else {
            Quantity(units: max(size.units, series.bars[i].volume.units / FixedPoint.scale * FixedPoint.scale))
        }
        let recent = series.tradedVolume(bar: i, by: now.nanoseconds)
            - series.tradedVolume(bar: i, by: now.nanoseconds - interval.nanoseconds)
        let lastSize = Quantity(max(100, (recent.wholeUnits / 100) * 100))
        return TopOfBook(
            time: now, last: last, bid: bid, ask: ask, size: size, liquidity: liquidity, lastSize: trading ? lastSize : .zero,
            isTrading: trading)
    }

    private static func round(_ price: Price, _ tick: Int64) -> Price {
        Price(units: price.units.rounded(toMultipleOf: tick))
    }
}
