import Foundation

/// One market data update of reqMktData.
public enum TWSMarketDataEvent: Sendable, Equatable {
    /// tickPrice (the size rides along for BID/ASK/LAST and their delayed variants).
    case price(TWSTickPrice)
    /// tickSize.
    case size(TWSTickType, Decimal?)
    /// tickString (timestamps, RT volume, exchanges).
    case string(TWSTickType, String)
    /// tickGeneric (halted, shortable, …).
    case generic(TWSTickType, Double)
    /// marketDataType: 1 live, 2 frozen, 3 delayed, 4 delayed-frozen.
    case marketDataType(Int)
    /// tickReqParams: minimum tick, BBO exchange, snapshot permissions.
    case parameters(minTick: Double, bboExchange: String, snapshotPermissions: Int)
}

/// The values of a market data snapshot, by tick type.
public struct TWSMarketSnapshot: Sendable, Equatable {
    /// Prices by tick type (BID, ASK, LAST, CLOSE, delayed variants, …).
    public var prices: [TWSTickType: Double] = [:]
    /// Sizes by tick type.
    public var sizes: [TWSTickType: Decimal] = [:]
    /// Text ticks by tick type.
    public var strings: [TWSTickType: String] = [:]
    /// Generic ticks by tick type.
    public var generics: [TWSTickType: Double] = [:]
    /// The market data type TWS served (3 = delayed), when it said.
    public var marketDataType: Int?
    /// Notices received meanwhile (e.g. 10167 "displaying delayed data").
    public var notices: [TWSNotice] = []

    /// Creates an empty snapshot.
    public init() {}

    /// Folds one event into the snapshot.
    public mutating func apply(_ event: TWSMarketDataEvent) {
        switch event {
        case .price(let tick):
            prices[tick.tickType] = tick.price
            if let size = tick.size, let sizeType = Self.sizeType(forPriceType: tick.tickType) {
                sizes[sizeType] = size
            }
        case .size(let type, let size): sizes[type] = size
        case .string(let type, let value): strings[type] = value
        case .generic(let type, let value): generics[type] = value
        case .marketDataType(let type): marketDataType = type
        case .parameters: break
        }
    }

    /// The size tick that rides along a price tick (BID → BID_SIZE, delayed 66 → 69, …).
    static func sizeType(forPriceType type: TWSTickType) -> TWSTickType? {
        switch type.rawValue {
        case 1: return .bidSize
        case 2: return .askSize
        case 4: return .lastSize
        case 66, 67, 68: return TWSTickType(rawValue: type.rawValue + 3)
        default: return nil
        }
    }
}
