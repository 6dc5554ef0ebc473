import TradingModel

/// The intent log's record format: one frame per order group, little-endian, hand-written (no `Codable`, no
/// formatters: the append sits between the strategy's decision and the order frame).
///
/// ```
/// log      = frame… | end marker (4 zero bytes) | whatever an earlier round left (already in SQLite)
/// frame    = magic "IBTI" (4) | payload length (u32) | CRC-32 of the payload (u32) | payload
/// payload  = version 1 (u8) | intent count (u16) | intent…
/// intent   = orderRef (str) | symbol (str) | side (u8: 0 BUY, 1 SELL) | quantity units (i64)
///            | type (u8 tag + prices, see `appendType`) | time in force (u8: 0 DAY, 1 GTC, 2 IOC)
///            | optionals (u8 bits: 1 parentRef, 2 ocaGroup, 4 strategy) | the present ones (str each)
///            | createdAt nanoseconds (i64)
/// str      = UTF-8 byte count (u16) | bytes
/// ```
///
/// The CRC covers the payload, so a frame torn by a crash (short header, short payload) or damaged on disk is
/// recognised; `decode` keeps every intact frame and reports the rest as damage.
enum IntentLogCodec {
    static let magic: [UInt8] = Array("IBTI".utf8)
    /// Written after every frame (in the same write) and at offset 0 when the log is emptied: reading stops here.
    static let endMarker: [UInt8] = [0, 0, 0, 0]
    static let headerSize = 12
    static let version: UInt8 = 1
    /// Far above any order group (a bracket of 3 is ≈ 200 bytes); a larger length is damage, not a record.
    static let maxPayload = 1 << 20

    /// Why a group cannot be encoded.
    enum EncodeError: Error, Equatable {
        case fieldTooLong(String)
        case tooManyIntents(Int)
    }

    /// Appends one frame holding `group` to `buffer` (which may already hold other bytes).
    static func appendFrame(_ group: [JournalIntent], to buffer: inout [UInt8]) throws(EncodeError) {
        guard group.count <= Int(UInt16.max) else { throw .tooManyIntents(group.count) }
        let start = buffer.count
        buffer.append(contentsOf: magic)
        buffer.append(contentsOf: repeatElement(0, count: headerSize - magic.count))  // length and CRC, below
        buffer.append(version)
        put(UInt16(group.count), &buffer)
        for intent in group { try appendIntent(intent, to: &buffer) }
        let payload = buffer.count - start - headerSize
        guard payload <= maxPayload else { throw .fieldTooLong("order group of \(payload) bytes") }
        let crc = buffer.withUnsafeBytes { bytes in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[(start + headerSize)...]))
        }
        patch(UInt32(payload), at: start + 4, &buffer)
        patch(crc, at: start + 8, &buffer)
    }

    private static func appendIntent(_ intent: JournalIntent, to buffer: inout [UInt8]) throws(EncodeError) {
        try putString(intent.orderRef.rawValue, "orderRef", &buffer)
        try putString(intent.symbol.rawValue, "symbol", &buffer)
        buffer.append(intent.side == .buy ? 0 : 1)
        put(UInt64(bitPattern: intent.quantity.units), &buffer)
        appendType(intent.type, to: &buffer)
        switch intent.timeInForce {
        case .day: buffer.append(0)
        case .gtc: buffer.append(1)
        case .ioc: buffer.append(2)
        }
        var present: UInt8 = 0
        if intent.parentRef != nil { present |= 1 }
        if intent.ocaGroup != nil { present |= 2 }
        if intent.strategy != nil { present |= 4 }
        buffer.append(present)
        if let parent = intent.parentRef { try putString(parent.rawValue, "parentRef", &buffer) }
        if let oca = intent.ocaGroup { try putString(oca, "ocaGroup", &buffer) }
        if let strategy = intent.strategy { try putString(strategy, "strategy", &buffer) }
        put(UInt64(bitPattern: intent.createdAt.nanoseconds), &buffer)
    }

    /// Tag, then its prices in units (i64) or the trail percent (f64 bits): 0 MKT, 1 LMT limit, 2 STP stop,
    /// 3 STP LMT stop limit, 4 TRAIL amount, 5 TRAIL percent, 6 TRAIL LIMIT trail offset.
    private static func appendType(_ type: OrderType, to buffer: inout [UInt8]) {
        switch type {
        case .market:
            buffer.append(0)
        case .limit(let price):
            buffer.append(1)
            put(UInt64(bitPattern: price.units), &buffer)
        case .stop(let price):
            buffer.append(2)
            put(UInt64(bitPattern: price.units), &buffer)
        case .stopLimit(let stop, let limit):
            buffer.append(3)
            put(UInt64(bitPattern: stop.units), &buffer)
            put(UInt64(bitPattern: limit.units), &buffer)
        case .trailingAmount(let amount):
            buffer.append(4)
            put(UInt64(bitPattern: amount.units), &buffer)
        case .trailingPercent(let percent):
            buffer.append(5)
            put(percent.bitPattern, &buffer)
        case .trailingLimit(let trail, let offset):
            buffer.append(6)
            put(UInt64(bitPattern: trail.units), &buffer)
            put(UInt64(bitPattern: offset.units), &buffer)
        }
    }

    private static func putString(_ text: String, _ field: String, _ buffer: inout [UInt8]) throws(EncodeError) {
        let utf8 = text.utf8
        guard utf8.count <= Int(UInt16.max) else { throw .fieldTooLong("\(field) of \(utf8.count) bytes") }
        put(UInt16(utf8.count), &buffer)
        buffer.append(contentsOf: utf8)
    }

    private static func put<T: FixedWidthInteger>(_ value: T, _ buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    }

    private static func patch(_ value: UInt32, at offset: Int, _ buffer: inout [UInt8]) {
        for k in 0..<4 { buffer[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
    }
}
