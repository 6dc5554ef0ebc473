/// A market data tick type (PROTOCOL.md §12.2). An open set: unknown ids are kept, never rejected.
public struct TWSTickType: RawRepresentable, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The wire id.
    public var rawValue: Int

    /// Creates a tick type from its wire id.
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let bidSize = TWSTickType(rawValue: 0)
    public static let bid = TWSTickType(rawValue: 1)
    public static let ask = TWSTickType(rawValue: 2)
    public static let askSize = TWSTickType(rawValue: 3)
    public static let last = TWSTickType(rawValue: 4)
    public static let lastSize = TWSTickType(rawValue: 5)
    public static let high = TWSTickType(rawValue: 6)
    public static let low = TWSTickType(rawValue: 7)
    public static let volume = TWSTickType(rawValue: 8)
    public static let close = TWSTickType(rawValue: 9)
    public static let open = TWSTickType(rawValue: 14)
    public static let averageVolume = TWSTickType(rawValue: 21)
    public static let bidExchange = TWSTickType(rawValue: 32)
    public static let askExchange = TWSTickType(rawValue: 33)
    public static let markPrice = TWSTickType(rawValue: 37)
    public static let lastTimestamp = TWSTickType(rawValue: 45)
    public static let shortable = TWSTickType(rawValue: 46)
    public static let rtVolume = TWSTickType(rawValue: 48)
    public static let halted = TWSTickType(rawValue: 49)
    public static let tradeCount = TWSTickType(rawValue: 54)
    public static let delayedBid = TWSTickType(rawValue: 66)
    public static let delayedAsk = TWSTickType(rawValue: 67)
    public static let delayedLast = TWSTickType(rawValue: 68)
    public static let delayedBidSize = TWSTickType(rawValue: 69)
    public static let delayedAskSize = TWSTickType(rawValue: 70)
    public static let delayedLastSize = TWSTickType(rawValue: 71)
    public static let delayedHigh = TWSTickType(rawValue: 72)
    public static let delayedLow = TWSTickType(rawValue: 73)
    public static let delayedVolume = TWSTickType(rawValue: 74)
    public static let delayedClose = TWSTickType(rawValue: 75)
    public static let delayedOpen = TWSTickType(rawValue: 76)
    public static let rtTradeVolume = TWSTickType(rawValue: 77)
    public static let lastExchange = TWSTickType(rawValue: 84)
    public static let delayedLastTimestamp = TWSTickType(rawValue: 88)
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
