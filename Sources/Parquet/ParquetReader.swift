/// Reads Parquet files of required 32- and 64-bit integer columns, `PLAIN` or `DELTA_BINARY_PACKED`, in data pages
/// of version 1 or 2, uncompressed or with a codec the caller supplies (`ParquetCompression`): what `ParquetWriter`
/// writes, and what other writers write when asked for no dictionary. Anything else is a `ParquetError` that says
/// what the file uses.
///
/// Every offset and length in the file is checked against its size, so a truncated or corrupt file is an error.
public enum ParquetReader {
    /// Reads a file.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - columns: the names to read (`nil`: every column). Others are skipped without decoding.
    ///   - codecs: the codecs compressed pages may use (a page in another is an error that names it).
    /// - Throws: `ParquetError` naming what is wrong or unsupported.
    public static func read(
        _ bytes: [UInt8], columns wanted: Set<String>? = nil, codecs: [ParquetCompression] = []
    ) throws(ParquetError) -> ParquetTable {
        let meta = try footer(bytes)
        let leaves = try schema(meta)
        guard let rowGroups = meta.structs(4) else { throw ParquetError("the footer lists no row groups") }
        let rows = meta.int(3) ?? 0
        guard rows >= 0, rows <= Int64(bytes.count) * 64 else { throw ParquetError("the footer claims \(rows) rows") }
        var columns = leaves.map { ParquetColumn(name: $0.name, kind: $0.kind, values: []) }
        for (number, group) in rowGroups.enumerated() {
            guard let chunks = group.structs(1), chunks.count == leaves.count else {
                throw ParquetError("row group \(number) has not one chunk per column")
            }
            let groupRows = group.int(3) ?? -1
            for (index, chunk) in chunks.enumerated() where wanted?.contains(leaves[index].name) ?? true {
                let values = try readChunk(chunk, leaf: leaves[index], bytes: bytes, codecs: codecs)
                guard values.count == groupRows else {
                    throw ParquetError("column '\(leaves[index].name)' has \(values.count) values in a row group of \(groupRows) rows")
                }
                // One row group (a catalogue file): the decoded array itself, not a copy of it.
                if columns[index].values.isEmpty { columns[index].values = values } else { columns[index].values += values }
            }
        }
        if let wanted { columns = columns.filter { wanted.contains($0.name) } }
        var metadata: [String: String] = [:]
        for entry in meta.structs(5) ?? [] {
            if let key = entry.string(1) { metadata[key] = entry.string(2) ?? "" }
        }
        return ParquetTable(columns: columns, metadata: metadata)
    }

    struct Leaf {
        var name: String
        var kind: ParquetColumn.Kind
        var physical: Int64
    }

    static func footer(_ bytes: [UInt8]) throws(ParquetError) -> ThriftStruct {
        guard bytes.count >= 12, bytes.prefix(4).elementsEqual("PAR1".utf8), bytes.suffix(4).elementsEqual("PAR1".utf8)
        else {
            if bytes.suffix(4).elementsEqual("PARE".utf8) { throw ParquetError("the file is encrypted (PARE)") }
            throw ParquetError("not a Parquet file (it does not begin and end with PAR1)")
        }
        let lengthAt = bytes.count - 8
        let length = (0..<4).reduce(0) { $0 | Int(bytes[lengthAt + $1]) << (8 * $1) }
        guard length > 0, length <= lengthAt - 4 else { throw ParquetError("the footer's length (\(length)) is past the file") }
        var reader = ThriftCompactReader(bytes, from: lengthAt - length, to: lengthAt)
        do {
            return try reader.readStruct()
        } catch {
            throw ParquetError("the footer is malformed: \(error.reason)")
        }
    }

    static func schema(_ meta: ThriftStruct) throws(ParquetError) -> [Leaf] {
        guard let elements = meta.structs(2), let root = elements.first else { throw ParquetError("the footer has no schema") }
        let children = Int(root.int(5) ?? 0)
        guard children == elements.count - 1 else {
            throw ParquetError("nested columns are not read here (the schema is not flat)")
        }
        var leaves: [Leaf] = []
        for element in elements.dropFirst() {
            let name = element.string(4) ?? "?"
            guard element.int(5) == nil else { throw ParquetError("column '\(name)' is nested; only flat files are read") }
            guard element.int(3) ?? 0 == 0 else {
                throw ParquetError("column '\(name)' may hold nulls; only required columns are read (write it as non-nullable)")
            }
            let physical = element.int(1) ?? -1
            guard physical == 1 || physical == 2 else {
                throw ParquetError("column '\(name)' is of physical type \(physicalName(physical)); only INT32 and INT64 are read")
            }
            leaves.append(Leaf(name: name, kind: kind(element), physical: physical))
        }
        return leaves
    }

    private static func kind(_ element: ThriftStruct) -> ParquetColumn.Kind {
        if let logical = element.struct(10) {
            if let timestamp = logical.struct(8), timestamp.struct(2)?.struct(3) != nil, timestamp.bool(1) == true {
                return .timestampNanosecondsUTC
            }
            if let decimal = logical.struct(5) {
                return .decimal(precision: Int(decimal.int(2) ?? 18), scale: Int(decimal.int(1) ?? 0))
            }
        }
        if element.int(6) == 5 {
            return .decimal(precision: Int(element.int(8) ?? 18), scale: Int(element.int(7) ?? 0))
        }
        return .int64
    }

    private static func readChunk(
        _ chunk: ThriftStruct, leaf: Leaf, bytes: [UInt8], codecs: [ParquetCompression]
    ) throws(ParquetError) -> [Int64] {
        guard chunk.string(1) == nil else { throw ParquetError("column '\(leaf.name)' is in another file") }
        guard let data = chunk.struct(3) else { throw ParquetError("column '\(leaf.name)' has no metadata") }
        let code = data.int(4) ?? 0
        let codec = code == 0 ? nil : codecs.first { $0.code == code }
        guard code == 0 || codec != nil else {
            let readable = (["UNCOMPRESSED"] + codecs.map(\.name)).joined(separator: " or ")
            let name = ParquetCompression.name(of: code)
            throw ParquetError(
                "column '\(leaf.name)' is compressed with \(name); only \(readable) pages are read", missingCodec: name)
        }
        let total = data.int(5) ?? 0
        let footerStart = bytes.count - 8
        var offset = Int(clamping: data.int(11) ?? data.int(9) ?? -1)
        guard total >= 0, offset >= 4, offset < footerStart else {
            throw ParquetError("column '\(leaf.name)' begins outside the file")
        }
        var values: [Int64] = []
        while values.count < total {
            var headerReader = ThriftCompactReader(bytes, from: offset, to: footerStart)
            let header: ThriftStruct
            do { header = try headerReader.readStruct() } catch {
                throw ParquetError("column '\(leaf.name)': a page header at byte \(offset) is malformed: \(error.reason)")
            }
            let size = Int(clamping: header.int(3) ?? -1)
            let start = headerReader.position
            guard size >= 0, size <= footerStart - start else {
                throw ParquetError("column '\(leaf.name)': a page at byte \(offset) runs past the file")
            }
            let pageValues: [Int64]
            switch header.int(1) {
            case 0:
                guard let page = header.struct(5) else { throw ParquetError("column '\(leaf.name)': a data page without its header") }
                if let codec {
                    let plain = try expand(bytes[start..<start + size], header.int(2), values: page.int(1), codec, leaf)
                    pageValues = try decode(plain, 0, plain.count, page.int(1), page.int(2), leaf)
                } else {
                    pageValues = try decode(bytes, start, start + size, page.int(1), page.int(2), leaf)
                }
            case 3:
                guard let page = header.struct(8) else { throw ParquetError("column '\(leaf.name)': a data page without its header") }
                let levels = Int(clamping: (page.int(5) ?? 0) + (page.int(6) ?? 0))
                guard levels >= 0, levels <= size else { throw ParquetError("column '\(leaf.name)': levels past the page") }
                // Version 2 leaves the levels uncompressed; the values are compressed unless the page says not.
                if let codec, page.bool(7) != false {
                    let plain = try expand(
                        bytes[start + levels..<start + size], header.int(2).map { $0 &- Int64(levels) }, values: page.int(1),
                        codec, leaf)
                    pageValues = try decode(plain, 0, plain.count, page.int(1), page.int(4), leaf)
                } else {
                    pageValues = try decode(bytes, start + levels, start + size, page.int(1), page.int(4), leaf)
                }
            case 2:
                throw ParquetError("column '\(leaf.name)' is dictionary-encoded; only PLAIN and DELTA_BINARY_PACKED are read")
            default:
                pageValues = []  // index pages and others carry no values
            }
            if values.isEmpty { values = pageValues } else { values += pageValues }
            guard values.count <= total else { throw ParquetError("column '\(leaf.name)' holds more values than it says") }
            offset = start + size
        }
        return values
    }

    /// A compressed page's values, decompressed to the size its header states (at most nine bytes a value and a
    /// little more: no page of integers is larger, so a header cannot make the reader allocate without bound).
    private static func expand(
        _ bytes: ArraySlice<UInt8>, _ size: Int64?, values: Int64?, _ codec: ParquetCompression, _ leaf: Leaf
    ) throws(ParquetError) -> [UInt8] {
        guard let size, let values, size >= 0, values >= 0, values <= Int64(Int32.max), size <= values * 9 + 4096 else {
            throw ParquetError("column '\(leaf.name)': a compressed page's size is missing or impossible")
        }
        switch codec.decompress(bytes, Int(size)) {
        case let .success(plain):
            guard plain.count == Int(size) else {
                throw ParquetError("column '\(leaf.name)': a page decompressed to \(plain.count) bytes, not \(size)")
            }
            return plain
        case let .failure(error):
            throw ParquetError("column '\(leaf.name)': a \(codec.name) page does not decompress: \(error.description)")
        }
    }

    private static func decode(
        _ bytes: [UInt8], _ start: Int, _ end: Int, _ count: Int64?, _ encoding: Int64?, _ leaf: Leaf
    ) throws(ParquetError) -> [Int64] {
        guard let count, count >= 0, count <= Int64(end - start) * 64 + 1 else {
            throw ParquetError("column '\(leaf.name)': a page's value count is missing or impossible")
        }
        switch encoding {
        case 0:
            let width = leaf.physical == 1 ? 4 : 8
            guard Int(count) * width <= end - start else { throw ParquetError("column '\(leaf.name)': a page ends early") }
            return bytes.withUnsafeBytes { raw in
                (0..<Int(count)).map { k in
                    width == 4
                        ? Int64(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: start + k * 4, as: Int32.self)))
                        : Int64(littleEndian: raw.loadUnaligned(fromByteOffset: start + k * 8, as: Int64.self))
                }
            }
        case 5:
            do {
                let decoded = try DeltaBinaryPacked.decode(bytes, from: start, to: end, expected: Int(count))
                return leaf.physical == 1 ? decoded.values.map { Int64(Int32(truncatingIfNeeded: $0)) } : decoded.values
            } catch {
                throw ParquetError("column '\(leaf.name)': \(error.reason)")
            }
        default:
            throw ParquetError(
                "column '\(leaf.name)' uses encoding \(encodingName(encoding ?? -1)); only PLAIN and DELTA_BINARY_PACKED are read")
        }
    }

    private static func physicalName(_ code: Int64) -> String {
        let names = ["BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"]
        return code >= 0 && code < names.count ? names[Int(code)] : "#\(code)"
    }

    private static func encodingName(_ code: Int64) -> String {
        let names = [
            "PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED",
            "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT",
        ]
        return code >= 0 && code < names.count ? names[Int(code)] : "#\(code)"
    }
}

/// What a file's footer says, without reading its pages: for listing a catalogue of many files.
public struct ParquetFileSummary: Sendable, Equatable {
    /// Rows in the file.
    public var rowCount: Int
    /// Each column's smallest and largest value, from the row groups' statistics (absent when a writer gave none).
    public var ranges: [String: ClosedRange<Int64>]
    /// The key-value metadata.
    public var metadata: [String: String]
}

extension ParquetReader {
    /// Bytes at the end of a file that hold the footer's length (and the magic).
    public static let trailerSize = 8

    /// The footer's length from a file's last eight bytes (read those, then `length + 8` from the end).
    /// - Throws: `ParquetError` when they do not end a Parquet file.
    public static func footerLength(trailer: [UInt8]) throws(ParquetError) -> Int {
        guard trailer.count == trailerSize, trailer.suffix(4).elementsEqual("PAR1".utf8) else {
            throw ParquetError("not a Parquet file (it does not end with PAR1)")
        }
        return (0..<4).reduce(0) { $0 | Int(trailer[$1]) << (8 * $1) }
    }

    /// The summary in a file's tail: the footer and the trailer (`footerLength + 8` bytes).
    /// - Throws: `ParquetError` for a malformed footer.
    public static func summary(tail: [UInt8]) throws(ParquetError) -> ParquetFileSummary {
        // The footer parser checks the leading magic; a tail has none, so lend it one.
        let meta = try footer(Array("PAR1".utf8) + tail)
        let leaves = try schema(meta)
        var ranges: [String: ClosedRange<Int64>] = [:]
        for group in meta.structs(4) ?? [] {
            for (index, chunk) in (group.structs(1) ?? []).enumerated() where index < leaves.count {
                guard let statistics = chunk.struct(3)?.struct(12),
                    let low = statistics.binary(6).flatMap(integer), let high = statistics.binary(5).flatMap(integer),
                    low <= high
                else { continue }
                let name = leaves[index].name
                ranges[name] = ranges[name].map { min($0.lowerBound, low)...max($0.upperBound, high) } ?? low...high
            }
        }
        var metadata: [String: String] = [:]
        for entry in meta.structs(5) ?? [] {
            if let key = entry.string(1) { metadata[key] = entry.string(2) ?? "" }
        }
        return ParquetFileSummary(rowCount: Int(clamping: meta.int(3) ?? 0), ranges: ranges, metadata: metadata)
    }

    private static func integer(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count == 8 || bytes.count == 4 else { return nil }
        var raw: UInt64 = 0
        for (k, byte) in bytes.enumerated() { raw |= UInt64(byte) << (8 * UInt64(k)) }
        return bytes.count == 4 ? Int64(Int32(truncatingIfNeeded: raw)) : Int64(bitPattern: raw)
    }
}
