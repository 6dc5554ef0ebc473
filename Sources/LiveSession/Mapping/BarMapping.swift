import Foundation
import TWSProtocol
import TradingModel

/// TWS bars → domain `Bar`s (UTC). Pure.
///
/// Convention: a bar's `timestamp` is its **start**, as TWS labels bars (real-time bars: the start of the 5-second
/// interval; intraday historical bars: the start of the interval; daily bars: midnight UTC of the exchange date
/// TWS prints, the same dating the backtester uses for daily CSV data). A decision made on a bar is made after its
/// end (`timestamp + bar size`).
public enum BarMapping {
    /// A 5-second real-time bar.
    /// - Throws: `IBMappingError.invalidPrice` / `.invalidQuantity` for non-positive prices or a bad volume.
    public static func bar(_ bar: TWSRealTimeBar) throws(IBMappingError) -> Bar {
        try make(
            time: Timestamp(seconds: bar.time), prices: (bar.open, bar.high, bar.low, bar.close), volume: bar.volume)
    }

    /// A historical bar.
    /// - Parameters:
    ///   - bar: the bar as received.
    ///   - defaultZone: the zone of intraday dates without one (TWS's login zone).
    /// - Throws: `IBMappingError` for a malformed date, non-positive prices or a bad volume.
    public static func bar(_ bar: TWSBar, defaultZone: TimeZone = TWSTimeParser.utc) throws(IBMappingError) -> Bar {
        try make(
            time: TWSTimeParser.timestamp(bar.date, defaultZone: defaultZone),
            prices: (bar.open, bar.high, bar.low, bar.close), volume: bar.volume)
    }

    private static func make(
        time: Timestamp, prices: (Double, Double, Double, Double), volume: Decimal?
    ) throws(IBMappingError) -> Bar {
        let open = try WireNumbers.price(prices.0, field: "open")
        let high = try WireNumbers.price(prices.1, field: "high")
        let low = try WireNumbers.price(prices.2, field: "low")
        let close = try WireNumbers.price(prices.3, field: "close")
        // TWS reports -1 as the volume of MIDPOINT/BID/ASK bars: no volume, which is zero traded, not unknown data.
        let quantity: Quantity
        if let volume, volume == -1 {
            quantity = .zero
        } else {
            quantity = try WireNumbers.quantity(volume, field: "volume")
            guard quantity.units >= 0 else { throw .invalidQuantity(field: "volume", value: quantity.description) }
        }
        return Bar(timestamp: time, open: open, high: high, low: low, close: close, volume: quantity)
    }
}
