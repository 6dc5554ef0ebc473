/// Parquet's `DELTA_BINARY_PACKED` encoding of 64-bit integers: the first value, then blocks of 128 deltas, each
/// block stored as its smallest delta and four miniblocks of 32 (delta − smallest) bit-packed at the miniblock's
/// width. Bar times a minute apart take about a bit each, and prices that move by cents a byte or two, against eight
/// bytes in `PLAIN`.
///
/// Arithmetic wraps, as the format specifies, so any `Int64` sequence round-trips.
enum DeltaBinaryPacked {
    static let blockSize = 128
    static let miniblocks = 4
    static let miniblockSize = 32

    static func encode(_ values: [Int64]) -> [UInt8] {
        var out: [UInt8] = []
        VarInt.append(UInt64(blockSize), to: &out)
        VarInt.append(UInt64(miniblocks), to: &out)
        VarInt.append(UInt64(values.count), to: &out)
        VarInt.append(VarInt.zigzag(values.first ?? 0), to: &out)
        guard values.count > 1 else { return out }
        var deltas = [Int64](repeating: 0, count: blockSize)
        var index = 1
        while index < values.count {
            let count = min(blockSize, values.count - index)
            var smallest = Int64.max
            for k in 0..<count {
                deltas[k] = values[index + k] &- values[index + k - 1]
                smallest = min(smallest, deltas[k])
            }
            VarInt.append(VarInt.zigzag(smallest), to: &out)
            let used = (count + miniblockSize - 1) / miniblockSize
            var widths = [UInt8](repeating: 0, count: miniblocks)
            for m in 0..<used {
                var widest: UInt64 = 0
                for k in m * miniblockSize..<min(count, (m + 1) * miniblockSize) {
                    widest |= UInt64(bitPattern: deltas[k] &- smallest)
                }
                widths[m] = UInt8(64 - widest.leadingZeroBitCount)
            }
            out += widths
            for m in 0..<used {
                // The last miniblock is padded to 32 values; the padding packs as zero.
                var packer = BitPacker(width: Int(widths[m]))
                for k in m * miniblockSize..<(m + 1) * miniblockSize {
                    packer.append(k < count ? UInt64(bitPattern: deltas[k] &- smallest) : 0, into: &out)
                }
                packer.flush(into: &out)
            }
            index += count
        }
        return out
    }

    struct Malformed: Error { var reason: String }

    /// Decodes `expected` values from `bytes[start..<end]`; returns the values and where the encoding ended.
    static func decode(
        _ bytes: [UInt8], from start: Int, to end: Int, expected: Int
    ) throws(Malformed) -> (values: [Int64], end: Int) {
        var reader = ByteReader(bytes: bytes, position: start, end: end)
        let block = Int(clamping: try reader.varint())
        let perBlock = Int(clamping: try reader.varint())
        let total = Int(clamping: try reader.varint())
        guard perBlock > 0, block > 0, block % 128 == 0, perBlock <= block / 32, block / perBlock % 32 == 0, block <= 1 << 20
        else {
            throw Malformed(reason: "block of \(block) values in \(perBlock) miniblocks")
        }
        guard total == expected else { throw Malformed(reason: "\(total) values where the page holds \(expected)") }
        let miniblockSize = block / perBlock
        var values: [Int64] = []
        values.reserveCapacity(min(total, (end - start) * 8 + 1))
        guard total > 0 else { return ([], reader.position) }
        var last = VarInt.unzigzag(try reader.varint())
        values.append(last)
        try bytes.withUnsafeBufferPointer { (buffer) throws(Malformed) in
            while values.count < total {
                let smallest = VarInt.unzigzag(try reader.varint())
                let widthsAt = reader.position
                guard reader.end - widthsAt >= perBlock else { throw Malformed(reason: "a block's bit widths past the end") }
                reader.position += perBlock
                for m in 0..<perBlock where values.count < total {
                    let width = Int(buffer[widthsAt + m])
                    guard width <= 64 else { throw Malformed(reason: "a bit width of \(width)") }
                    let byteCount = width * miniblockSize / 8
                    guard reader.end - reader.position >= byteCount else { throw Malformed(reason: "a miniblock past the end") }
                    let take = min(miniblockSize, total - values.count)
                    var bit = reader.position * 8
                    for _ in 0..<take {
                        last = last &+ smallest &+ Int64(bitPattern: BitUnpacker.value(buffer, bit: bit, width: width))
                        values.append(last)
                        bit += width
                    }
                    reader.position += byteCount
                }
            }
        }
        return (values, reader.position)
    }

}

/// Packs values of `width` bits, least significant bit first (Parquet's bit-packing order).
struct BitPacker {
    let width: Int
    private var buffer: UInt128 = 0
    private var filled = 0

    init(width: Int) { self.width = width }

    mutating func append(_ value: UInt64, into bytes: inout [UInt8]) {
        guard width > 0 else { return }
        let masked = width == 64 ? value : value & ((1 << UInt64(width)) - 1)
        // Fewer than 8 bits wait in the buffer, so 64 more always fit in 128.
        buffer |= UInt128(masked) << filled
        filled += width
        while filled >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            filled -= 8
        }
    }

    mutating func flush(into bytes: inout [UInt8]) {
        if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        filled = 0
    }
}

/// Reads values of `width` bits, least significant bit first. The caller checks the value's bytes are there.
enum BitUnpacker {
    /// The `width`-bit value starting at bit `bit` of `buffer`.
    @inline(__always)
    static func value(_ buffer: UnsafeBufferPointer<UInt8>, bit: Int, width: Int) -> UInt64 {
        guard width > 0 else { return 0 }
        let byte = bit >> 3
        let shift = UInt64(bit & 7)
        var word: UInt64
        if byte + 8 <= buffer.count, let base = buffer.baseAddress {
            word = UnsafeRawPointer(base + byte).loadUnaligned(as: UInt64.self).littleEndian
        } else {
            word = 0
            for k in 0..<min(8, buffer.count - byte) { word |= UInt64(buffer[byte + k]) << UInt64(8 * k) }
        }
        var result = word >> shift
        // A value wider than 56 bits can reach into a ninth byte (which then exists: the value ends in it).
        if width + Int(shift) > 64 { result |= UInt64(buffer[byte + 8]) << (64 - shift) }
        return width == 64 ? result : result & ((1 << UInt64(width)) - 1)
    }
}

struct ByteReader {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    mutating func byte() throws(DeltaBinaryPacked.Malformed) -> UInt8 {
        guard position < end else { throw DeltaBinaryPacked.Malformed(reason: "ends early") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint() throws(DeltaBinaryPacked.Malformed) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw DeltaBinaryPacked.Malformed(reason: "a varint longer than 10 bytes") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }
}
