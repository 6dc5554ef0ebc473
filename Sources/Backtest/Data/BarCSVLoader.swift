import Foundation
import TradingModel

/// What to do with a row that cannot be parsed.
public enum BadRowPolicy: String, Hashable, Sendable, Codable {
    /// Stop with `BarLoadingError` naming the file and line.
    case fail
    /// Skip the row and count it in `LoadedBars.skippedRows`.
    case skip
}

/// A CSV problem, with where it happened.
public struct BarLoadingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Hashable, Sendable {
        /// The file could not be read.
        case unreadable(String)
        /// The first line is not `date,open,high,low,close,volume`.
        case badHeader(String)
        /// A row does not have six fields.
        case wrongFieldCount(Int)
        /// The date is neither `YYYY-MM-DD` nor `YYYY-MM-DDTHH:MM:SSZ`.
        case badDate(String)
        /// A number failed to parse.
        case badNumber(field: String, text: String)
        /// The row's time is not after the previous row's.
        case outOfOrder(String)
        /// A number that parses but does not fit (a price or volume of 92,233,720,368 or more).
        case numberOutOfRange(field: String, text: String)
        /// A row whose values cannot be a bar (the text says why: a price not positive, a high below the low, an open
        /// or close outside low–high, a negative volume).
        case impossibleBar(String)
        /// The file name declares one bar size and the rows' times show another (`BarFileName`).
        case barSizeMismatch(declared: String, found: String)
        /// A quoted field is not closed before the end of its line.
        case unbalancedQuote
    }
    /// File name as given.
    public var file: String
    /// 1-based line number (0 for file-level problems).
    public var line: Int
    /// The problem.
    public var code: Code
    /// Creates an error.
    public init(file: String, line: Int, code: Code) {
        self.file = file
        self.line = line
        self.code = code
    }
    public var description: String { line > 0 ? "\(file):\(line): \(code.sentence)" : "\(file): \(code.sentence)" }
}

/// Bars read from one CSV file.
public struct LoadedBars: Sendable {
    /// Bars in file order.
    public var bars: [Bar]
    /// Rows skipped under `.skip`.
    public var skippedRows: Int
    /// Line numbers of the skipped rows (first 100).
    public var skippedLines: [Int]
}

/// Reads `date,open,high,low,close,volume` files straight from bytes (no per-field `String`s).
///
/// Dates are `YYYY-MM-DD` (midnight UTC) or `YYYY-MM-DDTHH:MM:SSZ` (UTC), real days from 1900 to 2200. Numbers are
/// plain decimals with at most 8 decimals (exponent notation is accepted and rounded to 1e-8), below 92233720368.
/// Prices must be positive with the high at least the low and the open and close between them, volumes not
/// negative. Prices are used as given: no split adjustment.
/// Files are read in 1 MiB chunks: peak memory is the bars plus one chunk, not the file's text as well.
///
/// ```swift
/// let loaded = try BarCSVLoader.load(path: "data/GOOG_1d.csv")
/// ```
public enum BarCSVLoader {
    /// Bytes read per chunk.
    static let chunkSize = 1 << 20

    /// Loads a file.
    /// - Parameters:
    ///   - path: file path.
    ///   - policy: fail on the first bad row (default) or skip and count bad rows.
    /// - Throws: `BarLoadingError`.
    public static func load(path: String, policy: BadRowPolicy = .fail) throws(BarLoadingError) -> LoadedBars {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BarLoadingError(file: path, line: 0, code: .unreadable("cannot open file"))
        }
        defer { try? handle.close() }
        // `pending` holds the unparsed tail of the previous chunk followed by the new chunk.
        var pending: [UInt8] = []
        pending.reserveCapacity(chunkSize + 4096)
        var isFinal = try readChunk(handle, path: path, appendingTo: &pending)
        var parser = CSVRowParser(file: path, policy: policy, expectedRows: estimatedRows(path: path, sample: pending))
        while true {
            let consumed: Result<Int, BarLoadingError> = pending.withUnsafeBufferPointer { buffer in
                do throws(BarLoadingError) {
                    return .success(try parser.feed(buffer, isFinal: isFinal))
                } catch {
                    return .failure(error)
                }
            }
            pending.removeFirst(try consumed.get())
            if isFinal { break }
            isFinal = try readChunk(handle, path: path, appendingTo: &pending)
        }
        return try parser.finish()
    }

    /// Appends the next chunk of the file; returns `true` at the end of the file.
    static func readChunk(_ handle: FileHandle, path: String, appendingTo buffer: inout [UInt8])
        throws(BarLoadingError) -> Bool
    {
        do {
            guard let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty else { return true }
            // Through a raw buffer: one memcpy (appending the `Data` itself would copy byte by byte).
            chunk.withUnsafeBytes { buffer.append(contentsOf: $0) }
            return false
        } catch {
            throw BarLoadingError(file: path, line: 0, code: .unreadable(String(describing: error)))
        }
    }

    /// Rows expected from the file size and the first chunk's mean line length, 3 % high so the bar array is
    /// allocated once (doubling a 1M-bar array would briefly need three times its size).
    static func estimatedRows(path: String, sample: [UInt8]) -> Int {
        var lines = 0
        for byte in sample where byte == 10 { lines += 1 }
        guard lines > 1, let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int else {
            return lines
        }
        let meanLength = Double(sample.count) / Double(lines)
        return Int(Double(size) / meanLength * 1.03) + 16
    }

    /// Parses CSV text already in memory.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: name used in errors.
    ///   - policy: fail or skip bad rows.
    /// - Throws: `BarLoadingError`.
    public static func parse(_ data: Data, file: String, policy: BadRowPolicy = .fail) throws(BarLoadingError)
        -> LoadedBars
    {
        var parser = CSVRowParser(file: file, policy: policy, expectedRows: data.count / 48)
        let result: Result<Int, BarLoadingError> = data.withUnsafeBytes { raw in
            do throws(BarLoadingError) {
                return .success(try parser.feed(raw.bindMemory(to: UInt8.self), isFinal: true))
            } catch {
                return .failure(error)
            }
        }
        _ = try result.get()
        return try parser.finish()
    }
}
