//! The database's tables: the first schema and the migrations that bring a database of
//! any earlier version up to date.

/// The first schema, version 0; [`MIGRATIONS`] bring it up to date.
pub(super) const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS account (
        name TEXT PRIMARY KEY,
        password_hash TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS rules (
        hash TEXT PRIMARY KEY,
        text TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS game (
        id INTEGER PRIMARY KEY,
        rules_hash TEXT NOT NULL REFERENCES rules(hash),
        player0 TEXT,
        player1 TEXT,
        main_ms INTEGER,
        increment_ms INTEGER,
        winner INTEGER,
        reason TEXT
    );
    CREATE TABLE IF NOT EXISTS move (
        game INTEGER NOT NULL REFERENCES game(id),
        number INTEGER NOT NULL,
        mv TEXT NOT NULL,
        clock0 INTEGER NOT NULL,
        clock1 INTEGER NOT NULL,
        PRIMARY KEY (game, number)
    );
";

/// The schema's changes: the `n`th brings version `n` to version `n + 1`. A database
/// records its version in `user_version`; a new one starts at 0 and runs them all.
pub(super) const MIGRATIONS: &[&str] = &[
    "
    ALTER TABLE game ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game ADD COLUMN finished_ms INTEGER;
    ALTER TABLE game ADD COLUMN counted_in INTEGER;
    CREATE TABLE rating (
        name TEXT NOT NULL,
        rules_hash TEXT NOT NULL REFERENCES rules(hash),
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        last_period INTEGER,
        PRIMARY KEY (name, rules_hash)
    );
    CREATE INDEX rating_order ON rating (rules_hash, rating DESC);
    CREATE TABLE rating_history (
        name TEXT NOT NULL,
        rules_hash TEXT NOT NULL REFERENCES rules(hash),
        period_end INTEGER NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (name, period_end, rules_hash)
    );
    CREATE TABLE rating_period (
        id INTEGER PRIMARY KEY CHECK (id = 0),
        period_end INTEGER NOT NULL
    );
",
    "
    ALTER TABLE game ADD COLUMN periods INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game ADD COLUMN period_ms INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game ADD COLUMN move_ms INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game ADD COLUMN turn_ms INTEGER;
    ALTER TABLE game ADD COLUMN first_clock0 INTEGER;
    ALTER TABLE game ADD COLUMN first_clock1 INTEGER;
    ALTER TABLE game ADD COLUMN first_periods0 INTEGER;
    ALTER TABLE game ADD COLUMN first_periods1 INTEGER;
    ALTER TABLE move ADD COLUMN periods0 INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE move ADD COLUMN periods1 INTEGER NOT NULL DEFAULT 0;
",
    "
    ALTER TABLE game ADD COLUMN seek INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE game ADD COLUMN seek_to TEXT;
    ALTER TABLE game ADD COLUMN seek_min INTEGER;
    ALTER TABLE game ADD COLUMN seek_max INTEGER;
",
    "
    ALTER TABLE rules ADD COLUMN uploader TEXT;
",
    // The tournaments, each a JSON record (`crate::tournament`).
    "
    CREATE TABLE tournament (
        id INTEGER PRIMARY KEY,
        record TEXT NOT NULL
    );
",
    // The moderation log (`crate::moderation`).
    "
    CREATE TABLE moderation (
        number INTEGER PRIMARY KEY,
        at_ms INTEGER NOT NULL,
        by_account TEXT NOT NULL,
        action TEXT NOT NULL,
        reason TEXT
    );
",
];
