import TradingModel

/// What a drain found in the intent log: the intact order groups, oldest first, and whatever it had to skip.
struct IntentLogContents: Equatable, Sendable {
    var groups: [[JournalIntent]] = []
    var damage: [IntentLogDamage] = []
    /// Where the records end (the end marker, or the end of the bytes read), as a file offset: the next append's.
    var end = 0
}

/// Bytes of the intent log that are not an intact record: a frame torn by a crash mid-append (only ever the tail),
/// or damaged on disk. They are skipped, and the drain journals an `error` event naming them.
public struct IntentLogDamage: Hashable, Sendable, CustomStringConvertible {
    /// Where the skipped bytes start in the log.
    public var offset: Int
    /// How many bytes were skipped.
    public var length: Int
    /// Why.
    public var reason: String

    public var description: String { "\(length) bytes at offset \(offset) skipped: \(reason)" }
}

extension IntentLogCodec {
    /// Reads every frame of a log up to its end marker (zero bytes where the next frame would start; what lies
    /// beyond it are records of an earlier round, already drained). Where a frame is not intact (torn header or payload, no marker, a length out of
    /// range, a checksum mismatch) the bytes up to the next frame marker are skipped as one damage and reading goes
    /// on from there (a marker that happens to sit inside damaged bytes fails its own checksum in turn); an intact
    /// frame whose content cannot be read is skipped by its length. So no intact frame is lost to damage elsewhere.
    /// - Parameters:
    ///   - bytes: the log's bytes from `base` on.
    ///   - base: their offset in the file (damage is reported in file offsets).
    static func decode(_ bytes: UnsafeRawBufferPointer, base: Int = 0) -> IntentLogContents {
        var contents = IntentLogContents()
        // Damage at the tail stops where the zeros of the preallocated space start.
        var tail = bytes.count
        while tail > 0, bytes[tail - 1] == 0 { tail -= 1 }
        var offset = 0
        while offset < bytes.count {
            let remaining = bytes.count - offset
            if isEndMarker(bytes, at: offset) { break }
            let problem: String
            if remaining < headerSize {
                problem = "torn frame header (\(remaining) of \(headerSize) bytes)"
            } else if !isMarker(bytes, at: offset) {
                problem = "no frame marker"
            } else {
                var header = ByteReader(bytes: bytes, offset: offset + magic.count)
                let length = Int(header.u32() ?? 0)
                let checksum = header.u32() ?? 0
                if length > maxPayload {
                    problem = "frame length \(length) out of range"
                } else if length > remaining - headerSize {
                    problem = "torn frame (\(remaining - headerSize) of \(length) payload bytes)"
                } else {
                    let start = offset + headerSize
                    let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)])
                    if CRC32.checksum(payload) == checksum {
                        if let group = decodePayload(payload) {
                            contents.groups.append(group)
                        } else {
                            contents.damage.append(
                                .init(
                                    offset: base + offset, length: headerSize + length,
                                    reason: "unreadable record (version or field)"))
                        }
                        offset = start + length
                        continue
                    }
                    problem = "checksum mismatch"
                }
            }
            let next = nextMarker(bytes, after: offset) ?? max(tail, offset + 1)
            contents.damage.append(.init(offset: base + offset, length: next - offset, reason: problem))
            offset = next
        }
        contents.end = base + min(offset, bytes.count)
        return contents
    }

    /// The end marker: `endMarker.count` zero bytes (fewer at the end of the file) where a frame would start.
    private static func isEndMarker(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let count = min(endMarker.count, bytes.count - offset)
        return (0..<count).allSatisfy { bytes[offset + $0] == 0 }
    }

    private static func isMarker(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        offset + magic.count <= bytes.count && magic.indices.allSatisfy { bytes[offset + $0] == magic[$0] }
    }

    private static func nextMarker(_ bytes: UnsafeRawBufferPointer, after offset: Int) -> Int? {
        var candidate = offset + 1
        while candidate + magic.count <= bytes.count {
            if isMarker(bytes, at: candidate) { return candidate }
            candidate += 1
        }
        return nil
    }

    /// One frame's order group; `nil` for an unknown version or a field out of range (never a default value).
    static func decodePayload(_ payload: UnsafeRawBufferPointer) -> [JournalIntent]? {
        var reader = ByteReader(bytes: payload, offset: 0)
        guard reader.u8() == version, let count = reader.u16() else { return nil }
        var group: [JournalIntent] = []
        group.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let intent = decodeIntent(&reader) else { return nil }
            group.append(intent)
        }
        return reader.offset == payload.count ? group : nil
    }

    private static func decodeIntent(_ reader: inout ByteReader) -> JournalIntent? {
        guard let ref = reader.string(), let symbol = reader.string(), let sideTag = reader.u8(),
            let quantity = reader.i64(), let type = decodeType(&reader), let lifetime = reader.u8(),
            let present = reader.u8()
        else { return nil }
        let side: Side
        switch sideTag {
        case 0: side = .buy
        case 1: side = .sell
        default: return nil
        }
        let timeInForce: TimeInForce
        switch lifetime {
        case 0: timeInForce = .day
        case 1: timeInForce = .gtc
        case 2: timeInForce = .ioc
        default: return nil
        }
        guard present & ~7 == 0 else { return nil }
        var parent: String?
        var oca: String?
        var strategy: String?
        if present & 1 != 0 { guard let text = reader.string() else { return nil }; parent = text }
        if present & 2 != 0 { guard let text = reader.string() else { return nil }; oca = text }
        if present & 4 != 0 { guard let text = reader.string() else { return nil }; strategy = text }
        guard let created = reader.i64() else { return nil }
        var request = OrderRequest(
            instrument: InstrumentID(0), side: side, quantity: Quantity(units: quantity), type: type,
            timeInForce: timeInForce)
        request.ocaGroup = oca
        var intent = JournalIntent(
            orderRef: ClientOrderID(ref), symbol: Symbol(symbol), request: request,
            createdAt: Timestamp(nanoseconds: created))
        intent.parentRef = parent.map { ClientOrderID($0) }
        intent.strategy = strategy
        return intent
    }

    private static func decodeType(_ reader: inout ByteReader) -> OrderType? {
        switch reader.u8() {
        case 0: return .market
        case 1: return reader.i64().map { .limit(Price(units: $0)) }
        case 2: return reader.i64().map { .stop(Price(units: $0)) }
        case 3:
            guard let stop = reader.i64(), let limit = reader.i64() else { return nil }
            return .stopLimit(stop: Price(units: stop), limit: Price(units: limit))
        case 4: return reader.i64().map { .trailingAmount(Price(units: $0)) }
        case 5: return reader.u64().map { .trailingPercent(Double(bitPattern: $0)) }
        case 6:
            guard let trail = reader.i64(), let offset = reader.i64() else { return nil }
            return .trailingLimit(trail: Price(units: trail), limitOffset: Price(units: offset))
        default: return nil
        }
    }
}

/// Bounds-checked little-endian reads; every read is `nil` past the end.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    mutating func u8() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() -> UInt16? { integer(UInt16.self) }
    mutating func u32() -> UInt32? { integer(UInt32.self) }
    mutating func u64() -> UInt64? { integer(UInt64.self) }
    mutating func i64() -> Int64? { u64().map { Int64(bitPattern: $0) } }

    mutating func string() -> String? {
        guard let count = u16().map(Int.init), count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]), as: UTF8.self)
    }

    private mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard size <= bytes.count - offset else { return nil }
        var value: T = 0
        for k in 0..<size { value |= T(bytes[offset + k]) << (8 * k) }
        offset += size
        return value
    }
}
