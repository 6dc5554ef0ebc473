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
            if index[5] < fields.count, trimmed(fields[index[5]]).isEmpty { continue }
            let sideText = try text(1)
            guard let side = TradeSide(rawValue: sideText.uppercased()) else {
                throw .invalidValue(line: lineNumber, column: "side", text: String(sideText), allowed: "LONG or SHORT")
            }
            let commission = try number(8)
            trades.append(TradeRecord(
                symbol: String(try text(0)), side: side, quantity: try number(2), entryTime: try time(3),
                entryPrice: try number(4), exitTime: try time(5), exitPrice: try number(6),
                pnl: try number(7) - commission, commission: commission))
        }
        return trades
    }
}
