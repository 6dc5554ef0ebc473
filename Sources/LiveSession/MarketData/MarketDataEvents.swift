import TWSProtocol
import TradingEngine
import TradingModel

/// What an `IBMarketDataFeed` subscribes to.
public struct RealTimeBarSubscription: Sendable, Hashable, Codable {
    /// The instruments.
    public var instruments: [InstrumentID]
    /// `TRADES` (default), `MIDPOINT`, `BID` or `ASK`.
    public var whatToShow: String
    /// Regular trading hours only (default `true`).
    public var useRegularTradingHours: Bool

    /// Creates a subscription.
    public init(instruments: [InstrumentID], whatToShow: String = "TRADES", useRegularTradingHours: Bool = true) {
        self.instruments = instruments
        self.whatToShow = whatToShow
        self.useRegularTradingHours = useRegularTradingHours
    }
}

/// What an `IBMarketDataFeed` reports.
public enum IBMarketDataEvent: Sendable, Equatable, Codable {
    /// A bar or a closed slice for the engine.
    case engine(EngineEventValue)
    /// A bar that could not be mapped (dropped, never defaulted).
    case malformedBar(InstrumentID, IBMappingError)
    /// A notice about an instrument's subscription (e.g. 10167 delayed data).
    case notice(InstrumentID, TWSNotice)

    /// The engine event, `nil` for the other cases.
    public var engineEvent: EngineEvent? {
        guard case .engine(let value) = self else { return nil }
        switch value {
        case .bar(let id, let bar): return .bar(id, bar)
        case .barsClosed(let time): return .barsClosed(time)
        }
    }
}

/// What an `IBQuoteFeed` reports.
public enum IBQuoteEvent: Sendable, Equatable, Codable {
    /// A new top of book for the engine.
    case quote(InstrumentID, Quote)
    /// A notice about an instrument's line (e.g. 10167 showing delayed data).
    case notice(InstrumentID, TWSNotice)
    /// The instrument's line was refused live and asked again with delayed data.
    case fellBackToDelayed(InstrumentID)
    /// The instrument's halt status (TWS's HALTED tick): halted, or trading (`nil`). Sent when a line opens and
    /// whenever it changes.
    case halt(InstrumentID, TradingHalt?)
}
