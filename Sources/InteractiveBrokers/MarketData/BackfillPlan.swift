import TradingModel

/// The historical request that fetches the bars missed during an outage, and the choice of which of its bars to
/// feed. Pure: the runner passes the last bars seen and the server's time.
///
/// The gap runs from the last closed slice to the server's "now"; the request asks for that span plus one bar
/// (capped at `maximum`: an older part stays missing and `isTruncated` says so). Of the answer, only bars after
/// each instrument's last bar seen and already complete at `serverNow` are fed (a bar still forming would stand
/// in for the live one that follows), merged by time then instrument.
public struct BackfillPlan: Sendable, Equatable {
    /// The IB duration text, `N S`.
    public var duration: String
    /// The bar length.
    public var barLength: TimeSpan
    /// The server's time when the plan was made (bars ending after it are dropped).
    public var serverNow: Timestamp
    /// Whether the gap was longer than the maximum (older missing bars are not fetched).
    public var isTruncated: Bool

    /// Plans a back-fill; `nil` when no complete bar can be missing.
    /// - Parameters:
    ///   - lastClosed: the time of the last bar slice the engine saw.
    ///   - serverNow: the server's current time (reqCurrentTime).
    ///   - barSize: IB's bar size text (`5 secs`, `1 min`); `nil` plan when it cannot be read.
    ///   - maximum: the longest span requested.
    public static func make(
        lastClosed: Timestamp, serverNow: Timestamp, barSize: String, maximum: TimeSpan
    ) -> BackfillPlan? {
        guard let length = barLength(barSize), length.nanoseconds > 0, lastClosed > .zero else { return nil }
        // The bar after `lastClosed` is complete at `lastClosed + 2 bars`.
        guard serverNow - lastClosed >= TimeSpan(nanoseconds: 2 * length.nanoseconds) else { return nil }
        var span = TimeSpan(nanoseconds: (serverNow - lastClosed).nanoseconds + length.nanoseconds)
        let truncated = span > maximum
        if truncated { span = maximum }
        let seconds = (span.nanoseconds + Timestamp.nanosecondsPerSecond - 1) / Timestamp.nanosecondsPerSecond
        return BackfillPlan(duration: "\(seconds) S", barLength: length, serverNow: serverNow, isTruncated: truncated)
    }

    /// The bars to feed, in order: after each instrument's last bar seen, complete at `serverNow`, by time then
    /// instrument, each (instrument, time) once.
    /// - Parameters:
    ///   - bars: the historical answers per instrument.
    ///   - lastSeen: each instrument's last bar time (indexed by instrument).
    public func select(_ bars: [(InstrumentID, Bar)], lastSeen: [Timestamp]) -> [(InstrumentID, Bar)] {
        var seen: Set<[Int64]> = []
        var out: [(InstrumentID, Bar)] = []
        for (id, bar) in bars {
            guard id.index >= 0, id.index < lastSeen.count, bar.timestamp > lastSeen[id.index],
                bar.timestamp + barLength <= serverNow,
                seen.insert([Int64(id.index), bar.timestamp.nanoseconds]).inserted
            else { continue }
            out.append((id, bar))
        }
        out.sort { $0.1.timestamp == $1.1.timestamp ? $0.0.index < $1.0.index : $0.1.timestamp < $1.1.timestamp }
        return out
    }

    /// IB's bar size text as a span (`5 secs`, `1 min`, `2 mins`, `1 hour`, `1 day`).
    public static func barLength(_ text: String) -> TimeSpan? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let n = Int64(parts[0]), n > 0 else { return nil }
        switch parts[1].lowercased() {
        case "sec", "secs": return .seconds(n)
        case "min", "mins": return .minutes(n)
        case "hour", "hours": return .hours(n)
        case "day", "days": return .days(n)
        default: return nil
        }
    }
}
