import Analytics

/// A pooled book as bytes: what a file shard writes for each configuration and the merge sums.
///
/// Exact, so merged shards give the single run's results to the last bit: times and money in the engine's integers
/// (each column as zigzag varint differences from the point before: a minute's step, an unchanged cash balance take
/// one to five bytes, not eight), trade prices and quantities as their IEEE bits. The reader checks every count
/// against the bytes left, so a damaged file is refused, never trusted or allocated without bound.
///
/// Layout (version 2): `IBPB`, version; accounts, starting cash; the commissions (all, on open positions, in futures
/// rolls; version 2 on); points, then the four columns; trades, each: account, symbol, side, quantity, entry time,
/// entry price, exit time, exit price, P&L, commission.
extension PooledBook {
    static let magic: [UInt8] = Array("IBPB".utf8)
    static let version: UInt8 = 2

    /// The book's bytes.
    public func encoded() -> [UInt8] {
        var out = ByteWriter()
        out.bytes += Self.magic
        out.bytes.append(Self.version)
        out.unsigned(UInt64(accounts))
        out.signed(initialCash)
        out.signed(commissions.total)
        out.signed(commissions.open)
        out.signed(commissions.rolls)
        out.unsigned(UInt64(times.count))
        for column in [times, equity, cash, gross] {
            var previous: Int64 = 0
            for value in column {
                out.signed(value &- previous)
                previous = value
            }
        }
        out.unsigned(UInt64(trades.count))
        for (trade, account) in zip(trades, tradeAccounts) {
            out.unsigned(UInt64(account))
            let symbol = Array(trade.symbol.utf8)
            out.unsigned(UInt64(symbol.count))
            out.bytes += symbol
            out.bytes.append(trade.side == .long ? 0 : 1)
            out.double(trade.quantity)
            out.signed(trade.entryTime)
            out.double(trade.entryPrice)
            out.signed(trade.exitTime)
            out.double(trade.exitPrice)
            out.double(trade.pnl)
            out.double(trade.commission)
        }
        return out.bytes
    }

    /// Reads a book's bytes.
    /// - Parameter source: names the bytes in errors (the file).
    /// - Throws: `ResearchError.malformedResults` naming `source` and what is wrong.
    public init(decoding bytes: [UInt8], source: String) throws(ResearchError) {
        var input = ByteReader(bytes: bytes, source: source)
        guard bytes.count >= 5, Array(bytes[0..<4]) == Self.magic else { throw input.bad("not a pooled book") }
        guard bytes[4] == Self.version else { throw input.bad("pooled book version \(bytes[4]); this build reads \(Self.version)") }
        input.offset = 5
        let accounts = try input.count(atMost: Int(Int32.max), each: 0)
        let initialCash = try input.signed()
        let commissions = PooledCommissions(total: try input.signed(), open: try input.signed(), rolls: try input.signed())
        let points = try input.count(atMost: Int.max, each: 4)
        var columns: [[Int64]] = []
        for _ in 0..<4 {
            var column = [Int64]()
            column.reserveCapacity(points)
            var value: Int64 = 0
            for _ in 0..<points {
                value &+= try input.signed()
                column.append(value)
            }
            columns.append(column)
        }
        for k in columns[0].indices.dropFirst() where columns[0][k] <= columns[0][k - 1] {
            throw input.bad("its times do not increase at point \(k)")
        }
        let count = try input.count(atMost: Int.max, each: 50)
        var trades: [TradeRecord] = []
        var owners: [Int] = []
        trades.reserveCapacity(count)
        owners.reserveCapacity(count)
        for k in 0..<count {
            let account = try input.count(atMost: max(0, accounts - 1), each: 0)
            guard account < accounts else { throw input.bad("trade \(k) belongs to account \(account) of \(accounts)") }
            let length = try input.count(atMost: 1_000, each: 1)
            let symbol = String(decoding: try input.take(length), as: UTF8.self)
            let sideByte = try input.take(1).first ?? 0
            guard sideByte <= 1 else { throw input.bad("trade \(k) has side \(sideByte)") }
            trades.append(TradeRecord(
                symbol: symbol, side: sideByte == 0 ? .long : .short, quantity: try input.double(),
                entryTime: try input.signed(), entryPrice: try input.double(), exitTime: try input.signed(),
                exitPrice: try input.double(), pnl: try input.double(), commission: try input.double()))
            owners.append(account)
        }
        guard input.offset == bytes.count else { throw input.bad("\(bytes.count - input.offset) bytes after its last trade") }
        self.init(
            times: columns[0], equity: columns[1], cash: columns[2], gross: columns[3], trades: trades,
            tradeAccounts: owners, accounts: accounts, initialCash: initialCash, commissions: commissions)
    }
}

/// Little-endian varints (zigzag for signed values) and IEEE doubles.
private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func unsigned(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func signed(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    mutating func double(_ value: Double) {
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(bits & 0xff))
            bits >>= 8
        }
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    let source: String
    var offset = 0

    func bad(_ reason: String) -> ResearchError { .malformedResults("\(source): \(reason) (damaged or cut short?)") }

    mutating func unsigned() throws(ResearchError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw bad("it ends inside a number at byte \(offset)") }
            let byte = bytes[offset]
            offset += 1
            guard shift < 64, shift < 63 || byte <= 1 else { throw bad("a number at byte \(offset - 1) is too long") }
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(ResearchError) -> Int64 {
        let v = try unsigned()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    /// A count no larger than `limit`, nor than the bytes left allow at `each` bytes an item.
    mutating func count(atMost limit: Int, each: Int) throws(ResearchError) -> Int {
        let at = offset
        let value = try unsigned()
        let left = UInt64(bytes.count - offset)
        guard value <= UInt64(limit), each == 0 || value <= left / UInt64(each) else {
            throw bad("the count \(value) at byte \(at) is more than the file can hold")
        }
        return Int(value)
    }

    mutating func take(_ count: Int) throws(ResearchError) -> ArraySlice<UInt8> {
        guard count <= bytes.count - offset else { throw bad("it ends at byte \(bytes.count), inside a trade") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func double() throws(ResearchError) -> Double {
        var bits: UInt64 = 0
        for (k, byte) in try take(8).enumerated() { bits |= UInt64(byte) << (8 * UInt64(k)) }
        return Double(bitPattern: bits)
    }
}
