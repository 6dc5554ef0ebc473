/// A market data tick type (PROTOCOL.md §12.2). An open set: unknown ids are kept, never rejected.
public struct TWSTickType: RawRepresentable, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The wire id.
    public var rawValue: Int

    /// Creates a tick type from its wire id.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Tick type 0 (`BID_SIZE`).
    public static let bidSize = TWSTickType(rawValue: 0)
    /// Tick type 1 (`BID`).
    public static let bid = TWSTickType(rawValue: 1)
    /// Tick type 2 (`ASK`).
    public static let ask = TWSTickType(rawValue: 2)
    /// Tick type 3 (`ASK_SIZE`).
    public static let askSize = TWSTickType(rawValue: 3)
    /// Tick type 4 (`LAST`).
    public static let last = TWSTickType(rawValue: 4)
    /// Tick type 5 (`LAST_SIZE`).
    public static let lastSize = TWSTickType(rawValue: 5)
    /// Tick type 6 (`HIGH`).
    public static let high = TWSTickType(rawValue: 6)
    /// Tick type 7 (`LOW`).
    public static let low = TWSTickType(rawValue: 7)
    /// Tick type 8 (`VOLUME`).
    public static let volume = TWSTickType(rawValue: 8)
    /// Tick type 9 (`CLOSE`).
    public static let close = TWSTickType(rawValue: 9)
    /// Tick type 14 (`OPEN`).
    public static let open = TWSTickType(rawValue: 14)
    /// Tick type 21 (`AVG_VOLUME`).
    public static let averageVolume = TWSTickType(rawValue: 21)
    /// Tick type 32 (`BID_EXCH`).
    public static let bidExchange = TWSTickType(rawValue: 32)
    /// Tick type 33 (`ASK_EXCH`).
    public static let askExchange = TWSTickType(rawValue: 33)
    /// Tick type 37 (`MARK_PRICE`).
    public static let markPrice = TWSTickType(rawValue: 37)
    /// Tick type 45 (`LAST_TIMESTAMP`).
    public static let lastTimestamp = TWSTickType(rawValue: 45)
    /// Tick type 46 (`SHORTABLE`).
    public static let shortable = TWSTickType(rawValue: 46)
    /// Tick type 48 (`RT_VOLUME`).
    public static let rtVolume = TWSTickType(rawValue: 48)
    /// Tick type 49 (`HALTED`).
    public static let halted = TWSTickType(rawValue: 49)
    /// Tick type 54 (`TRADE_COUNT`).
    public static let tradeCount = TWSTickType(rawValue: 54)
    /// Tick type 66 (`DELAYED_BID`).
    public static let delayedBid = TWSTickType(rawValue: 66)
    /// Tick type 67 (`DELAYED_ASK`).
    public static let delayedAsk = TWSTickType(rawValue: 67)
    /// Tick type 68 (`DELAYED_LAST`).
    public static let delayedLast = TWSTickType(rawValue: 68)
    /// Tick type 69 (`DELAYED_BID_SIZE`).
    public static let delayedBidSize = TWSTickType(rawValue: 69)
    /// Tick type 70 (`DELAYED_ASK_SIZE`).
    public static let delayedAskSize = TWSTickType(rawValue: 70)
    /// Tick type 71 (`DELAYED_LAST_SIZE`).
    public static let delayedLastSize = TWSTickType(rawValue: 71)
    /// Tick type 72 (`DELAYED_HIGH`).
    public static let delayedHigh = TWSTickType(rawValue: 72)
    /// Tick type 73 (`DELAYED_LOW`).
    public static let delayedLow = TWSTickType(rawValue: 73)
    /// Tick type 74 (`DELAYED_VOLUME`).
    public static let delayedVolume = TWSTickType(rawValue: 74)
    /// Tick type 75 (`DELAYED_CLOSE`).
    public static let delayedClose = TWSTickType(rawValue: 75)
    /// Tick type 76 (`DELAYED_OPEN`).
    public static let delayedOpen = TWSTickType(rawValue: 76)
    /// Tick type 77 (`RT_TRD_VOLUME`).
    public static let rtTradeVolume = TWSTickType(rawValue: 77)
    /// Tick type 84 (`LAST_EXCH`).
    public static let lastExchange = TWSTickType(rawValue: 84)
    /// Tick type 88 (`DELAYED_LAST_TIMESTAMP`).
    public static let delayedLastTimestamp = TWSTickType(rawValue: 88)
    /// Tick type 89 (`SHORTABLE_SHARES`).
    public static let shortableShares = TWSTickType(rawValue: 89)

    /// The size tick the official decoder derives from a price tick's size (bid → bidSize, ...), or `nil` for
    /// price ticks that carry no size.
    public var impliedSizeTickType: TWSTickType? {
        switch rawValue {
        case 1: return .bidSize
        case 2: return .askSize
        case 4: return .lastSize
        case 66: return .delayedBidSize
        case 67: return .delayedAskSize
        case 68: return .delayedLastSize
        default: return nil
        }
    }

    public var description: String { "tickType(\(rawValue))" }
}

/// tickPrice's attribute bits (PROTOCOL.md §6.5).
public struct TWSTickAttributes: OptionSet, Sendable, Hashable {
    /// The wire mask.
    public var rawValue: Int

    /// Creates attributes from the wire mask.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Bit 0.
    public static let canAutoExecute = TWSTickAttributes(rawValue: 1)
    /// Bit 1.
    public static let pastLimit = TWSTickAttributes(rawValue: 2)
    /// Bit 2.
    public static let preOpen = TWSTickAttributes(rawValue: 4)
}
