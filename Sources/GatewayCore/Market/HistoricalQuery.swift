import TWSProtocol
import TradingModel

/// A parsed reqHistoricalData: bar size, duration and end, and the bars it produces from a series.
///
/// Bars are aggregated from (or, below the data's resolution, sampled along) the series' path: buckets are aligned
/// to multiples of the bar size since the epoch (UTC); `1 day`, `1 week` and `1 month` are made of the instrument's
/// trading days (`TradingDay`: a stock's New York date; a pair's or a future's 17:00-to-17:00 New York day, named
/// by the date it closes on, the weekend in Monday's, as IB's daily bars are), labelled with the day, the week's
/// Monday and the month's 1st. Empty buckets are left out. Nothing after "now" is visible; the last bar may be
/// still forming.
public struct HistoricalQuery: Sendable, Equatable {
    /// What was wrong with a request (sent as errMsg 162/321 text).
    public struct Invalid: Error, Sendable, Equatable {
        /// TWS-style text.
        public var message: String
    }

    /// Bucket kinds.
    public enum BarSize: Sendable, Equatable {
        /// A fixed number of seconds (up to 8 hours).
        case seconds(Int64)
        /// One trading day (`TradingDay`).
        case day
        /// One week of trading days, labelled with its Monday.
        case week
        /// One calendar month.
        case month
    }

    /// The bar size.
    public var barSize: BarSize
    /// Start of the requested range.
    public var start: Timestamp
    /// End of the requested range (at most "now").
    public var end: Timestamp
    /// `TRADES`, `MIDPOINT`, `BID`, `ASK`, `BID_ASK`.
    public var whatToShow: String
    /// 1 text, 2 epoch seconds.
    public var formatDate: Int
    /// IB's `useRTH`: bars of less than a day only from US regular hours (09:30–16:00 New York) of intraday data.
    public var regularHoursOnly = false

    /// Parses a request.
    /// - Parameters:
    ///   - request: the wire request.
    ///   - now: the replay clock.
    /// - Throws: `Invalid` with TWS's text for a bad bar size, duration, end or whatToShow.
    public init(_ request: TWSHistoricalDataRequest, now: Timestamp) throws(Invalid) {
        guard let size = Self.parseBarSize(request.barSizeSetting) else {
            throw Invalid(message: "Historical Market Data Service error message:Bar size is not supported: "
                + request.barSizeSetting)
        }
        let show = request.whatToShow.uppercased()
        guard ["TRADES", "MIDPOINT", "BID", "ASK", "BID_ASK", "ADJUSTED_LAST"].contains(show) else {
            throw Invalid(message: "Historical Market Data Service error message:No data of type \(show) is available")
        }
        var end = now
        if !request.endDateTime.isEmpty {
            guard let parsed = TWSTimeText.parse(request.endDateTime) else {
                throw Invalid(message: "Historical Market Data Service error message:Invalid end date/time: "
                    + request.endDateTime)
            }
            end = min(parsed, now)
        }
        guard let span = Self.parseDuration(request.durationString) else {
            throw Invalid(message: "Historical Market Data Service error message:Invalid duration: "
                + request.durationString)
        }
        barSize = size
        start = end - span
        self.end = end
        whatToShow = show
        formatDate = request.formatDate
        regularHoursOnly = request.useRTH
        if case .seconds(let s) = size, span.nanoseconds / (s * Timestamp.nanosecondsPerSecond) > 200_000 {
            throw Invalid(message: "Historical Market Data Service error message:Historical data request for "
                + "duration longer than the bar size allows")
        }
    }

    /// The bars of an instrument for this query, seen at `now`.
    public func bars(for instrument: SimulatedInstrument, now: Timestamp) -> [TWSBar] {
        var result: [TWSBar] = []
        let rule = TradingDay(kind: instrument.kind)
        var bucket = self.bucket(containing: start, rule)
        let visibleEnd = min(end, now)
        while bucket.start < visibleEnd {
            if shows(instrument, bucket.start),
                let bar = makeBar(instrument, from: bucket.start, to: bucket.end, label: bucket.label, now: visibleEnd)
            {
                result.append(bar)
            }
            bucket = self.bucket(containing: bucket.end, rule)
        }
        return result
    }

    /// Whether a bucket starting at `start` is served: with `regularHoursOnly`, an intraday bucket of a stock's
    /// intraday data only inside a regular session (a daily series has no hours to filter by; futures and currency
    /// pairs trade around the clock, so their liquid hours are all of their trading hours).
    public func shows(_ instrument: SimulatedInstrument, _ start: Timestamp) -> Bool {
        guard regularHoursOnly, case .seconds = barSize, !instrument.series.isDaily, case .stock = instrument.kind
        else { return true }
        return USEquityCalendar.session(at: start)?.kind == .regular
    }

    /// The bar of the bucket containing `now` (for keepUpToDate updates).
    public func currentBar(for instrument: SimulatedInstrument, now: Timestamp) -> TWSBar? {
        let bucket = bucket(containing: now, TradingDay(kind: instrument.kind))
        return makeBar(instrument, from: bucket.start, to: bucket.end, label: bucket.label, now: now)
    }

    /// The bar of `[from, to)` seen at `now`, dated `label`.
    func makeBar(
        _ instrument: SimulatedInstrument, from: Timestamp, to: Timestamp, label: Timestamp, now: Timestamp
    ) -> TWSBar? {
        guard let (bar, count) = instrument.series.summarize(from: from, to: to, now: now) else { return nil }
        let tick = instrument.minTick.units
        let halfSpread = max(tick, Int64((Double(bar.close.units) * QuoteModel.spreadBasisPoints / 20_000)
            .rounded()).rounded(toMultipleOf: tick))
        let shift: Int64
        switch whatToShow {
        // A currency pair's quotes are one tick wide, the bid at the price (`QuoteModel.spreadTicks`).
        case "BID": shift = QuoteModel.isPair(instrument.kind) ? 0 : -halfSpread
        case "ASK": shift = QuoteModel.isPair(instrument.kind) ? tick : halfSpread
        default: shift = 0
        }
        func value(_ p: Price) -> Double { Price(units: (p.units + shift).rounded(toMultipleOf: tick)).doubleValue }
        let isTrades = whatToShow == "TRADES" || whatToShow == "ADJUSTED_LAST"
        let wap = (bar.open.units + bar.high.units + bar.low.units + bar.close.units) / 4
        return TWSBar(
            date: dateText(label), open: value(bar.open), high: value(bar.high), low: value(bar.low),
            close: value(bar.close), volume: isTrades ? Decimal(bar.volume.wholeUnits) : Decimal(-1),
            wap: isTrades ? Decimal(sign: .plus, exponent: -4, significand: Decimal(wap / 10_000)) : Decimal(-1),
            barCount: isTrades ? max(count, 1) : -1)
    }

    /// The text of a bar time: `yyyyMMdd` for day bars and longer, else formatDate 1 or 2.
    public func dateText(_ t: Timestamp) -> String {
        if case .seconds = barSize {
            return formatDate == 2 ? String(TWSTimeText.epochSeconds(t)) : TWSTimeText.zoned(t)
        }
        return TWSTimeText.date(t)
    }

    /// The bucket holding `t`: its label (the bar's date), first instant and the instant after its last.
    func bucket(containing t: Timestamp, _ rule: TradingDay) -> (label: Timestamp, start: Timestamp, end: Timestamp) {
        switch barSize {
        case .seconds(let s):
            let n = s * Timestamp.nanosecondsPerSecond
            let q = t.nanoseconds >= 0 ? t.nanoseconds / n : (t.nanoseconds - n + 1) / n
            let start = Timestamp(nanoseconds: q * n)
            return (start, start, start + .seconds(s))
        case .day: return rule.bucket(of: .day, containing: t)
        case .week: return rule.bucket(of: .week, containing: t)
        case .month: return rule.bucket(of: .month, containing: t)
        }
    }

    /// Parses IB's bar size settings (`1 secs` … `8 hours`, `1 day`, `1 week`, `1 month`).
    public static func parseBarSize(_ text: String) -> BarSize? {
        let parts = text.lowercased().split(separator: " ")
        guard parts.count == 2, let n = Int64(parts[0]), n > 0 else { return nil }
        let unit = parts[1].hasSuffix("s") && parts[1] != "secs" ? String(parts[1].dropLast()) : String(parts[1])
        switch unit {
        case "sec", "secs": return [1, 5, 10, 15, 30].contains(n) ? .seconds(n) : nil
        case "min": return [1, 2, 3, 5, 10, 15, 20, 30].contains(n) ? .seconds(n * 60) : nil
        case "hour": return [1, 2, 3, 4, 8].contains(n) ? .seconds(n * 3600) : nil
        case "day": return n == 1 ? .day : nil
        case "week", "w": return n == 1 ? .week : nil
        case "month": return n == 1 ? .month : nil
        default: return nil
        }
    }

    /// Parses IB's `N S|D|W|M|Y` as a request carries it (`HistoricalDuration(wire:)`: M = 30 days, Y = 365 days,
    /// at most 100 years); `nil` for anything else.
    public static func parseDuration(_ text: String) -> TimeSpan? { HistoricalDuration(wire: text)?.span }
}

import Foundation
