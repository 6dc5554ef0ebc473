import GRDB

// The journal's schema. Migrations are never edited once released: users' journals hold them.
extension OrderJournal {
    /// Every migration, oldest first: opening a journal brings it to the latest schema.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-journal") { db in
            try db.execute(
                sql: """
                    CREATE TABLE intents (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        order_ref TEXT NOT NULL UNIQUE,
                        symbol TEXT NOT NULL,
                        side TEXT NOT NULL,
                        quantity INTEGER NOT NULL,
                        order_type TEXT NOT NULL,
                        limit_price INTEGER,
                        stop_price INTEGER,
                        intent_json TEXT NOT NULL,
                        time_in_force TEXT NOT NULL,
                        parent_ref TEXT,
                        strategy TEXT,
                        created_at INTEGER NOT NULL,
                        state TEXT NOT NULL,
                        broker_order_id INTEGER,
                        perm_id INTEGER,
                        filled_quantity INTEGER NOT NULL DEFAULT 0,
                        updated_at INTEGER NOT NULL,
                        message TEXT
                    );
                    CREATE INDEX intents_broker_order_id ON intents (broker_order_id);
                    CREATE INDEX intents_state ON intents (state);
                    CREATE TABLE order_events (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        order_ref TEXT NOT NULL,
                        time INTEGER NOT NULL,
                        state TEXT NOT NULL,
                        broker_order_id INTEGER,
                        perm_id INTEGER,
                        message TEXT
                    );
                    CREATE TABLE fills (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        exec_id TEXT NOT NULL UNIQUE,
                        order_ref TEXT,
                        broker_order_id INTEGER,
                        perm_id INTEGER,
                        symbol TEXT NOT NULL,
                        side TEXT NOT NULL,
                        quantity INTEGER NOT NULL,
                        price INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        account TEXT,
                        commission INTEGER,
                        commission_currency TEXT,
                        realized_pnl INTEGER
                    );
                    CREATE TABLE early_commissions (
                        exec_id TEXT PRIMARY KEY,
                        commission INTEGER NOT NULL,
                        currency TEXT,
                        realized_pnl INTEGER,
                        received_at INTEGER NOT NULL
                    );
                    CREATE TABLE positions (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        snapshot INTEGER NOT NULL,
                        time INTEGER NOT NULL,
                        account TEXT,
                        symbol TEXT NOT NULL,
                        quantity INTEGER NOT NULL,
                        average_cost INTEGER
                    );
                    CREATE TABLE events (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        time INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        message TEXT NOT NULL
                    );
                    """)
        }
        registerRunMigrations(&migrator)  // OrderJournal+Runs.swift
        registerIntentColumnsMigration(&migrator)
        return migrator
    }

    /// Version 3: an intent is stored as columns, not JSON, so the write before placeOrder encodes nothing. Rows
    /// written before keep their `intent_json` (read as before); new rows leave it empty. The `state` index goes: no
    /// query needs it (the reads that filter on state run at start on a small table), and every status change paid a
    /// page write for it. The broker order id index becomes partial: an intent is inserted without an id, so the
    /// insert no longer touches that index.
    static func registerIntentColumnsMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-intent-columns") { db in
            try db.execute(
                sql: """
                    ALTER TABLE intents ADD COLUMN oca_group TEXT;
                    ALTER TABLE intents ADD COLUMN trail_percent REAL;
                    ALTER TABLE intents ADD COLUMN limit_offset INTEGER;
                    DROP INDEX intents_state;
                    DROP INDEX intents_broker_order_id;
                    CREATE INDEX intents_broker_order_id ON intents (broker_order_id)
                        WHERE broker_order_id IS NOT NULL;
                    """)
        }
    }
}
