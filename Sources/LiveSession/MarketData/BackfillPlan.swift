import JournalModel
import TradingEngine
import TradingModel

/// What a back-fill may fetch: the bar size, the longest gap filled in full, and the span re-warmed beyond it.
public struct BackfillPolicy: Sendable, Equatable {
    /// IB's bar size text (`5 secs`, `1 min`): the warm-up's.
    public var barSize: String
    /// The longest gap back-filled in full (`data.maxBackfill`).
    public var maximum: TimeSpan
    /// Beyond `maximum`: the most recent span fetched, so the indicators warm up again (the run's warm-up span).
    public var rewarm: TimeSpan
    /// The trading hours (empty: every instant counts). Closed hours in a gap are not missed bars: a reconnect after
    /// IB's nightly restart and before the open back-fills nothing, and a gap across a night is measured against
    /// `maximum` by its trading time and fetched without requests for the night.
    public var sessions: SessionTimes

    /// Creates a policy.
    public init(barSize: String, maximum: TimeSpan, rewarm: TimeSpan, sessions: SessionTimes = SessionTimes()) {
        self.barSize = barSize
        self.maximum = maximum
        self.rewarm = rewarm
        self.sessions = sessions
    }
}

/// The historical requests that fetch the bars missed during an outage, and the choice of which of their bars to
/// feed. Pure: the runner passes the last slice it closed, the server's time and the policy.
///
/// The gap runs from the last closed slice to the server's "now". A gap up to `policy.maximum` is fetched in full;
/// a longer one only for its most recent `policy.rewarm` (the run's warm-up span): the indicators warm up again as
/// at start-up, the older bars stay missing and `isTruncated` says so (the runner raises an ALERT). Either way the
/// span is cut into requests no longer than IB accepts for the bar size (`ChunkPolicy`: one hour of 5-second bars),
/// each with an explicit UTC end; `requests` is oldest first. The connection paces them (historical pacing: at most
/// 5 per contract in 2 s and 60 in 10 minutes), so a long gap over many instruments can take minutes.
///
/// Of the answers, only bars after each instrument's last bar seen and already complete at `serverNow` are fed (a
/// bar still forming would stand in for the live one that follows), merged by time then instrument.
public struct BackfillPlan: Sendable, Equatable {
    /// One reqHistoricalData: `duration` of bars ending at `end`.
    public struct Request: Sendable, Equatable {
        /// The end of the period (UTC).
        public var end: Timestamp
        /// The IB duration text, `N S` (or IB's whole-chunk duration for coarse bars, e.g. `1 W`).
        public var duration: String

        /// `yyyyMMdd-HH:mm:ss`, IB's explicit-UTC form of `endDateTime`.
        public var endDateTime: String { TWSTimeParser.utcText(end) }
    }

    /// The requests, oldest first.
    public var requests: [Request]
    /// The bar length.
    public var barLength: TimeSpan
    /// The last slice the engine closed before the gap.
    public var lastClosed: Timestamp
    /// The server's time when the plan was made (bars ending after it are dropped).
    public var serverNow: Timestamp
    /// The oldest time fetched: `lastClosed` unless truncated.
    public var start: Timestamp
    /// Whether the gap was longer than the maximum (the bars between `lastClosed` and `start` are not fetched).
    public var isTruncated: Bool

    /// The outage as the engine sees it: from the last closed slice to the server's time.
    public var gap: TimeSpan { serverNow - lastClosed }

    /// Plans a back-fill; `nil` when no complete bar can be missing or the bar size cannot be read.
    /// - Parameters:
    ///   - lastClosed: the time of the last bar slice the engine saw.
    ///   - serverNow: the server's current time (reqCurrentTime).
    ///   - policy: bar size, full-fill maximum and re-warm span.
    public static func make(from lastClosed: Timestamp, to serverNow: Timestamp, policy: BackfillPolicy) -> BackfillPlan? {
        guard let length = barLength(policy.barSize), length.nanoseconds > 0, lastClosed > .zero else { return nil }
        // The bar after `lastClosed` is complete at `lastClosed + 2 bars`.
        let twoBars = TimeSpan(nanoseconds: 2 * length.nanoseconds)
        guard serverNow - lastClosed >= twoBars else { return nil }
        let known = policy.sessions.knownDays
        /// The part of a span in trading hours (all of it when no hours are known).
        func trading(_ from: Timestamp, _ to: Timestamp) -> TimeSpan {
            FeedWatch.tradingTime(from: from, to: to, sessions: policy.sessions, known: known)
        }
        // No complete bar in trading hours after the one at `lastClosed`: nothing was missed.
        guard trading(lastClosed + length, serverNow) >= length else { return nil }
        let gap = serverNow - lastClosed
        // Beyond the maximum (of trading time) only the re-warm span (never less than two bars, never more than the
        // gap).
        let covered = trading(lastClosed, serverNow) <= policy.maximum ? gap : min(gap, max(policy.rewarm, twoBars))
        let start = serverNow - covered
        // One bar more than the span, so the bar at `start` itself is in the answer (selection drops what was seen).
        let total = covered.nanoseconds + length.nanoseconds
        let chunk = BarSize(policy.barSize).map(ChunkPolicy.init(barSize:))
        let chunkSpan = chunk.map { $0.span.nanoseconds } ?? total
        var requests: [Request] = []
        var remaining = total
        var end = serverNow
        while remaining > 0 {
            let part = min(remaining, chunkSpan)
            let seconds = (part + Timestamp.nanosecondsPerSecond - 1) / Timestamp.nanosecondsPerSecond
            // IB takes `N S` up to a day; coarser chunks ask for the policy's own whole-chunk duration.
            let duration = seconds <= 86_400 ? "\(seconds) S" : (chunk?.requestDuration ?? "\(seconds) S")
            // A chunk wholly in closed hours (a night, a weekend) has no bars to ask for.
            if trading(end - TimeSpan(nanoseconds: part), end) > .zero {
                requests.append(Request(end: end, duration: duration))
            }
            remaining -= part
            end = end - TimeSpan(nanoseconds: part)
        }
        return BackfillPlan(
            requests: requests.reversed(), barLength: length, lastClosed: lastClosed, serverNow: serverNow,
            start: start, isTruncated: covered < gap)
    }

    /// The bars to feed, in order: after each instrument's last bar seen, complete at `serverNow`, by time then
    /// instrument, each (instrument, time) once (chunks may overlap by a bar).
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
