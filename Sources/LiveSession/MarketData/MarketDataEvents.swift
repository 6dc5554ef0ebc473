import TWSProtocol
import TradingEngine
import TradingModel

/// A bar subscription: 5-second real-time bars of each instrument.
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

/// What a bar subscription reports to the session core.
public enum IBMarketDataEvent: Sendable, Equatable, Codable {
    /// An instrument's 5-second bar as it came (stamped with its start, UTC): the core closes the slices
    /// (`BarSliceAssembler`), so the session log and replay see that decision.
    case bar(InstrumentID, Bar)
    /// A bar or a closed slice for the engine, as the bar feed made them before the core closed the slices (session
    /// logs before 2026-11-27; replayed as they are).
    case engine(EngineEventValue)
    /// A bar that could not be mapped (dropped, never defaulted).
    case malformedBar(InstrumentID, IBMappingError)
    /// A notice about an instrument's subscription (e.g. 10167 delayed data).
    case notice(InstrumentID, TWSNotice)
}

/// What an `IBQuoteFeed` reports.
public enum IBQuoteEvent: Sendable, Equatable, Codable {
    /// A new top of book for the engine.
    case quote(InstrumentID, Quote)
    /// A notice about an instrument's line (e.g. 10167 showing delayed data).
    case notice(InstrumentID, TWSNotice)
    /// The instrument's line was refused live and asked again with delayed data, as the quote feed decided in
    /// session logs before 2026-11-27 (the core decides now: `SessionInput.quotesFailed`).
    case fellBackToDelayed(InstrumentID)
    /// The instrument's halt status (TWS's HALTED tick): halted, or trading (`nil`). Sent when a line opens and
    /// whenever it changes.
    case halt(InstrumentID, TradingHalt?)
}
