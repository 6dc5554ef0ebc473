import Foundation
import TWSProtocol

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

extension TWSConnection {
    /// Streams market data (reqMktData) until the consumer stops, which sends cancelMktData. With `snapshot`, the
    /// stream ends after tickSnapshotEnd.
    /// - Parameters:
    ///   - contract: the contract.
    ///   - genericTicks: generic tick ids, e.g. `["233", "236"]`.
    ///   - snapshot: one snapshot instead of a stream.
    /// - Returns: the stream of events and notices.
    /// - Throws: `TWSRequestError.notConnected`; TWS errors (354 not subscribed, 200, …) end the stream.
    public func marketData(
        contract: TWSContract, genericTicks: [String] = [], snapshot: Bool = false
    ) async throws(TWSRequestError) -> AsyncThrowingStream<SubscriptionItem<TWSMarketDataEvent>, any Error> {
        let requestID = nextRequestID()
        let request = TWSMarketDataRequest(
            requestID: requestID, contract: contract, genericTickList: genericTicks.joined(separator: ","),
            snapshot: snapshot
        )
        return try await subscribe(
            .request(requestID), request: .marketData(request), cancel: .cancelMarketData(requestID: requestID),
            options: SubscriptionOptions(finishesOnEnd: snapshot)
        ) { response in
            switch response {
            case .tickPrice(let tick): return .price(tick)
            case .tickSize(_, let type, let size): return .size(type, size)
            case .tickString(_, let type, let value): return .string(type, value)
            case .tickGeneric(_, let type, let value): return .generic(type, value)
            case .marketDataType(_, let type): return .marketDataType(type)
            case .tickRequestParameters(_, let minTick, let exchange, let permissions):
                return .parameters(minTick: minTick, bboExchange: exchange, snapshotPermissions: permissions)
            default: return nil
            }
        }
    }

    /// One market data snapshot (reqMktData with snapshot on), collected until tickSnapshotEnd.
    /// - Parameter contract: the contract.
    /// - Returns: the snapshot.
    /// - Throws: `TWSRequestError` (354 not subscribed: call `setMarketDataType(.delayed)` first).
    public func marketDataSnapshot(contract: TWSContract) async throws(TWSRequestError) -> TWSMarketSnapshot {
        let stream = try await marketData(contract: contract, snapshot: true)
        var snapshot = TWSMarketSnapshot()
        do {
            for try await item in stream {
                switch item {
                case .data(let event): snapshot.apply(event)
                case .notice(let notice): snapshot.notices.append(notice)
                }
            }
        } catch let error as TWSRequestError {
            throw error
        } catch {
            throw .cancelled
        }
        return snapshot
    }
}
