/// The documented ranges of wire values that the layers above do arithmetic on (ids they increment, times they
/// scale to nanoseconds). A message with a value outside them does not decode: it is logged and skipped like any
/// malformed message (`TWSDecodingError.outOfRange`), so no hostile or corrupt frame can make a later step trap.
public enum TWSValueRange {
    /// A Java `int` on the wire (order, client and parent ids: manual TWS orders have 0 or negative ids).
    public static let javaInt: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)
    /// The order ids an API client uses and nextValidId hands out: 1…2³¹−1.
    public static let orderIDs: ClosedRange<Int> = 1...Int(Int32.max)
    /// Epoch seconds of the years 1970…2200 (`1970-01-01T00:00:00Z`…`2200-12-31T23:59:59Z`).
    public static let epochSeconds: ClosedRange<Int64> = 0...7_289_654_399
    /// The bands of one market rule (marketRule's count; IB's rules have a handful).
    public static let marketRuleBands: ClosedRange<Int> = 0...1_000
    /// A market rule's low edges and increments: finite, not negative, and below 10⁹ (a fixed-point `Price` holds
    /// them; TWS's unset double is not a price).
    public static let marketRulePrices: ClosedRange<Double> = 0...1e9
}
