/// CRC-32 (IEEE 802.3, the zlib/PNG one: reflected polynomial 0xEDB88320), table-driven: the intent log's frame
/// checksum. A few hundred bytes per order group cost well under a microsecond.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { (index: UInt32) -> UInt32 in
        var value = index
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The checksum of `bytes` ("123456789" → 0xCBF43926).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
