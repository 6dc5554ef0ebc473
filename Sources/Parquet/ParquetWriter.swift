/// Writes a `ParquetTable` as a Parquet file: uncompressed or with a codec the caller supplies
/// (`ParquetCompression`), one or more row groups, data pages (version 1) of at most
/// `pageRows` values, statistics (min and max) on every column chunk so readers can skip row groups by time.
///
/// The files open in pyarrow, DuckDB and Polars with the columns' logical types (timestamps and decimals); the suite
/// checks that with the PyPI packages.
public enum ParquetWriter {
    /// The file's bytes.
    /// - Parameters:
    ///   - table: columns of equal length.
    ///   - encoding: how values are encoded.
    ///   - rowGroupRows: rows per row group.
    ///   - pageRows: values per data page.
    ///   - compression: the codec every page is compressed with (`nil`: uncompressed).
    /// - Precondition: every column has `table.rowCount` values (a programming error otherwise, not user input).
    public static func write(
        _ table: ParquetTable, encoding: ParquetEncoding = .deltaBinaryPacked, rowGroupRows: Int = 1 << 20,
        pageRows: Int = 1 << 16, compression: ParquetCompression? = nil
    ) -> [UInt8] {
        precondition(table.columns.allSatisfy { $0.values.count == table.rowCount }, "columns of unequal length")
        precondition(rowGroupRows > 0 && pageRows > 0)
        var file: [UInt8] = Array("PAR1".utf8)
        var rowGroups: [RowGroupRecord] = []
        var start = 0
        repeat {
            let end = min(table.rowCount, start + rowGroupRows)
            var chunks: [ChunkRecord] = []
            for column in table.columns {
                chunks.append(writeChunk(
                    column.values[start..<end], encoding: encoding, pageRows: pageRows, compression: compression,
                    into: &file))
            }
            rowGroups.append(RowGroupRecord(rows: end - start, chunks: chunks))
            start = end
        } while start < table.rowCount
        let footer = footer(table, rowGroups: rowGroups, encoding: encoding, codec: compression?.code ?? 0)
        file += footer
        let length = UInt32(footer.count)
        file += [UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24)]
        file += Array("PAR1".utf8)
        return file
    }

    struct ChunkRecord {
        var offset: Int
        /// Bytes in the file (compressed pages) and once decompressed (headers included in both).
        var size: Int
        var uncompressedSize: Int
        var values: Int
        var min: Int64?
        var max: Int64?
    }

    struct RowGroupRecord {
        var rows: Int
        var chunks: [ChunkRecord]
    }

    private static func writeChunk(
        _ values: ArraySlice<Int64>, encoding: ParquetEncoding, pageRows: Int, compression: ParquetCompression?,
        into file: inout [UInt8]
    ) -> ChunkRecord {
        let offset = file.count
        var uncompressed = 0
        var start = values.startIndex
        repeat {
            let end = min(values.endIndex, start + pageRows)
            let page = encoded(Array(values[start..<end]), encoding)
            let stored = compression?.compress(page) ?? page
            var header = ThriftCompactWriter()
            header.i32(1, 0)  // DATA_PAGE
            header.i32(2, Int32(page.count))
            header.i32(3, Int32(stored.count))
            header.struct(5) { data in
                data.i32(1, Int32(end - start))
                data.i32(2, encoding.code)
                data.i32(3, 3)  // RLE (no levels: every column is required)
                data.i32(4, 3)
            }
            header.stop()
            file += header.bytes
            file += stored
            uncompressed += header.bytes.count + page.count
            start = end
        } while start < values.endIndex
        return ChunkRecord(
            offset: offset, size: file.count - offset, uncompressedSize: uncompressed, values: values.count,
            min: values.min(), max: values.max())
    }

    private static func encoded(_ values: [Int64], _ encoding: ParquetEncoding) -> [UInt8] {
        switch encoding {
        case .deltaBinaryPacked:
            return DeltaBinaryPacked.encode(values)
        case .plain:
            return values.map { $0.littleEndian }.withUnsafeBytes { Array($0) }
        }
    }

    private static func footer(
        _ table: ParquetTable, rowGroups: [RowGroupRecord], encoding: ParquetEncoding, codec: Int64
    ) -> [UInt8] {
        var meta = ThriftCompactWriter()
        meta.i32(1, 2)
        let root = [SchemaLeaf?.none]
        meta.structList(2, root + table.columns.map { SchemaLeaf(column: $0) }) { element, leaf in
            guard let leaf else {
                element.string(4, "schema")
                element.i32(5, Int32(table.columns.count))
                return
            }
            leaf.write(into: &element)
        }
        meta.i64(3, Int64(table.rowCount))
        meta.structList(4, rowGroups) { group, record in
            group.structList(1, Array(zip(table.columns, record.chunks))) { chunk, pair in
                let (column, written) = pair
                chunk.i64(2, Int64(written.offset))
                chunk.struct(3) { data in
                    data.i32(1, 2)  // INT64
                    data.i32List(2, [encoding.code])
                    data.stringList(3, [column.name])
                    data.i32(4, Int32(codec))
                    data.i64(5, Int64(written.values))
                    data.i64(6, Int64(written.uncompressedSize))
                    data.i64(7, Int64(written.size))
                    data.i64(9, Int64(written.offset))
                    if let low = written.min, let high = written.max {
                        data.struct(12) { statistics in
                            statistics.i64(3, 0)
                            statistics.binary(5, littleEndian(high))
                            statistics.binary(6, littleEndian(low))
                        }
                    }
                }
            }
            group.i64(2, Int64(record.chunks.reduce(0) { $0 + $1.uncompressedSize }))
            group.i64(3, Int64(record.rows))
            group.i64(5, Int64(record.chunks.first?.offset ?? 4))
            group.i64(6, Int64(record.chunks.reduce(0) { $0 + $1.size }))
        }
        if !table.metadata.isEmpty {
            meta.structList(5, table.metadata.sorted { $0.key < $1.key }) { entry, pair in
                entry.string(1, pair.key)
                entry.string(2, pair.value)
            }
        }
        meta.string(6, "ibtrader")
        // Every column ordered by its type (signed integers), so readers trust min_value and max_value.
        meta.structList(7, table.columns) { order, _ in order.struct(1) { _ in } }
        meta.stop()
        return meta.bytes
    }

    static func littleEndian(_ value: Int64) -> [UInt8] {
        let raw = UInt64(bitPattern: value)
        return (0..<8).map { UInt8(truncatingIfNeeded: raw >> (8 * UInt64($0))) }
    }
}

extension ParquetEncoding {
    /// Parquet's `Encoding` enum value.
    var code: Int32 {
        switch self {
        case .plain: 0
        case .deltaBinaryPacked: 5
        }
    }
}

/// A column's schema element.
struct SchemaLeaf {
    var column: ParquetColumn

    func write(into element: inout ThriftCompactWriter) {
        element.i32(1, 2)  // INT64
        element.i32(3, 0)  // REQUIRED
        element.string(4, column.name)
        switch column.kind {
        case .int64:
            break
        case .timestampNanosecondsUTC:
            element.struct(10) { logical in
                logical.struct(8) { timestamp in
                    timestamp.bool(1, true)
                    timestamp.struct(2) { unit in unit.struct(3) { _ in } }
                }
            }
        case .decimal(let precision, let scale):
            element.i32(6, 5)  // DECIMAL
            element.i32(7, Int32(scale))
            element.i32(8, Int32(precision))
            element.struct(10) { logical in
                logical.struct(5) { decimal in
                    decimal.i32(1, Int32(scale))
                    decimal.i32(2, Int32(precision))
                }
            }
        }
    }
}
