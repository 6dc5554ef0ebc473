import Foundation
import Testing
import TradingModel

@testable import Storage

/// The intent log's frames: every field of every order type survives the round trip, and a frame torn at any byte
/// or damaged anywhere is reported as damage while every intact frame is kept.
struct IntentLogCodecTests {
    static let types: [OrderType] = [
        .market, .limit(Price("187.25")!), .stop(Price("180")!),
        .stopLimit(stop: Price("180")!, limit: Price("179.5")!), .trailingAmount(Price("1.25")!),
        .trailingPercent(0.75), .trailingLimit(trail: Price("2")!, limitOffset: Price("0.1")!),
    ]

    /// An intent with every optional field set (or none), a non-ASCII strategy and a negative-looking price.
    static func intent(_ ref: String, type: OrderType, full: Bool) -> JournalIntent {
        var request = OrderRequest(
            instrument: InstrumentID(3), side: full ? .sell : .buy, quantity: Quantity(units: 123_456_789),
            type: type, timeInForce: full ? .gtc : .ioc)
        request.ocaGroup = full ? "OCA-7" : nil
        var intent = JournalIntent(
            orderRef: ClientOrderID(ref), symbol: "BRK B", request: request,
            createdAt: Timestamp(nanoseconds: 1_709_303_460_123_456_789))
        intent.parentRef = full ? "IBT:R4:parent" : nil
        intent.strategy = full ? "momentum-é✓" : nil
        return intent
    }

    static func frame(_ group: [JournalIntent]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try IntentLogCodec.appendFrame(group, to: &bytes)
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> IntentLogContents {
        bytes.withUnsafeBytes { IntentLogCodec.decode($0) }
    }

    @Test func theChecksumIsCRC32() {
        let check = Array("123456789".utf8).withUnsafeBytes { CRC32.checksum($0) }
        #expect(check == 0xCBF4_3926)
    }

    @Test(arguments: types)
    func everyOrderTypeRoundTrips(type: OrderType) throws {
        // One group holding the full and the bare variant, then a second group: two frames back to back.
        let group = [Self.intent("IBT:R4:1", type: type, full: true), Self.intent("IBT:R4:2", type: type, full: false)]
        let other = [Self.intent("IBT:R4:3", type: .market, full: false)]
        let decoded = Self.decode(try Self.frame(group) + Self.frame(other))
        #expect(decoded.damage.isEmpty)
        #expect(decoded.groups == [group, other])
        // The decoder rebuilds through `JournalIntent.init(request:)`: compare the fields, not only equality.
        let first = try #require(decoded.groups.first?.first)
        #expect(first.type == type && first.side == .sell && first.timeInForce == .gtc)
        #expect(first.ocaGroup == "OCA-7" && first.parentRef == "IBT:R4:parent" && first.strategy == "momentum-é✓")
        #expect(first.quantity == Quantity(units: 123_456_789) && first.symbol == "BRK B")
        #expect(first.createdAt == Timestamp(nanoseconds: 1_709_303_460_123_456_789))
    }

    @Test func aFrameTornAtAnyByteKeepsTheFramesBeforeIt() throws {
        let kept = [
            [Self.intent("A", type: .market, full: true)], [Self.intent("B", type: .limit(Price("1")!), full: false)],
        ]
        let head = try Self.frame(kept[0]) + Self.frame(kept[1])
        let tail = try Self.frame([Self.intent("C", type: .trailingPercent(1), full: true)])
        for cut in 1..<tail.count {
            let decoded = Self.decode(head + tail.prefix(cut))
            #expect(decoded.groups == kept, "cut at \(cut)")
            #expect(decoded.damage.count == 1 && decoded.damage.first?.offset == head.count, "cut at \(cut)")
            // The damage stops where trailing zeros start (the preallocated space a torn write leaves behind).
            var written = cut
            while written > 1, tail[written - 1] == 0 { written -= 1 }
            #expect(decoded.damage.first?.length == written && decoded.end == head.count + written, "cut at \(cut)")
            #expect(decoded.damage.first?.reason.contains("torn") == true, "cut at \(cut)")
        }
    }

    @Test func aFrameWithABadChecksumIsSkippedAndTheNextOneRead() throws {
        let a = try Self.frame([Self.intent("A", type: .market, full: false)])
        var b = try Self.frame([Self.intent("B", type: .market, full: false)])
        let c = try Self.frame([Self.intent("C", type: .market, full: false)])
        for position in [IntentLogCodec.headerSize, b.count - 1, 8] {  // first and last payload byte, the CRC itself
            var damaged = b
            damaged[position] ^= 0x40
            let decoded = Self.decode(a + damaged + c)
            #expect(decoded.groups.map { $0.map(\.orderRef) } == [["A"], ["C"]], "byte \(position)")
            #expect(decoded.damage == [IntentLogDamage(offset: a.count, length: b.count, reason: "checksum mismatch")])
        }
        // A damaged marker or length: the bytes up to the next marker are skipped, the frame after them is read.
        var length = b
        length[5] ^= 0x10  // the payload length, now longer than the bytes left
        b[0] = UInt8(ascii: "X")
        for (damaged, reason) in [(b, "no frame marker"), (length, "torn frame")] {
            let decoded = Self.decode(a + damaged + c)
            #expect(decoded.groups.map { $0.map(\.orderRef) } == [["A"], ["C"]], "\(reason)")
            #expect(decoded.damage.map(\.offset) == [a.count] && decoded.damage.map(\.length) == [b.count])
            #expect(decoded.damage.first?.reason.hasPrefix(reason) == true, "\(decoded.damage)")
        }
    }

    @Test func damageIsReportedInFileOffsetsWhenDecodingFromAnOffset() throws {
        let frame = try Self.frame([Self.intent("A", type: .market, full: false)])
        let decoded = Self.decode(frame).groups
        #expect(decoded.count == 1)
        let cut = IntentLogCodec.headerSize + 6  // version, count, the orderRef's length and first byte
        #expect(frame[cut - 1] != 0)
        let torn = Array(frame.prefix(cut)).withUnsafeBytes { IntentLogCodec.decode($0, base: 1_000) }
        let reason = "torn frame (6 of \(frame.count - IntentLogCodec.headerSize) payload bytes)"
        #expect(torn.damage == [IntentLogDamage(offset: 1_000, length: cut, reason: reason)])
        #expect(torn.end == 1_000 + cut)
    }

    @Test func aRecordWithAnUnknownVersionOrTagIsDamageNotADefault() throws {
        var frame = try Self.frame([Self.intent("A", type: .market, full: false)])
        frame[IntentLogCodec.headerSize] = 9  // version
        // Re-seal it so only the content is wrong.
        let crc = frame.withUnsafeBytes { bytes in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[IntentLogCodec.headerSize...]))
        }
        for k in 0..<4 { frame[8 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
        let decoded = Self.decode(frame)
        #expect(decoded.groups.isEmpty)
        #expect(decoded.damage.first?.reason == "unreadable record (version or field)")
    }

    @Test func aFieldLongerThanTheFormatAllowsIsRefused() {
        var bytes: [UInt8] = []
        let long = Self.intent(String(repeating: "x", count: 70_000), type: .market, full: false)
        #expect(throws: IntentLogCodec.EncodeError.self) { try IntentLogCodec.appendFrame([long], to: &bytes) }
    }
}
