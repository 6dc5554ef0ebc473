import Foundation
import TradingModel

/// The session log's compact form of its most frequent steps: a bar (and, in logs before 2026-11-27, a closed slice)
/// and a quote are 9 in 10 of a trading day's inputs, and JSON's Codable path was a fifth of the bot's time in a
/// sandbox run (and a tenth again to read for the drift report). Each is a marker byte no JSON text starts with, a
/// kind byte, then little-endian 64-bit integers (prices and quantities in their 1e-8 units, times in nanoseconds), so
/// it reads back exactly. The tick and the idle tick's actions keep their JSON text, as constants. Every other input
/// stays JSON, and logs written before this form read as before.
enum CompactSessionStep {
    /// The first byte of a compact step (JSON text starts with `{` or `[`).
    static let marker: UInt8 = 0x01

    enum Kind: UInt8 {
        case bar = 1
        case barsClosed = 2
        case quote = 3
        /// A bar as the feed delivered it, before the core closed its slice (`IBMarketDataEvent.bar`).
        case sourceBar = 4

        /// The integers after the kind byte.
        var fields: Int {
            switch self {
            case .bar, .sourceBar: 8  // tag, instrument, time, open, high, low, close, volume
            case .barsClosed: 2  // tag, time
            case .quote: 7  // tag, instrument, time, bid, ask, bid size, ask size
            }
        }
    }

    /// `.tick` as the JSON encoder writes it (a test holds the two equal).
    static let tick = Data(#"{"tick":{}}"#.utf8)
    /// No recorded actions.
    static let noActions = Data("[]".utf8)
    /// The idle tick's actions: the journal's checkpoint alone.
    static let checkpointOnly = Data(#"[{"journal":{"_0":{"checkpoint":{}}}}]"#.utf8)

    /// The compact form of an input, or `nil` for one written as JSON.
    static func encode(_ input: SessionInput) -> Data? {
        switch input {
        case .tick:
            return tick
        case .market(let tag, .bar(let id, let bar)):
            return write(.sourceBar, fields(tag, id, bar))
        case .market(let tag, .engine(.bar(let id, let bar))):
            return write(.bar, fields(tag, id, bar))
        case .market(let tag, .engine(.barsClosed(let time))):
            return write(.barsClosed, [Int64(tag.rawValue), time.nanoseconds])
        case .quotes(let tag, .quote(let id, let quote)):
            return write(.quote, [
                Int64(tag.rawValue), Int64(id.rawValue), quote.timestamp.nanoseconds, quote.bid.units, quote.ask.units,
                quote.bidSize.units, quote.askSize.units,
            ])
        default:
            return nil
        }
    }

    /// The input of a compact step, `nil` for a JSON one.
    /// - Throws: `DecodingError.dataCorrupted` for a compact step of an unknown kind or length.
    static func input(_ data: Data) throws -> SessionInput? {
        if data == tick { return .tick }
        guard data.first == marker else { return nil }
        let bytes = [UInt8](data)
        guard bytes.count >= 2, let kind = Kind(rawValue: bytes[1]), bytes.count == 2 + 8 * kind.fields else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "a compact session-log step of an unknown kind or length (\(bytes.count) bytes)"))
        }
        let f = (0..<kind.fields).map { field in
            (0..<8).reduce(Int64(0)) { value, byte in value | Int64(bytes[2 + field * 8 + byte]) << (8 * byte) }
        }
        guard let tag = Int(exactly: f[0]) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a compact step's tag is out of range"))
        }
        switch kind {
        case .bar, .sourceBar:
            let bar = Bar(
                timestamp: Timestamp(nanoseconds: f[2]), open: Price(units: f[3]), high: Price(units: f[4]),
                low: Price(units: f[5]), close: Price(units: f[6]), volume: Quantity(units: f[7]))
            let id = try instrument(f[1])
            return .market(SessionTag(tag), kind == .bar ? .engine(.bar(id, bar)) : .bar(id, bar))
        case .barsClosed:
            return .market(SessionTag(tag), .engine(.barsClosed(Timestamp(nanoseconds: f[1]))))
        case .quote:
            let quote = Quote(
                timestamp: Timestamp(nanoseconds: f[2]), bid: Price(units: f[3]), ask: Price(units: f[4]),
                bidSize: Quantity(units: f[5]), askSize: Quantity(units: f[6]))
            return .quotes(SessionTag(tag), .quote(try instrument(f[1]), quote))
        }
    }

    /// The recorded actions' constant text when they are none or the idle tick's, else `nil`.
    static func encode(_ actions: [SessionAction]) -> Data? {
        if actions.isEmpty { return noActions }
        if actions.count == 1, case .journal(.checkpoint) = actions[0] { return checkpointOnly }
        return nil
    }

    /// The actions of a constant text, else `nil`.
    static func actions(_ data: Data) -> [SessionAction]? {
        if data == noActions { return [] }
        if data == checkpointOnly { return [.journal(.checkpoint)] }
        return nil
    }

    /// A bar step's integers (both bar kinds): tag, instrument, time, open, high, low, close, volume.
    private static func fields(_ tag: SessionTag, _ id: InstrumentID, _ bar: Bar) -> [Int64] {
        [
            Int64(tag.rawValue), Int64(id.rawValue), bar.timestamp.nanoseconds, bar.open.units, bar.high.units,
            bar.low.units, bar.close.units, bar.volume.units,
        ]
    }

    private static func write(_ kind: Kind, _ fields: [Int64]) -> Data {
        var bytes = [UInt8](repeating: 0, count: 2 + 8 * fields.count)
        bytes[0] = marker
        bytes[1] = kind.rawValue
        for (field, value) in fields.enumerated() {
            for byte in 0..<8 { bytes[2 + field * 8 + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }
        return Data(bytes)
    }

    private static func instrument(_ value: Int64) throws -> InstrumentID {
        guard let raw = Int32(exactly: value) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "a compact step's instrument is out of range"))
        }
        return InstrumentID(raw)
    }
}
