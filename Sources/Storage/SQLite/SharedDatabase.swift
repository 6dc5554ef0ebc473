import Foundation
import GRDB

/// Opening a SQLite file that another process may be creating at the same moment (the bot and `ibtrader journal`, a
/// download and a backtest reading its store): both find no schema and both run the migrations.
enum SharedDatabase {
    /// Opens the pool, runs `setUp` on it, and brings it to `migrator`'s latest schema.
    ///
    /// Two races are absorbed. SQLite can answer "database is locked" where its busy timeout does not apply (the
    /// switch to WAL of a file being created): the open is tried again, for up to a second. GRDB reads which
    /// migrations were applied before running each in its own transaction, so the second process's `CREATE TABLE`
    /// fails once the first has committed: each such failure means another process applied a migration, and the next
    /// attempt skips what it did.
    static func open(
        path: String, configuration: Configuration, migrator: DatabaseMigrator,
        setUp: (DatabasePool) throws -> Void = { _ in }
    ) throws -> DatabasePool {
        var attempt = 1
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try setUp(pool)
                try migrate(pool, with: migrator)
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 100 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }

    private static func migrate(_ pool: DatabasePool, with migrator: DatabaseMigrator) throws {
        var attempt = 1
        while true {
            do {
                try migrator.migrate(pool)
                return
            } catch {
                if try pool.read({ db in try migrator.hasCompletedMigrations(db) }) { return }
                guard attempt < 20 else { throw error }
                attempt += 1
            }
        }
    }
}
