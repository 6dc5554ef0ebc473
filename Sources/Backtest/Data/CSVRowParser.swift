#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    private var result = LoadedBars(bars: [], skippedRows: 0, skippedLines: [])
    private var cachedDatePrefix: UInt64 = 0
    private var cachedDateSuffix: UInt16 = 0
    private var cachedDay: Int64 = 0
    /// For a header other than exactly `date,open,high,low,close,volume`: the field index of date, open, high,
    /// low, close, volume (−1: none, volume 0) and adjusted close (−1: none), and the field count.
    private var layout: (columns: [Int], fieldCount: Int)?
    private var fieldRanges: [Range<Int>] = []
    /// The byte that ends a line: LF, or CR for a file with CR-only line ends (old Mac spreadsheets), decided at the
    /// first line end of the input (`nil` until then).
    private var lineEnd: UInt8?
    /// A quoted row without its quotes (spreadsheets quote fields: `"2024-03-01","10.5",…`).
    private var unquoted: [UInt8] = []

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
        guard let base = chunk.baseAddress else { return 0 }
        var position = 0
        if lineEnd == nil {
            // CR-only line ends: the first CR comes before any LF and is not followed by one.
            let cr = memchr(base, 13, chunk.count).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) }
            let lf = memchr(base, 10, chunk.count).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) }
            if let cr, lf.map({ cr + 1 < $0 }) ?? (cr + 1 < chunk.count || isFinal) {
                lineEnd = 13
            } else if lf != nil || isFinal {
                lineEnd = 10
            }
        }
        let terminator = Int32(lineEnd ?? 10)
        while position < chunk.count {
            // memchr scans for the line end several bytes at a time; a 1M-row file is 58 MB of bytes.
            let newline = memchr(base + position, terminator, chunk.count - position)
            let end = newline.map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? chunk.count
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
            var headerText = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            if headerText.first == "\u{FEFF}" { headerText.removeFirst() }
            let normalized = headerText.lowercased().replacingOccurrences(of: " ", with: "")
            if normalized != "date,open,high,low,close,volume" {
                guard let columns = Self.layout(of: headerText) else { throw error(.badHeader(headerText)) }
                layout = columns
            }
            sawHeader = true
            return
        }
        if range.isEmpty { return }
        do throws(BarLoadingError) {
            let bar = try memchr(bytes.baseAddress! + range.lowerBound, 34, range.count) == nil
                ? parseRow(range) : parseQuotedRow(range)
            try checkValues(of: bar)
            guard bar.timestamp.nanoseconds > previous else {
                throw error(.outOfOrder(bar.timestamp.description))
            }
            previous = bar.timestamp.nanoseconds
            result.bars.append(bar)
        } catch {
            guard policy == .skip else { throw error }
            result.skippedRows += 1
            if result.skippedLines.count < 100 { result.skippedLines.append(line) }
        }
    }

    /// A row with quoted fields, as spreadsheets write them (RFC 4180): each field's quotes dropped, `""` inside one
    /// read as a quote, and a comma inside one dropped (a thousands separator: `"1,234.50"`), then read as any row.
    /// - Throws: `.unbalancedQuote` for a quote left open at the end of the line (a field cannot span lines here).
    private mutating func parseQuotedRow(_ range: Range<Int>) throws(BarLoadingError) -> Bar {
        unquoted.removeAll(keepingCapacity: true)
        var inQuotes = false
        var i = range.lowerBound
        while i < range.upperBound {
            let byte = bytes[i]
            if byte == 34 {
                if inQuotes, i + 1 < range.upperBound, bytes[i + 1] == 34 {
                    unquoted.append(34)
                    i += 1
                } else {
                    inQuotes.toggle()
                }
            } else if !(inQuotes && byte == 44) {
                unquoted.append(byte)
            }
            i += 1
        }
        guard !inQuotes else { throw error(.unbalancedQuote) }
        let chunk = bytes
        defer { bytes = chunk }
        let row = unquoted
        return try row.withUnsafeBufferPointer { (buffer) throws(BarLoadingError) -> Bar in
            bytes = buffer
            return try parseRow(0..<buffer.count)
        }
    }

    private func badDate(_ r: Range<Int>) -> BarLoadingError {
        error(.badDate(String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self)))
    }

    private func error(_ code: BarLoadingError.Code) -> BarLoadingError {
        BarLoadingError(file: file, line: line, code: code)
    }

    /// The columns of a header in another layout: names in any case, with spaces or underscores (`Adj Close`,
    /// `adj_close`), the time column called date, time, datetime or timestamp, volume optional. `nil` without a
    /// time, open, high, low and close column.
    static func layout(of header: String) -> (columns: [Int], fieldCount: Int)? {
        var text = Substring(header)
        if text.first == "\u{FEFF}" { text = text.dropFirst() }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.lowercased().filter { $0 != " " && $0 != "_" && $0 != "\"" && $0 != "\r" }
        }
        func index(_ candidates: [String]) -> Int { names.firstIndex(where: candidates.contains) ?? -1 }
        let columns = [
            index(["date", "time", "datetime", "timestamp"]), index(["open"]), index(["high"]), index(["low"]),
            index(["close"]), index(["volume", "vol"]), index(["adjclose", "adjustedclose"]),
        ]
        guard columns[0...4].allSatisfy({ $0 >= 0 }) else { return nil }
        return (columns, names.count)
    }

    /// A row of another layout (`layout`): with an adjusted close, open, high, low and close are scaled by
    /// adjusted close / close (split- and dividend-adjusted prices, as the adjusted close implies).
    private mutating func parseLaidOutRow(
        _ range: Range<Int>, _ layout: (columns: [Int], fieldCount: Int)
    ) throws(BarLoadingError) -> Bar {
        fieldRanges.removeAll(keepingCapacity: true)
        var start = range.lowerBound
        for i in range.lowerBound...range.upperBound where i == range.upperBound || bytes[i] == 44 {
            fieldRanges.append(start..<i)
            start = i + 1
        }
        guard fieldRanges.count == layout.fieldCount else { throw error(.wrongFieldCount(fieldRanges.count)) }
        let c = layout.columns
        let time = try parseDate(fieldRanges[c[0]])
        var open = try number(fieldRanges[c[1]], "open"), high = try number(fieldRanges[c[2]], "high")
        var low = try number(fieldRanges[c[3]], "low"), close = try number(fieldRanges[c[4]], "close")
        let volume = c[5] >= 0 ? try number(fieldRanges[c[5]], "volume") : 0
        if c[6] >= 0, close != 0 {
            let factor = Double(try number(fieldRanges[c[6]], "adj close")) / Double(close)
            func scaled(_ units: Int64) -> Int64 { Int64((Double(units) * factor).rounded()) }
            (open, high, low, close) = (scaled(open), scaled(high), scaled(low), scaled(close))
        }
        return Bar(
            timestamp: time, open: Price(units: open), high: Price(units: high), low: Price(units: low),
            close: Price(units: close), volume: Quantity(units: volume))
    }

    private mutating func parseRow(_ range: Range<Int>) throws(BarLoadingError) -> Bar {
        if let layout { return try parseLaidOutRow(range, layout) }
        if let bar = quickRow(range) { return bar }
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

    /// The common row, `time,open,high,low,close,volume` with plain unsigned decimals of at most 8 places, read in
    /// one pass without splitting it into fields first; `nil` for anything else, which the general path then reads
    /// or names the error of. A million-row file spends most of its loading time here.
    @inline(__always)
    private mutating func quickRow(_ range: Range<Int>) -> Bar? {
        var comma = range.lowerBound
        while comma < range.upperBound, bytes[comma] != 44 { comma += 1 }
        guard comma < range.upperBound, let time = try? parseDate(range.lowerBound..<comma) else { return nil }
        var i = comma + 1
        guard let open = quickNumber(&i, range.upperBound), i < range.upperBound, bytes[i] == 44 else { return nil }
        i += 1
        guard let high = quickNumber(&i, range.upperBound), i < range.upperBound, bytes[i] == 44 else { return nil }
        i += 1
        guard let low = quickNumber(&i, range.upperBound), i < range.upperBound, bytes[i] == 44 else { return nil }
        i += 1
        guard let close = quickNumber(&i, range.upperBound), i < range.upperBound, bytes[i] == 44 else { return nil }
        i += 1
        guard let volume = quickNumber(&i, range.upperBound), i == range.upperBound else { return nil }
        return Bar(
            timestamp: time, open: Price(units: open), high: Price(units: high), low: Price(units: low),
            close: Price(units: close), volume: Quantity(units: volume))
    }

    /// A plain unsigned decimal from `i` up to the next byte that is neither a digit nor its one point, as 1e-8
    /// units, as `FixedPoint.parse` reads it; `nil` for no digits, more than 8 decimals or more than 10 whole
    /// digits (which cannot overflow: 9,999,999,999.99999999 is below the `Int64` range).
    @inline(__always)
    private func quickNumber(_ i: inout Int, _ end: Int) -> Int64? {
        var whole: Int64 = 0
        let start = i
        while i < end, bytes[i] &- 48 < 10 {
            whole = whole &* 10 &+ Int64(bytes[i] &- 48)
            i += 1
        }
        let wholeDigits = i - start
        var fraction: Int64 = 0
        var places = 0
        if i < end, bytes[i] == 46 {
            i += 1
            let fractionStart = i
            while i < end, bytes[i] &- 48 < 10 {
                fraction = fraction &* 10 &+ Int64(bytes[i] &- 48)
                i += 1
            }
            places = i - fractionStart
        }
        guard wholeDigits + places > 0, wholeDigits <= 10, places <= FixedPoint.decimals else { return nil }
        while places < FixedPoint.decimals {
            fraction &*= 10
            places += 1
        }
        return whole &* FixedPoint.scale &+ fraction
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

    /// A row whose numbers parsed but cannot be a bar: prices must be positive, the high at least the low, the open
    /// and close within low–high, and the volume not negative.
    private func checkValues(of bar: Bar) throws(BarLoadingError) {
        // The list of named prices is built only for a bad row: this runs once per row of a million-row file.
        if bar.open.units <= 0 || bar.high.units <= 0 || bar.low.units <= 0 || bar.close.units <= 0 {
            for (name, price) in [("open", bar.open), ("high", bar.high), ("low", bar.low), ("close", bar.close)]
            where price.units <= 0 {
                throw error(.impossibleBar("the \(name) price \(price) is not positive"))
            }
        }
        guard bar.high >= bar.low else {
            throw error(.impossibleBar("the high \(bar.high) is below the low \(bar.low)"))
        }
        // A bar that trades outside its own range is a bad row: fills inside it would be at prices that never traded.
        for (name, price) in [("open", bar.open), ("close", bar.close)] where price > bar.high || price < bar.low {
            throw error(.impossibleBar(price > bar.high
                ? "the \(name) \(price) is above the high \(bar.high)" : "the \(name) \(price) is below the low \(bar.low)"))
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
        guard n >= 10, bytes[b + 4] == 45, bytes[b + 7] == 45 else { throw bad() }
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
        if n > 10 {
            // YYYY-MM-DD[T ]HH:MM:SS, then optional .fraction, then Z, ±HH:MM, ±HHMM or nothing (UTC).
            guard n >= 19, bytes[b + 10] == 84 || bytes[b + 10] == 32, bytes[b + 13] == 58, bytes[b + 16] == 58,
                let hh = digits(11, 2), let mm = digits(14, 2), let ss = digits(17, 2), hh < 24, mm < 60, ss < 61
            else { throw bad() }
            seconds = Int64(hh * 3600 + mm * 60 + ss)
            var k = 19
            if k < n, bytes[b + k] == 46 {  // a fraction of a second: dropped (bars are whole seconds)
                k += 1
                while k < n, bytes[b + k] &- 48 < 10 { k += 1 }
            }
            if k < n, bytes[b + k] == 90 {
                k += 1
            } else if k < n, bytes[b + k] == 43 || bytes[b + k] == 45 {
                let sign: Int64 = bytes[b + k] == 43 ? 1 : -1
                let colon = k + 3 < n && bytes[b + k + 3] == 58
                guard let oh = k + 3 <= n ? digits(k + 1, 2) : nil,
                    let om = k + (colon ? 6 : 5) <= n ? digits(k + (colon ? 4 : 3), 2) : nil, oh < 24, om < 60
                else { throw bad() }
                seconds -= sign * Int64(oh * 3600 + om * 60)  // local time minus its offset is UTC
                k += colon ? 6 : 5
            }
            guard k == n else { throw bad() }
        }
        return Timestamp(nanoseconds: (day * 86_400 + seconds) * Timestamp.nanosecondsPerSecond)
    }
}
