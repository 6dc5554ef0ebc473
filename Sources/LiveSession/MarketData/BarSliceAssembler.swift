import TradingEngine
import TradingModel

/// Decides when every instrument's bar of one time has arrived, so the engine gets `.barsClosed(t)` once per slice.
///
/// A slice closes when all instruments reported a bar stamped `t`, or when a bar of a later time arrives first
/// (an instrument without a trade in that interval sends no bar). Late bars of an older slice are passed through
/// without closing anything again. Pure.
public struct BarSliceAssembler: Sendable {
    // Membership by instrument index: a `Set` here was rebuilt for every slice and hashed on every bar.
    private let isMember: [Bool]
    private let memberCount: Int
    private var current: Timestamp?
    private var reported: [Bool]
    private var reportedCount = 0
    private var isClosed = false

    /// Creates an assembler for the instruments of a feed.
    public init(instruments: some Sequence<InstrumentID>) {
        var isMember: [Bool] = []
        var count = 0
        for id in instruments where id.index >= 0 {
            if id.index >= isMember.count { isMember += repeatElement(false, count: id.index + 1 - isMember.count) }
            if !isMember[id.index] { count += 1 }
            isMember[id.index] = true
        }
        self.isMember = isMember
        memberCount = count
        reported = Array(repeating: false, count: isMember.count)
    }

    /// Records a bar.
    /// - Returns: the engine events to deliver, in order: possibly `.barsClosed` of the previous slice, the bar, and
    ///   possibly `.barsClosed` of this slice.
    public mutating func add(_ bar: Bar, for id: InstrumentID) -> [EngineEventValue] {
        if let time = current, bar.timestamp < time {
            return [.bar(id, bar)]
        }
        var out: [EngineEventValue] = []
        out.reserveCapacity(3)
        if let time = current, bar.timestamp > time {
            if !isClosed { out.append(.barsClosed(time)) }
            current = nil
        }
        if current == nil {
            current = bar.timestamp
            if reportedCount > 0 {
                for k in reported.indices { reported[k] = false }
                reportedCount = 0
            }
            isClosed = false
        }
        if id.index >= 0, id.index < isMember.count, isMember[id.index], !reported[id.index] {
            reported[id.index] = true
            reportedCount += 1
        }
        out.append(.bar(id, bar))
        if !isClosed, reportedCount == memberCount {
            isClosed = true
            out.append(.barsClosed(bar.timestamp))
        }
        return out
    }
}

/// The subset of engine events a market-data feed produces.
public enum EngineEventValue: Sendable, Hashable, Codable {
    /// A bar closed.
    case bar(InstrumentID, Bar)
    /// Every bar of this time has been delivered.
    case barsClosed(Timestamp)

    /// The engine's event.
    public var engineEvent: EngineEvent {
        switch self {
        case .bar(let id, let bar): .bar(id, bar)
        case .barsClosed(let time): .barsClosed(time)
        }
    }
}
