/// Why a CSV file for `ibtrader analyze` could not be read. Line numbers count from 1 (the header).
public enum CSVReadError: Error, Equatable, Sendable {
    /// The file has no header line.
    case empty
    /// The header lacks a required column.
    case missingColumn(name: String)
    /// A row has fewer fields than the header needs.
    case missingField(line: Int, column: String)
    /// A date is neither `YYYY-MM-DD` nor `YYYY-MM-DDTHH:MM:SSZ`.
    case invalidDate(line: Int, text: String)
    /// A number cannot be parsed or is not finite.
    case invalidNumber(line: Int, column: String, text: String)
    /// A value is not one of those its column allows (`allowed` says which, for the reader).
    case invalidValue(line: Int, column: String, text: String, allowed: String)
    /// Dates must strictly increase.
    case unorderedDate(line: Int, text: String)
    /// A benchmark has no close at or before an equity time.
    case benchmarkStartsTooLate(date: String)

    /// The 1-based line number the error refers to, if any.
    public var line: Int? {
        switch self {
        case .missingField(let line, _), .invalidDate(let line, _), .invalidNumber(let line, _, _),
            .invalidValue(let line, _, _, _), .unorderedDate(let line, _):
            line
        case .empty, .missingColumn, .benchmarkStartsTooLate: nil
        }
    }
}

/// A dated price, e.g. one benchmark close.
public struct PricePoint: Sendable, Equatable {
    /// Seconds since the Unix epoch, UTC.
    public var time: Int64
    /// The price.
    public var close: Double

    /// Creates a price point.
    public init(time: Int64, close: Double) {
        self.time = time
        self.close = close
    }
}

/// Readers for the CSV inputs of `ibtrader analyze`.
///
/// Columns are found by header name (case-insensitive), so extra columns are ignored. Blank lines,
/// `\r\n` endings and a byte-order mark are accepted; quoted fields are not. Dates must strictly increase.
/// ```swift
/// let curve = try CSVReader.equityCurve(from: "date,equity\n2024-01-02,100000\n")
/// let spx = try CSVReader.prices(from: text)          // date,close  or  date,open,high,low,close,volume
/// let closes = try CSVReader.align(spx, to: curve.map(\.time))
/// ```
public enum CSVReader {
    /// Reads `date,equity` rows (a `cash` and a `gross_exposure` column are used when present).
    /// - Throws: ``CSVReadError`` naming the line of the first bad row.
    public static func equityCurve(from text: String) throws(CSVReadError) -> [EquityPoint] {
        var points: [EquityPoint] = []
        try readRows(text, required: ["date", "equity"], optional: ["cash", "gross_exposure"]) { time, numbers in
            points.append(EquityPoint(time: time, equity: numbers[0] ?? 0, cash: numbers[1], grossExposure: numbers[2]))
        }
        return points
    }

    /// Reads `date,close` rows or OHLCV bars `date,open,high,low,close,volume` (only the price column
    /// is used).
    /// - Parameters:
    ///   - text: the file's text.
    ///   - column: the header of the price column, `close` by default.
    /// - Throws: ``CSVReadError`` naming the line of the first bad row.
    public static func prices(from text: String, column: String = "close") throws(CSVReadError) -> [PricePoint] {
        var points: [PricePoint] = []
        try readRows(text, required: ["date", column.lowercased()], optional: []) { time, numbers in
            points.append(PricePoint(time: time, close: numbers[0] ?? 0))
        }
        return points
    }

    /// For each time, the last price at or before it (as-of alignment, for benchmark closes).
    /// - Throws: ``CSVReadError/benchmarkStartsTooLate(date:)`` if a time precedes every price.
    public static func align(_ prices: [PricePoint], to times: [Int64]) throws(CSVReadError) -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(times.count)
        var index = 0
        for time in times {
            while index < prices.count, prices[index].time <= time { index += 1 }
            guard index > 0 else { throw .benchmarkStartsTooLate(date: CivilTime.format(time)) }
            result.append(prices[index - 1].close)
        }
        return result
    }

    /// Walks the data rows, handing each row's time and the parsed numbers (required value columns
    /// first, then the optional ones, `nil` when absent or empty) to `body`.
    private static func readRows(
        _ text: String, required: [String], optional: [String],
        _ body: (Int64, [Double?]) -> Void
    ) throws(CSVReadError) {
        // "\r\n" is a single Character in Swift, so split on any newline character.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).makeIterator()
        guard let headerLine = lines.next(), !trimmed(headerLine).isEmpty else { throw .empty }
        // A UTF-8 byte-order mark (as spreadsheet exports write) is not part of the first column name.
        let header = trimmed(headerLine.first == "\u{FEFF}" ? headerLine.dropFirst() : headerLine).split(separator: ",", omittingEmptySubsequences: false)
            .map { trimmed($0).lowercased() }
        var columns: [(name: String, index: Int?)] = []
        for name in required {
            // The time column may be called date, time (the backtester's equity.csv), datetime or timestamp.
            let names = name == "date" ? Self.timeColumnNames : [name]
            guard let index = header.firstIndex(where: names.contains) else { throw .missingColumn(name: name) }
            columns.append((name, index))
        }
        for name in optional { columns.append((name, header.firstIndex(of: name))) }
        var lineNumber = 1
        var previousTime: Int64?
        var numbers = [Double?](repeating: nil, count: columns.count - 1)
        while let raw = lines.next() {
            lineNumber += 1
            let line = trimmed(raw)
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            func field(_ column: Int) -> Substring? {
                guard let index = columns[column].index, index < fields.count else { return nil }
                return trimmed(fields[index])
            }
            guard let dateText = field(0) else { throw .missingField(line: lineNumber, column: "date") }
            guard let time = CivilTime.parse(dateText) else { throw .invalidDate(line: lineNumber, text: String(dateText)) }
            if let previousTime, time <= previousTime { throw .unorderedDate(line: lineNumber, text: String(dateText)) }
            previousTime = time
            for column in 1..<columns.count {
                let isRequired = column < required.count
                guard let text = field(column), !text.isEmpty else {
                    if isRequired { throw .missingField(line: lineNumber, column: columns[column].name) }
                    numbers[column - 1] = nil
                    continue
                }
                guard let value = Double(text), value.isFinite else {
                    throw .invalidNumber(line: lineNumber, column: columns[column].name, text: String(text))
                }
                numbers[column - 1] = value
            }
            body(time, numbers)
        }
    }

    /// Accepted names of the time column.
    static let timeColumnNames = ["date", "time", "datetime", "timestamp"]

    /// The text without surrounding spaces, tabs or a trailing carriage return.
    static func trimmed(_ text: Substring) -> Substring {
        var slice = text
        while let last = slice.last, last == "\r" || last == " " || last == "\t" || last == "\r\n" {
            slice = slice.dropLast()
        }
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        return slice
    }
}

extension CSVReadError: CustomStringConvertible {
    /// What is wrong and what is expected, with the line where there is one.
    public var description: String {
        switch self {
        case .empty: "the file is empty: expected a header line such as date,close"
        case .missingColumn(let name): "the header has no '\(name)' column"
        case .missingField(let line, let column): "line \(line): no value in column '\(column)'"
        case .invalidDate(let line, let text):
            "line \(line): '\(text)' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)"
        case .invalidNumber(let line, let column, let text): "line \(line): '\(text)' in column '\(column)' is not a number"
        case .invalidValue(let line, let column, let text, let allowed):
            "line \(line): '\(text)' in column '\(column)' is not allowed: use \(allowed)"
        case .unorderedDate(let line, let text): "line \(line): \(text) is not after the previous row's date"
        case .benchmarkStartsTooLate(let date): "the benchmark has no price at or before \(date)"
        }
    }
}
