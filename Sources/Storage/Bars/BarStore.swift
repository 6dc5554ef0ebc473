import Foundation
import GRDB
import TradingModel

/// A SQLite file of OHLCV bars, keyed by (symbol, bar size, time), with the bookkeeping that makes historical
/// downloads resumable.
///
/// Prices and volumes are stored as the fixed-point integers of `Price` and `Quantity` (1e-8 units), times as UTC
/// nanoseconds, so a bar read back equals the bar written, bit for bit. Writing a bar that is already there replaces
/// it (an upsert), so downloading a range twice is harmless. The file is opened in WAL mode: readers (a backtest,
/// `ibtrader data list`) never block a running download.
///
/// ```swift
/// let store = try BarStore(path: "bars.sqlite")
/// try store.upsert(bars, symbol: "AAPL", barSize: BarSize("1 day")!)
/// let daily = try store.bars(symbol: "AAPL", barSize: BarSize("1 day")!)
/// ```
public final class BarStore: Sendable {
    /// The file's path, as given.
    public let path: String
    let pool: DatabasePool

    /// Opens (and, when allowed, creates) a store, migrating its schema to the current version.
    /// - Parameters:
    ///   - path: the SQLite file.
    ///   - createIfMissing: `false` to fail with `.notFound` instead of creating an empty store.
    /// - Throws: `BarStoreError.notFound` or `.cannotOpen`, naming the path.
    public init(path: String, createIfMissing: Bool = true) throws(BarStoreError) {
        self.path = path
        if !createIfMissing, !FileManager.default.fileExists(atPath: path) { throw .notFound(path: path) }
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var configuration = Configuration()
            // A download and a reader (a backtest, `data list`) in two processes wait for each other's locks.
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                // A crash loses at most the transaction in flight; bars can always be downloaded again.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            pool = try SharedDatabase.open(path: path, configuration: configuration, migrator: Self.migrator)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// The schema, one migration per version. Never edit a shipped migration: add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-bars") { db in
            try db.execute(
                sql: """
                    CREATE TABLE bars (
                        symbol TEXT NOT NULL,
                        bar_size TEXT NOT NULL,
                        time INTEGER NOT NULL,
                        open INTEGER NOT NULL,
                        high INTEGER NOT NULL,
                        low INTEGER NOT NULL,
                        close INTEGER NOT NULL,
                        volume INTEGER NOT NULL,
                        PRIMARY KEY (symbol, bar_size, time)
                    ) WITHOUT ROWID;
                    CREATE TABLE download_chunks (
                        symbol TEXT NOT NULL,
                        bar_size TEXT NOT NULL,
                        what_to_show TEXT NOT NULL,
                        regular_hours INTEGER NOT NULL,
                        chunk_start INTEGER NOT NULL,
                        chunk_end INTEGER NOT NULL,
                        bar_count INTEGER NOT NULL,
                        completed_at INTEGER NOT NULL,
                        PRIMARY KEY (symbol, bar_size, what_to_show, regular_hours, chunk_start, chunk_end)
                    ) WITHOUT ROWID;
                    """)
        }
        return migrator
    }

    // MARK: - Bars

    /// Writes bars, replacing any already stored at the same (symbol, bar size, time).
    /// - Parameters:
    ///   - bars: the bars, in any order.
    ///   - symbol: their symbol.
    ///   - barSize: their bar size.
    /// - Throws: `BarStoreError.database`.
    public func upsert(_ bars: [Bar], symbol: Symbol, barSize: BarSize) throws(BarStoreError) {
        try perform("upsert \(symbol) \(barSize)") {
            try pool.write { db in try Self.upsert(bars, series: (symbol.rawValue, barSize.text), db: db) }
        }
    }

    static func upsert(_ bars: [Bar], series: (symbol: String, barSize: String), db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO bars (symbol, bar_size, time, open, high, low, close, volume)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (symbol, bar_size, time) DO UPDATE SET
                    open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
                    volume = excluded.volume
                """)
        for bar in bars {
            try statement.execute(arguments: [
                series.symbol, series.barSize, bar.timestamp.nanoseconds, bar.open.units, bar.high.units,
                bar.low.units, bar.close.units, bar.volume.units,
            ])
        }
    }

    /// The bars of one series in time order, optionally within `[from, to)`.
    /// - Parameters:
    ///   - symbol: the symbol.
    ///   - barSize: the bar size.
    ///   - range: a half-open time range; `nil` for all.
    /// - Returns: the bars, oldest first.
    /// - Throws: `BarStoreError.database` or `.corruptRow`.
    public func bars(symbol: Symbol, barSize: BarSize, in range: Range<Timestamp>? = nil) throws(BarStoreError) -> [Bar]
    {
        let from = range?.lowerBound.nanoseconds ?? Int64.min
        let to = range?.upperBound.nanoseconds ?? Int64.max
        return try perform("read \(symbol) \(barSize)") {
            try pool.read { db in
                // A cursor, not fetchAll: no intermediate array of rows for a series of a million bars.
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT time, open, high, low, close, volume FROM bars
                        WHERE symbol = ? AND bar_size = ? AND time >= ? AND time < ? ORDER BY time
                        """,
                    arguments: [symbol.rawValue, barSize.text, from, to])
                var bars: [Bar] = []
                while let row = try rows.next() {
                    let t: Int64? = row[0]
                    let o: Int64? = row[1]
                    let h: Int64? = row[2]
                    let l: Int64? = row[3]
                    let c: Int64? = row[4]
                    let v: Int64? = row[5]
                    guard let t, let o, let h, let l, let c, let v else {
                        throw BarStoreError.corruptRow(path: path, detail: "NULL column in a \(symbol) \(barSize) bar")
                    }
                    bars.append(
                        Bar(
                            timestamp: Timestamp(nanoseconds: t), open: Price(units: o), high: Price(units: h),
                            low: Price(units: l), close: Price(units: c), volume: Quantity(units: v)))
                }
                return bars
            }
        }
    }

    /// One row per stored series: symbol, bar size, first and last bar time, and bar count, sorted by symbol and
    /// bar size.
    /// - Throws: `BarStoreError.database`.
    public func seriesSummaries() throws(BarStoreError) -> [BarSeriesSummary] {
        let rows = try perform("list series") {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT symbol, bar_size, MIN(time), MAX(time), COUNT(*) FROM bars
                        GROUP BY symbol, bar_size ORDER BY symbol, bar_size
                        """)
            }
        }
        return rows.compactMap { row -> BarSeriesSummary? in
            let symbol: String? = row[0]
            let text: String? = row[1]
            let first: Int64? = row[2]
            let last: Int64? = row[3]
            let count: Int? = row[4]
            guard let symbol, let text, let size = BarSize(text), let first, let last, let count else { return nil }
            return BarSeriesSummary(
                symbol: Symbol(symbol), barSize: size, first: Timestamp(nanoseconds: first),
                last: Timestamp(nanoseconds: last), count: count)
        }.sorted { ($0.symbol, $0.barSize) < ($1.symbol, $1.barSize) }
    }

    // MARK: - Download bookkeeping

    /// The chunks of a download series already stored completely.
    /// - Parameter series: symbol, bar size, what to show and trading hours.
    /// - Throws: `BarStoreError.database`.
    public func completedChunks(_ series: DownloadSeries) throws(BarStoreError) -> Set<DownloadChunk> {
        let rows = try perform("read download progress of \(series)") {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT chunk_start, chunk_end FROM download_chunks
                        WHERE symbol = ? AND bar_size = ? AND what_to_show = ? AND regular_hours = ?
                        """,
                    arguments: [
                        series.symbol.rawValue, series.barSize.text, series.whatToShow, series.regularHoursOnly,
                    ])
            }
        }
        var chunks: Set<DownloadChunk> = []
        for row in rows {
            let start: Int64? = row[0]
            let end: Int64? = row[1]
            guard let start, let end else { continue }
            chunks.insert(DownloadChunk(start: Timestamp(nanoseconds: start), end: Timestamp(nanoseconds: end)))
        }
        return chunks
    }

    /// Stores one downloaded chunk's bars and, when the chunk is complete (its end has passed), marks it done, in
    /// one transaction: after a crash the chunk is either fully recorded or downloaded again.
    /// - Parameters:
    ///   - bars: the chunk's bars.
    ///   - chunk: which chunk of which series, whether it is complete, and when it was stored.
    /// - Throws: `BarStoreError.database`.
    public func storeChunk(_ bars: [Bar], _ chunk: StoredChunk) throws(BarStoreError) {
        let series = chunk.series
        try perform("store chunk \(chunk.chunk) of \(series)") {
            try pool.write { db in
                try Self.upsert(bars, series: (series.symbol.rawValue, series.barSize.text), db: db)
                guard chunk.isComplete else { return }
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO download_chunks
                        (symbol, bar_size, what_to_show, regular_hours, chunk_start, chunk_end, bar_count, completed_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        series.symbol.rawValue, series.barSize.text, series.whatToShow, series.regularHoursOnly,
                        chunk.chunk.start.nanoseconds, chunk.chunk.end.nanoseconds, bars.count,
                        chunk.storedAt.nanoseconds,
                    ])
            }
        }
    }

    private func perform<T>(_ operation: String, _ body: () throws -> T) throws(BarStoreError) -> T {
        do {
            return try body()
        } catch let error as BarStoreError {
            throw error
        } catch {
            throw .database(path: path, operation: operation, reason: "\(error)")
        }
    }
}
