import TradingModel

/// The byte-level parser behind `BarCSVLoader`, fed in chunks so a file is never held in memory whole.
///
/// `feed` parses every complete line of a chunk and says how many bytes it consumed; the caller keeps the rest
/// (a partial last line) and passes it again in front of the next chunk. Line numbers count across chunks.
struct CSVRowParser {
    /// The chunk being parsed (valid only during `feed`).
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    let file: String
    let policy: BadRowPolicy
    private var line = 0
    private var sawHeader = false
    private var previous = Int64.min
    private var result = LoadedBars(bars: [], skippedRows: 0, skippedLines: [], inconsistentBars: 0)
    private var cachedDatePrefix: UInt64 = 0
    private var cachedDateSuffix: UInt16 = 0
    private var cachedDay: Int64 = 0

    /// Creates a parser; `expectedRows` sizes the bar array up front (an estimate; it still grows if exceeded).
    init(file: String, policy: BadRowPolicy, expectedRows: Int) {
        self.file = file
        self.policy = policy
        result.bars.reserveCapacity(max(0, expectedRows))
    }

    /// Parses the complete lines of `chunk` (all of it when `isFinal`).
    /// - Returns: the number of bytes consumed; the rest starts a line that continues in the next chunk.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, isFinal: Bool) throws(BarLoadingError) -> Int {
        bytes = chunk
        defer { bytes = UnsafeBufferPointer(start: nil, count: 0) }
        var position = 0
        while position < chunk.count {
            var end = position
            while end < chunk.count, chunk[end] != 10 { end += 1 }
            if end == chunk.count, !isFinal { return position }
            var stop = end
            if stop > position, chunk[stop - 1] == 13 { stop -= 1 }
            line += 1
            try handle(position..<stop)
            position = end + 1
        }
        return chunk.count
    }

    /// The bars parsed since the last `removeAllBars()` (streaming reads them after each `feed`).
    var bars: [Bar] { result.bars }

    /// Drops the bars handed out so far, keeping the buffer (streaming: one chunk's bars at a time).
    mutating func removeAllBars() { result.bars.removeAll(keepingCapacity: true) }

    /// The bars parsed so far, once the input has ended.
    /// - Throws: `.badHeader("")` for an empty input.
    mutating func finish() throws(BarLoadingError) -> LoadedBars {
        guard sawHeader else { throw error(.badHeader("")) }
        return result
    }

    private mutating func handle(_ range: Range<Int>) throws(BarLoadingError) {
        guard sawHeader else {
            let headerText = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            let normalized = headerText.lowercased().replacingOccurrences(of: " ", with: "")
            guard normalized.hasPrefix("date,open,high,low,close,volume") else { throw error(.badHeader(headerText)) }
            sawHeader = true
            return
        }
        if range.isEmpty { return }
        do throws(BarLoadingError) {
            let bar = try parseRow(range)
            try checkValues(of: bar)
            guard bar.timestamp.nanoseconds > previous else {
                throw error(.outOfOrder(bar.timestamp.description))
            }
            previous = bar.timestamp.nanoseconds
            if !bar.isConsistent { result.inconsistentBars += 1 }
            result.bars.append(bar)
        } catch {
            guard policy == .skip else { throw error }
            result.skippedRows += 1
            if result.skippedLines.count < 100 { result.skippedLines.append(line) }
        }
    }

    private func badDate(_ r: Range<Int>) -> BarLoadingError {
        error(.badDate(String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self)))
    }

    private func error(_ code: BarLoadingError.Code) -> BarLoadingError {
        BarLoadingError(file: file, line: line, code: code)
    }

    private mutating func parseRow(_ range: Range<Int>) throws(BarLoadingError) -> Bar {
        var fields: (Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>, Range<Int>) =
            (0..<0, 0..<0, 0..<0, 0..<0, 0..<0, 0..<0)
        var count = 0
        var start = range.lowerBound
        var i = range.lowerBound
        while i <= range.upperBound {
            if i == range.upperBound || bytes[i] == 44 {
                let r = start..<i
                switch count {
                case 0: fields.0 = r
                case 1: fields.1 = r
                case 2: fields.2 = r
                case 3: fields.3 = r
                case 4: fields.4 = r
                case 5: fields.5 = r
                default: break
                }
                count += 1
                start = i + 1
            }
            i += 1
        }
        guard count == 6 else { throw error(.wrongFieldCount(count)) }
        let time = try parseDate(fields.0)
        return Bar(
            timestamp: time,
            open: Price(units: try number(fields.1, "open")),
            high: Price(units: try number(fields.2, "high")),
            low: Price(units: try number(fields.3, "low")),
            close: Price(units: try number(fields.4, "close")),
            volume: Quantity(units: try number(fields.5, "volume")))
    }

    private func number(_ r: Range<Int>, _ name: String) throws(BarLoadingError) -> Int64 {
        let slice = UnsafeBufferPointer(rebasing: bytes[r])
        if let v = FixedPoint.parse(slice) { return v }
        return try Self.otherNumber(String(decoding: slice, as: UTF8.self), name, line: { error($0) })
    }

    /// A number that is not a plain decimal of at most 8 decimals: exponent notation or more decimals, rounded to
    /// 1e-8. Only number characters are accepted (`Double` would read `1<NUL>00` as 1), and a value beyond the
    /// fixed-point range is an error of its own.
    static func otherNumber(
        _ text: String, _ name: String, line error: (BarLoadingError.Code) -> BarLoadingError
    ) throws(BarLoadingError) -> Int64 {
        let isNumeric = !text.isEmpty && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || "+-.eE".utf8.contains($0) }
        guard isNumeric, let value = Double(text), value.isFinite else {
            throw error(.badNumber(field: name, text: text))
        }
        guard let units = FixedPoint.checkedUnits(value) else {
            throw error(.numberOutOfRange(field: name, text: text))
        }
        return units
    }

    /// A row whose numbers parsed but cannot be a bar: prices must be positive, the high at least the low, and the
    /// volume not negative (open or close outside the range are kept and counted as inconsistent).
    private func checkValues(of bar: Bar) throws(BarLoadingError) {
        for (name, price) in [("open", bar.open), ("high", bar.high), ("low", bar.low), ("close", bar.close)]
        where price.units <= 0 {
            throw error(.impossibleBar("the \(name) price \(price) is not positive"))
        }
        guard bar.high >= bar.low else {
            throw error(.impossibleBar("the high \(bar.high) is below the low \(bar.low)"))
        }
        guard bar.volume.units >= 0 else { throw error(.impossibleBar("the volume \(bar.volume) is negative")) }
    }

    /// The day number of a date in a data file, `nil` for a day that does not exist or a year outside
    /// `Timestamp.dataFileYears` (a year 1 or 9999 would overflow the nanosecond timestamp).
    static func checkedDayNumber(year: Int, month: Int, day: Int) -> Int64? {
        Timestamp(checkedYear: year, month: month, day: day, years: Timestamp.dataFileYears)?.dayNumber
    }

    private mutating func parseDate(_ r: Range<Int>) throws(BarLoadingError) -> Timestamp {
        let n = r.count
        let b = r.lowerBound
        func digits(_ offset: Int, _ count: Int) -> Int? {
            var v = 0
            for k in 0..<count {
                let d = bytes[b + offset + k] &- 48
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            return v
        }
        func bad() -> BarLoadingError { badDate(r) }
        guard n == 10 || n == 20, bytes[b + 4] == 45, bytes[b + 7] == 45 else { throw bad() }
        // The 10 bytes YYYY-MM-DD identify the date exactly; reuse the last conversion when they repeat.
        var prefix: UInt64 = 0
        for k in 0..<8 { prefix = prefix << 8 | UInt64(bytes[b + k]) }
        let suffix = UInt16(bytes[b + 8]) << 8 | UInt16(bytes[b + 9])
        let day: Int64
        if prefix == cachedDatePrefix, suffix == cachedDateSuffix {
            day = cachedDay
        } else {
            guard let y = digits(0, 4), let m = digits(5, 2), let d = digits(8, 2), (1...12).contains(m),
                (1...31).contains(d)
            else { throw bad() }
            guard let checked = Self.checkedDayNumber(year: y, month: m, day: d) else { throw bad() }
            day = checked
            cachedDatePrefix = prefix
            cachedDateSuffix = suffix
            cachedDay = day
        }
        var seconds: Int64 = 0
        if n == 20 {
            guard bytes[b + 10] == 84, bytes[b + 13] == 58, bytes[b + 16] == 58, bytes[b + 19] == 90,
                let hh = digits(11, 2), let mm = digits(14, 2), let ss = digits(17, 2), hh < 24, mm < 60, ss < 61
            else { throw bad() }
            seconds = Int64(hh * 3600 + mm * 60 + ss)
        }
        return Timestamp(nanoseconds: (day * 86_400 + seconds) * Timestamp.nanosecondsPerSecond)
    }
}
