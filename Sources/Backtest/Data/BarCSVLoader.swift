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
    public var description: String { "\(file):\(line): \(code)" }
}

/// Bars read from one CSV file.
public struct LoadedBars: Sendable {
    /// Bars in file order.
    public var bars: [Bar]
    /// Rows skipped under `.skip`.
    public var skippedRows: Int
    /// Line numbers of the skipped rows (first 100).
    public var skippedLines: [Int]
    /// Bars whose open/close lie outside [low, high] or whose low is not positive (kept as given).
    public var inconsistentBars: Int
}

/// Reads `date,open,high,low,close,volume` files straight from bytes (no per-field `String`s).
///
/// Dates are `YYYY-MM-DD` (midnight UTC) or `YYYY-MM-DDTHH:MM:SSZ` (UTC). Numbers are plain decimals with at most
/// 8 decimals (exponent notation is accepted and rounded to 1e-8). Prices are used as given: no split adjustment.
///
/// ```swift
/// let loaded = try BarCSVLoader.load(path: "data/GOOG_1d.csv")
/// ```
public enum BarCSVLoader {
    /// Loads a file.
    /// - Parameters:
    ///   - path: file path.
    ///   - policy: fail on the first bad row (default) or skip and count bad rows.
    /// - Throws: `BarLoadingError`.
    public static func load(path: String, policy: BadRowPolicy = .fail) throws(BarLoadingError) -> LoadedBars {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw BarLoadingError(file: path, line: 0, code: .unreadable(String(describing: error)))
        }
        return try parse(data, file: path, policy: policy)
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
        let result: Result<LoadedBars, BarLoadingError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var parser = CSVRowParser(bytes: bytes, file: file, policy: policy)
            do throws(BarLoadingError) {
                return .success(try parser.run())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
