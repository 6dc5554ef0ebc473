extension CSVReader {
    /// The columns of a backtest's `trades.csv`, in its order.
    static let tradeColumns = [
        "symbol", "side", "quantity", "entry_time", "entry_price", "exit_time", "exit_price", "pnl", "commission",
    ]

    /// Reads closed trades in the backtester's `trades.csv` layout
    /// (`symbol,side,quantity,entry_time,entry_price,exit_time,exit_price,pnl,commission`; columns found by name, in
    /// any order, extra ones ignored), so `ibtrader analyze` reports the same trade figures as the backtest. Its
    /// `pnl` is gross of commission; a record's is net, so the commission is taken off (wins and losses are net). A row
    /// without an exit time is a position still open at the end: not a closed trade, so it is skipped.
    /// - Throws: ``CSVReadError`` naming the line and column of the first bad value.
    public static func trades(from text: String) throws(CSVReadError) -> [TradeRecord] {
        try tradeFile(from: text).trades
    }

    /// The closed trades of a `trades.csv` (``trades(from:)``) and the commissions of all its rows, the open
    /// positions' included: the run's commission total as the backtest printed it (its rows are exact, so their sum,
    /// rounded once to the cent, is the backtest's `total_commission`; a futures roll's cost is not in the file).
    /// - Throws: ``CSVReadError`` naming the line and column of the first bad value.
    public static func tradeFile(from text: String) throws(CSVReadError) -> (trades: [TradeRecord], commissions: CommissionTotal) {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).makeIterator()
        guard let headerLine = lines.next(), !headerLine.allSatisfy(\.isWhitespace) else { throw .empty }
        let header = (headerLine.first == "\u{FEFF}" ? headerLine.dropFirst() : headerLine)
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { trimmed($0).lowercased() }
        var index: [Int] = []
        for name in tradeColumns {
            guard let column = header.firstIndex(of: name) else { throw .missingColumn(name: name) }
            index.append(column)
        }
        var trades: [TradeRecord] = []
        var total = DecimalSum()
        var open = DecimalSum()
        var lineNumber = 1
        while let raw = lines.next() {
            lineNumber += 1
            if raw.allSatisfy(\.isWhitespace) { continue }
            let fields = raw.split(separator: ",", omittingEmptySubsequences: false)
            func text(_ k: Int) throws(CSVReadError) -> Substring {
                let name = tradeColumns[k]
                guard index[k] < fields.count else { throw .missingField(line: lineNumber, column: name) }
                let value = trimmed(fields[index[k]])
                guard !value.isEmpty else { throw .missingField(line: lineNumber, column: name) }
                return value
            }
            func number(_ k: Int) throws(CSVReadError) -> Double {
                let value = try text(k)
                guard let number = Double(value), number.isFinite else {
                    throw .invalidNumber(line: lineNumber, column: tradeColumns[k], text: String(value))
                }
                return number
            }
            func time(_ k: Int) throws(CSVReadError) -> Int64 {
                let value = try text(k)
                guard let time = CivilTime.parse(value) else { throw .invalidDate(line: lineNumber, text: String(value)) }
                return time
            }
            let commission = try number(8)
            total.add(try text(8), approximately: commission)
            if index[5] < fields.count, trimmed(fields[index[5]]).isEmpty {
                open.add(try text(8), approximately: commission)
                continue
            }
            let sideText = try text(1)
            guard let side = TradeSide(rawValue: sideText.uppercased()) else {
                throw .invalidValue(line: lineNumber, column: "side", text: String(sideText), allowed: "LONG or SHORT")
            }
            trades.append(TradeRecord(
                symbol: String(try text(0)), side: side, quantity: try number(2), entryTime: try time(3),
                entryPrice: try number(4), exitTime: try time(5), exitPrice: try number(6),
                pnl: try number(7) - commission, commission: commission))
        }
        return (trades, CommissionTotal(cents: total.cents, openPositionCents: open.cents))
    }
}

/// A sum of decimal texts in units of 10⁻⁸, exact for the ≤ 8 decimals the backtest writes (a longer fraction is
/// cut at 8), then rounded once to the cent, half away from zero, as the backtest rounds its total.
struct DecimalSum {
    private var units: Int64 = 0

    /// Adds a number's text; `value` (its parsed value) stands in for a text that is not a plain decimal (`1e-3`).
    mutating func add(_ text: Substring, approximately value: Double) {
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var decimals = 0
        var seenPoint = false
        var digits = text
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        for character in digits {
            guard let digit = character.wholeNumberValue, character.isASCII else {
                if character == ".", !seenPoint {
                    seenPoint = true
                    continue
                }
                units &+= Int64((value * 100_000_000).rounded())
                return
            }
            if !seenPoint {
                whole = whole &* 10 &+ Int64(digit)
            } else if decimals < 8 {
                fraction = fraction * 10 + Int64(digit)
                decimals += 1
            }
        }
        while decimals < 8 {
            fraction *= 10
            decimals += 1
        }
        let magnitude = whole &* 100_000_000 &+ fraction
        units &+= negative ? -magnitude : magnitude
    }

    /// The sum in cents, rounded half away from zero.
    var cents: Int64 {
        let (quotient, remainder) = units.quotientAndRemainder(dividingBy: 1_000_000)
        if remainder >= 500_000 { return quotient + 1 }
        if remainder <= -500_000 { return quotient - 1 }
        return quotient
    }
}
