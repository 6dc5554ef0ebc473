import Analytics
import Storage
import TradingModel

/// `ibtrader data list`: the series of a bar store, as a table or JSON lines.
public enum BarStoreListing {
    /// The listing.
    public static func render(_ summaries: [BarSeriesSummary], store: String, json: Bool) -> String {
        if json {
            return summaries.map { s in
                let members: KeyValuePairs<String, JSONValue> = [
                    "symbol": .string(s.symbol.rawValue), "bar_size": .string(s.barSize.text),
                    "first": .string(Self.timeText(s.first, s.barSize)),
                    "last": .string(Self.timeText(s.last, s.barSize)),
                    "count": .integer(s.count),
                ]
                return JSONLine.render(members)
            }.joined(separator: "\n")
        }
        guard !summaries.isEmpty else { return "\(store): no bars" }
        let rows = summaries.map {
            [
                $0.symbol.rawValue, $0.barSize.text, Self.timeText($0.first, $0.barSize),
                Self.timeText($0.last, $0.barSize), "\($0.count)",
            ]
        }
        return TextTable.render(header: ["symbol", "bar", "first", "last", "bars"], rows: rows, rightAligned: [4])
    }

    /// `YYYY-MM-DD` for daily and longer bars, ISO UTC otherwise.
    public static func timeText(_ t: Timestamp, _ size: BarSize) -> String {
        size.isDailyOrLonger ? String(t.description.prefix(10)) : t.description
    }
}
