import Foundation
import GRDB

/// Parameter-sweep results in SQLite: one row per configuration with its parameters and every metric.
///
/// Tables: `sweep_runs(id, fingerprint, strategy, objective, shard, columns)` and
/// `sweep_results(run_id, config_id, row)`, where `row` is a JSON object of the `results.csv` columns (parameters,
/// then metrics, numbers as numbers) — queryable with SQLite's JSON functions:
/// ```sql
/// SELECT config_id, json_extract(row, '$.fast'), json_extract(row, '$.sharpe')
/// FROM sweep_results ORDER BY json_extract(row, '$.sharpe') DESC LIMIT 10;
/// ```
/// Saving the same run (same fingerprint and shard) again replaces its rows.
public struct SweepResultStore: Sendable {
    /// The SQLite file.
    public let path: String
    let pool: DatabasePool

    /// Opens or creates a store.
    /// - Throws: `BarStoreError.cannotOpen` naming the path.
    public init(path: String) throws(BarStoreError) {
        self.path = path
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            pool = try SharedDatabase.open(path: path, configuration: configuration, migrator: Self.migrator)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-sweeps") { db in
            try db.execute(sql: """
                CREATE TABLE sweep_runs (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    fingerprint TEXT NOT NULL,
                    strategy TEXT NOT NULL,
                    objective TEXT NOT NULL,
                    shard TEXT NOT NULL,
                    columns TEXT NOT NULL,
                    UNIQUE (fingerprint, shard)
                );
                CREATE TABLE sweep_results (
                    run_id INTEGER NOT NULL REFERENCES sweep_runs(id) ON DELETE CASCADE,
                    config_id INTEGER NOT NULL,
                    row TEXT NOT NULL,
                    PRIMARY KEY (run_id, config_id)
                );
                """)
        }
        return migrator
    }

    /// One sweep's description.
    public struct Run: Sendable, Equatable {
        public var fingerprint: String
        public var strategy: String
        public var objective: String
        public var shard: String
        /// The CSV header: the config id column first, then parameters, then metrics.
        public var columns: [String]

        public init(fingerprint: String, strategy: String, objective: String, shard: String, columns: [String]) {
            self.fingerprint = fingerprint
            self.strategy = strategy
            self.objective = objective
            self.shard = shard
            self.columns = columns
        }
    }

    /// Saves a run's rows (cells as in `results.csv`; the first cell is the config id).
    /// - Returns: the number of rows written.
    /// - Throws: `BarStoreError.database` naming the path, or `.corruptRow` for a row whose width is wrong.
    @discardableResult
    public func save(_ run: Run, rows: [[String]]) throws(BarStoreError) -> Int {
        for row in rows where row.count != run.columns.count {
            throw .corruptRow(path: path, detail: "a row has \(row.count) cells for \(run.columns.count) columns")
        }
        do {
            return try pool.write { db in
                try db.execute(
                    sql: "DELETE FROM sweep_runs WHERE fingerprint = ? AND shard = ?", arguments: [run.fingerprint, run.shard])
                try db.execute(
                    sql: "INSERT INTO sweep_runs (fingerprint, strategy, objective, shard, columns) VALUES (?, ?, ?, ?, ?)",
                    arguments: [run.fingerprint, run.strategy, run.objective, run.shard, Self.jsonArray(run.columns)])
                let runID = db.lastInsertedRowID
                let statement = try db.makeStatement(sql: "INSERT INTO sweep_results (run_id, config_id, row) VALUES (?, ?, ?)")
                for row in rows {
                    let configID = Int(row[0]) ?? 0
                    try statement.execute(arguments: [runID, configID, Self.jsonObject(run.columns, row)])
                }
                return rows.count
            }
        } catch {
            throw .database(path: path, operation: "save sweep results", reason: "\(error)")
        }
    }

    /// The rows of the run with this fingerprint and shard, ordered by config id, as column → cell text.
    public func rows(fingerprint: String, shard: String) throws(BarStoreError) -> [[String: String]] {
        do {
            return try pool.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT r.row FROM sweep_results r JOIN sweep_runs s ON s.id = r.run_id
                        WHERE s.fingerprint = ? AND s.shard = ? ORDER BY r.config_id
                        """,
                    arguments: [fingerprint, shard])
                return try rows.map { row in
                    let text: String = row[0]
                    let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
                    return object.mapValues { value in
                        if let number = value as? NSNumber { return number.stringValue }
                        return value as? String ?? ""
                    }
                }
            }
        } catch {
            throw .database(path: path, operation: "read sweep results", reason: "\(error)")
        }
    }

    private static func jsonArray(_ values: [String]) -> String {
        "[" + values.map(quoted).joined(separator: ",") + "]"
    }

    /// Numbers stay numbers (so SQL can sort them); everything else is a string; empty cells are null.
    private static func jsonObject(_ columns: [String], _ cells: [String]) -> String {
        var parts: [String] = []
        for (column, cell) in zip(columns, cells) {
            let value: String
            if cell.isEmpty {
                value = "null"
            } else if let number = Double(cell), number.isFinite {
                value = cell.hasPrefix(".") || cell.hasPrefix("-.") || cell.hasPrefix("+") ? String(number) : cell
            } else {
                value = quoted(cell)
            }
            parts.append(quoted(column) + ":" + value)
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
