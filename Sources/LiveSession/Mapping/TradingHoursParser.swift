import Foundation
import TWSProtocol
import TradingEngine
import TradingModel

/// Reads a contract's trading or liquid hours (`TWSContractDetails.liquidHours`) into sessions by day, so the
/// strategy's bars start at the open and a daily bar closes at the close (`BarAggregator`).
///
/// TWS writes `20240102:0930-20240102:1600;20240103:0930-20240103:1600;20240106:CLOSED` in the contract's
/// `timeZoneId` (older servers: `20240102:0930-1600`). Closed days and parts that do not read are skipped: the
/// aggregator then falls back to clock-aligned buckets for those days.
public enum TradingHoursParser {
    /// The sessions in `hours`, in the zone `zoneID` (UTC when the zone is unknown).
    public static func sessions(_ hours: String, zoneID: String) -> SessionTimes {
        let zone = (try? TWSTimeParser.timeZone(named: zoneID)) ?? TWSTimeParser.utc
        var sessions: [SessionTimes.Session] = []
        for part in hours.split(separator: ";") {
            for range in part.split(separator: ",") {
                if let session = session(String(range), zone: zone) { sessions.append(session) }
            }
        }
        return SessionTimes(sessions)
    }

    /// One `yyyyMMdd:HHmm-yyyyMMdd:HHmm` (or `yyyyMMdd:HHmm-HHmm`) range.
    static func session(_ text: String, zone: TimeZone) -> SessionTimes.Session? {
        let ends = text.split(separator: "-", maxSplits: 1).map(String.init)
        guard ends.count == 2, let open = instant(ends[0], dateOf: nil, zone: zone) else { return nil }
        let openDate = ends[0].split(separator: ":").first.map(String.init)
        guard let close = instant(ends[1], dateOf: openDate, zone: zone), close > open else { return nil }
        return SessionTimes.Session(open: open, close: close)
    }

    /// `yyyyMMdd:HHmm`, or `HHmm` on the date `dateOf`.
    private static func instant(_ text: String, dateOf: String?, zone: TimeZone) -> Timestamp? {
        let parts = text.split(separator: ":").map(String.init)
        let date: String
        let time: String
        switch parts.count {
        case 2:
            (date, time) = (parts[0], parts[1])
        case 1:
            guard let dateOf else { return nil }
            (date, time) = (dateOf, parts[0])
        default:
            return nil
        }
        guard date.count == 8, time.count == 4, let y = Int(date.prefix(4)), let m = Int(date.dropFirst(4).prefix(2)),
            let d = Int(date.suffix(2)), let hh = Int64(time.prefix(2)), let mm = Int64(time.suffix(2)),
            (1...12).contains(m), (1...31).contains(d), hh <= 24, mm < 60
        else { return nil }
        let local = Timestamp(
            nanoseconds: CivilDate.dayNumber(year: y, month: m, day: d) * Timestamp.nanosecondsPerDay
                + (hh * 3600 + mm * 60) * Timestamp.nanosecondsPerSecond)
        return TWSTimeParser.utcInstant(ofLocal: local, in: zone)
    }
}
