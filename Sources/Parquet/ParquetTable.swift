/// A table of integer columns, the shape of a bar file: every column required (no nulls), one value per row.
public struct ParquetTable: Sendable, Equatable {
    /// The columns, in file order; all hold `rowCount` values.
    public var columns: [ParquetColumn]
    /// The file's key-value metadata (written in key order).
    public var metadata: [String: String]

    /// Creates a table.
    public init(columns: [ParquetColumn], metadata: [String: String] = [:]) {
        self.columns = columns
        self.metadata = metadata
    }

    /// Rows in the table (the first column's count).
    public var rowCount: Int { columns.first?.values.count ?? 0 }

    /// The column named `name`.
    public func column(_ name: String) -> ParquetColumn? { columns.first { $0.name == name } }
}

/// One required 64-bit integer column and what its integers mean.
public struct ParquetColumn: Sendable, Equatable {
    /// What the integers mean, written as Parquet's logical type so other readers show the values, not the integers.
    public enum Kind: Sendable, Hashable {
        /// Plain integers.
        case int64
        /// Nanoseconds since the epoch, UTC (`TIMESTAMP(NANOS, true)`).
        case timestampNanosecondsUTC
        /// A decimal fixed point: the integer is the value × 10^scale (`DECIMAL(precision, scale)`).
        case decimal(precision: Int, scale: Int)
    }

    /// The column's name.
    public var name: String
    /// What the integers mean.
    public var kind: Kind
    /// One value per row.
    public var values: [Int64]

    /// Creates a column.
    public init(name: String, kind: Kind, values: [Int64]) {
        self.name = name
        self.kind = kind
        self.values = values
    }
}

/// How a writer encodes column values.
public enum ParquetEncoding: Sendable, Hashable {
    /// Eight little-endian bytes a value.
    case plain
    /// Deltas bit-packed in blocks of 128: a minute-bar file is about a fifth of its `plain` size.
    case deltaBinaryPacked
}

/// Why a Parquet file could not be read.
public struct ParquetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    public var description: String
    /// The codec a page is compressed with that the reader was not given (`ZSTD`), when that is what is wrong: a
    /// caller can then say what to install.
    public var missingCodec: String?

    init(_ description: String, missingCodec: String? = nil) {
        self.description = description
        self.missingCodec = missingCodec
    }
}
