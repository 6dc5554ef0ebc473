import TradingModel

/// Decides when every instrument's bar of one time has arrived, so the engine gets `.barsClosed(t)` once per slice.
///
/// A slice closes when all instruments reported a bar stamped `t`, or when a bar of a later time arrives first
/// (an instrument without a trade in that interval sends no bar). Late bars of an older slice are passed through
/// without closing anything again. Pure.
public struct BarSliceAssembler: Sendable {
    private let instruments: Set<InstrumentID>
    private var current: Timestamp?
    private var reported: Set<InstrumentID> = []
    private var isClosed = false

    /// Creates an assembler for the instruments of a feed.
    public init(instruments: some Sequence<InstrumentID>) {
        self.instruments = Set(instruments)
    }

    /// Records a bar.
    /// - Returns: the engine events to deliver, in order: possibly `.barsClosed` of the previous slice, the bar, and
    ///   possibly `.barsClosed` of this slice.
    public mutating func add(_ bar: Bar, for id: InstrumentID) -> [EngineEventValue] {
        var out: [EngineEventValue] = []
        if let time = current, bar.timestamp < time {
            return [.bar(id, bar)]
        }
        if let time = current, bar.timestamp > time {
            if !isClosed { out.append(.barsClosed(time)) }
            current = nil
        }
        if current == nil {
            current = bar.timestamp
            reported = []
            isClosed = false
        }
        reported.insert(id)
        out.append(.bar(id, bar))
        if !isClosed, instruments.isSubset(of: reported) {
            isClosed = true
            out.append(.barsClosed(bar.timestamp))
        }
        return out
    }
}

/// The subset of engine events a market-data feed produces.
public enum EngineEventValue: Sendable, Hashable {
    /// A bar closed.
    case bar(InstrumentID, Bar)
    /// Every bar of this time has been delivered.
    case barsClosed(Timestamp)
}
