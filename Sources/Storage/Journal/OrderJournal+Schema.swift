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
        registerSessionLogMigration(&migrator)  // OrderJournal+SessionLog.swift
        migrator.registerMigration("v5-intent-execution") { db in
            // Algo, outside-RTH and GTD expiry as OrderExecution.storedText; NULL for a plain order.
            try db.execute(sql: "ALTER TABLE intents ADD COLUMN execution TEXT")
        }
        migrator.registerMigration("v6-intent-modifications") { db in
            // How many times the order was modified (its type columns then hold the latest terms): a restarted
            // execution style goes on with the reprices it has left.
            try db.execute(sql: "ALTER TABLE intents ADD COLUMN modifications INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v7-journal-identity") { db in
            // The bot's identity, made at its first run: its orderRef namespace (`IBT:<bot>.R<run>:`), so the
            // bots of one account tell their orders and positions apart.
            try db.execute(sql: "CREATE TABLE identity (bot TEXT NOT NULL)")
        }
        migrator.registerMigration("v8-cash-currencies") { db in
            // An account trading instruments priced in other currencies: each one's cash and fill commissions
            // and rate (`CurrenciesColumn`); NULL in one currency.
            try db.execute(sql: "ALTER TABLE engine_cash ADD COLUMN currencies_json TEXT")
        }
        migrator.registerMigration("v9-fill-contract") { db in
            // The contract IB reported with an execution (`ContractTerms.storedText`: a future's month, multiplier
            // and local symbol, a pair's currency); NULL for a stock and for fills journaled before. A rolled
            // future's symbol (`ES continuous`) does not say which month traded.
            try db.execute(sql: "ALTER TABLE fills ADD COLUMN contract TEXT")
        }
        return migrator
    }

    /// Version 3, for the write before placeOrder: an intent is stored as columns, not JSON, so nothing is encoded
    /// (rows written before keep their `intent_json` and are read from it; new rows leave it empty). `intents` and
    /// `order_events` are rebuilt without AUTOINCREMENT (the journal never deletes from them, so `seq` still only
    /// grows) because AUTOINCREMENT rewrites `sqlite_sequence`'s page in every insert. The `state` index goes (the
    /// reads that filter on state run at start, on a small table) and the broker order id index becomes partial, so
    /// the intent's insert (no id yet) touches neither. An intent's commit went from six pages to three.
    static func registerIntentColumnsMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-intent-columns") { db in
            let v1Columns = """
                order_ref, symbol, side, quantity, order_type, limit_price, stop_price, intent_json, time_in_force,
                parent_ref, strategy, created_at, state, broker_order_id, perm_id, filled_quantity, updated_at, message
                """
            try db.execute(
                sql: """
                    CREATE TABLE intents_v3 (
                        seq INTEGER PRIMARY KEY,
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
                        message TEXT,
                        oca_group TEXT,
                        trail_percent REAL,
                        limit_offset INTEGER
                    );
                    INSERT INTO intents_v3 (seq, \(v1Columns)) SELECT seq, \(v1Columns) FROM intents;
                    DROP TABLE intents;
                    ALTER TABLE intents_v3 RENAME TO intents;
                    CREATE INDEX intents_broker_order_id ON intents (broker_order_id)
                        WHERE broker_order_id IS NOT NULL;
                    CREATE TABLE order_events_v3 (
                        seq INTEGER PRIMARY KEY,
                        order_ref TEXT NOT NULL,
                        time INTEGER NOT NULL,
                        state TEXT NOT NULL,
                        broker_order_id INTEGER,
                        perm_id INTEGER,
                        message TEXT
                    );
                    INSERT INTO order_events_v3 SELECT seq, order_ref, time, state, broker_order_id, perm_id, message
                        FROM order_events;
                    DROP TABLE order_events;
                    ALTER TABLE order_events_v3 RENAME TO order_events;
                    DELETE FROM sqlite_sequence WHERE name IN ('intents', 'order_events');
                    """)
        }
    }
}
