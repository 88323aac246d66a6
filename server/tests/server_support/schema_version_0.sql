-- The tables as a server from before ratings made them (schema version 0, no
-- `user_version`), for the tests that bring such a database up to date.
CREATE TABLE account (name TEXT PRIMARY KEY, password_hash TEXT NOT NULL);
CREATE TABLE rules (hash TEXT PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE game (id INTEGER PRIMARY KEY,
    rules_hash TEXT NOT NULL REFERENCES rules(hash), player0 TEXT, player1 TEXT,
    main_ms INTEGER, increment_ms INTEGER, winner INTEGER, reason TEXT);
CREATE TABLE move (game INTEGER NOT NULL REFERENCES game(id),
    number INTEGER NOT NULL, mv TEXT NOT NULL, clock0 INTEGER NOT NULL,
    clock1 INTEGER NOT NULL, PRIMARY KEY (game, number));
