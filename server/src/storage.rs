//! The server's storage: accounts, rule files and games behind one small trait, with
//! SQLite (through rusqlite's bundled build) as the embedded default.
//!
//! Every change is one transaction, committed before the call returns: a move the server
//! acknowledges is on disk. The database runs in WAL mode with `synchronous=NORMAL`, which
//! keeps every committed transaction when the process is killed (SIGKILL included); only a
//! power cut may lose the last ones.

use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

/// A storage error: the database could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("database: {0}")]
pub struct StorageError(String);

impl From<rusqlite::Error> for StorageError {
    fn from(error: rusqlite::Error) -> Self {
        StorageError(error.to_string())
    }
}

/// A game's number: its row's id (the server gives it to clients as the game's number).
pub type GameNumber = u64;

/// A game's stored clock: Fischer main time plus an increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredClock {
    /// Each player's main time, in milliseconds.
    pub main_ms: u64,
    /// Time added after each move, in milliseconds.
    pub increment_ms: u64,
}

/// How a stored game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResult {
    /// The winner's side; `None` for a draw.
    pub winner: Option<u8>,
    /// Why, in words.
    pub reason: String,
}

/// One stored move with both clocks after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// The move, numeric notation.
    pub mv: String,
    /// Each player's time left after the move, in milliseconds (0 when untimed).
    pub clocks: [u64; 2],
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game.
    pub id: GameNumber,
    /// The hash of the rule file's text.
    pub rules_hash: String,
    /// The account at each seat.
    pub players: [Option<String>; 2],
    /// The clock, if timed.
    pub clock: Option<StoredClock>,
    /// Every move, oldest first.
    pub moves: Vec<StoredMove>,
    /// How it ended, if it did.
    pub result: Option<StoredResult>,
}

/// What the server keeps. One implementation per database; SQLite is the default.
pub trait Storage: Send {
    /// Makes an account; false when the name is taken.
    fn create_account(&mut self, name: &str, password_hash: &str) -> Result<bool, StorageError>;
    /// The password hash of an account.
    fn password_hash(&mut self, name: &str) -> Result<Option<String>, StorageError>;
    /// Keeps a rule file's text under its hash (nothing happens when it is there).
    fn add_rules(&mut self, hash: &str, text: &str) -> Result<(), StorageError>;
    /// Every stored rule file, as (hash, text).
    fn all_rules(&mut self) -> Result<Vec<(String, String)>, StorageError>;
    /// Makes a game and answers its number.
    fn create_game(
        &mut self,
        rules_hash: &str,
        clock: Option<StoredClock>,
    ) -> Result<GameNumber, StorageError>;
    /// Puts an account at a seat.
    fn set_player(&mut self, game: GameNumber, side: u8, name: &str) -> Result<(), StorageError>;
    /// Stores move `number` (1 for the first) of a game.
    fn add_move(
        &mut self,
        game: GameNumber,
        number: u32,
        stored: &StoredMove,
    ) -> Result<(), StorageError>;
    /// Removes the moves after the first `keep`.
    fn truncate_moves(&mut self, game: GameNumber, keep: u32) -> Result<(), StorageError>;
    /// Records how a game ended.
    fn finish_game(&mut self, game: GameNumber, result: &StoredResult) -> Result<(), StorageError>;
    /// Every game, finished or not, with its moves.
    fn games(&mut self) -> Result<Vec<GameRecord>, StorageError>;
}

/// The SQLite storage.
pub struct SqliteStorage {
    connection: Connection,
}

const SCHEMA: &str = "
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

impl SqliteStorage {
    /// Opens (or makes, readable by its owner only) the database file.
    ///
    /// # Errors
    ///
    /// The file cannot be opened or is not a database of this server.
    pub fn open(path: &Path) -> Result<SqliteStorage, StorageError> {
        // It holds the password hashes: made for its owner only, whatever the umask
        // (SQLite would make it readable by all). Its `-wal` and `-shm` files take its
        // permissions.
        OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .map_err(|error| StorageError(error.to_string()))?;
        let connection = Connection::open(path)?;
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.execute_batch(SCHEMA)?;
        Ok(SqliteStorage { connection })
    }
}

impl Storage for SqliteStorage {
    fn create_account(&mut self, name: &str, password_hash: &str) -> Result<bool, StorageError> {
        let added = self.connection.execute(
            "INSERT OR IGNORE INTO account (name, password_hash) VALUES (?1, ?2)",
            params![name, password_hash],
        )?;
        Ok(added == 1)
    }

    fn password_hash(&mut self, name: &str) -> Result<Option<String>, StorageError> {
        Ok(self
            .connection
            .query_row(
                "SELECT password_hash FROM account WHERE name = ?1",
                [name],
                |row| row.get(0),
            )
            .optional()?)
    }

    fn add_rules(&mut self, hash: &str, text: &str) -> Result<(), StorageError> {
        self.connection.execute(
            "INSERT OR IGNORE INTO rules (hash, text) VALUES (?1, ?2)",
            params![hash, text],
        )?;
        Ok(())
    }

    fn all_rules(&mut self) -> Result<Vec<(String, String)>, StorageError> {
        let mut statement = self.connection.prepare("SELECT hash, text FROM rules")?;
        let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn create_game(
        &mut self,
        rules_hash: &str,
        clock: Option<StoredClock>,
    ) -> Result<GameNumber, StorageError> {
        self.connection.execute(
            "INSERT INTO game (rules_hash, main_ms, increment_ms) VALUES (?1, ?2, ?3)",
            params![
                rules_hash,
                clock.map(|c| c.main_ms as i64),
                clock.map(|c| c.increment_ms as i64)
            ],
        )?;
        Ok(self.connection.last_insert_rowid() as GameNumber)
    }

    fn set_player(&mut self, game: GameNumber, side: u8, name: &str) -> Result<(), StorageError> {
        let column = if side == 0 { "player0" } else { "player1" };
        self.connection.execute(
            &format!("UPDATE game SET {column} = ?1 WHERE id = ?2"),
            params![name, game as i64],
        )?;
        Ok(())
    }

    fn add_move(
        &mut self,
        game: GameNumber,
        number: u32,
        stored: &StoredMove,
    ) -> Result<(), StorageError> {
        self.connection.execute(
            "INSERT INTO move (game, number, mv, clock0, clock1) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                game as i64,
                number,
                stored.mv,
                stored.clocks[0] as i64,
                stored.clocks[1] as i64
            ],
        )?;
        Ok(())
    }

    fn truncate_moves(&mut self, game: GameNumber, keep: u32) -> Result<(), StorageError> {
        self.connection.execute(
            "DELETE FROM move WHERE game = ?1 AND number > ?2",
            params![game as i64, keep],
        )?;
        Ok(())
    }

    fn finish_game(&mut self, game: GameNumber, result: &StoredResult) -> Result<(), StorageError> {
        self.connection.execute(
            "UPDATE game SET winner = ?1, reason = ?2 WHERE id = ?3",
            params![
                result.winner.map_or(-1, i64::from),
                result.reason,
                game as i64
            ],
        )?;
        Ok(())
    }

    fn games(&mut self) -> Result<Vec<GameRecord>, StorageError> {
        let mut statement = self.connection.prepare(
            "SELECT id, rules_hash, player0, player1, main_ms, increment_ms, winner, reason
             FROM game ORDER BY id",
        )?;
        let mut games = statement
            .query_map([], |row| {
                let main: Option<i64> = row.get(4)?;
                let increment: Option<i64> = row.get(5)?;
                let winner: Option<i64> = row.get(6)?;
                let reason: Option<String> = row.get(7)?;
                Ok(GameRecord {
                    id: row.get::<_, i64>(0)? as GameNumber,
                    rules_hash: row.get(1)?,
                    players: [row.get(2)?, row.get(3)?],
                    clock: main.map(|main| StoredClock {
                        main_ms: main as u64,
                        increment_ms: increment.unwrap_or(0) as u64,
                    }),
                    moves: Vec::new(),
                    result: reason.map(|reason| StoredResult {
                        winner: winner.and_then(|w| u8::try_from(w).ok()),
                        reason,
                    }),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut statement = self
            .connection
            .prepare("SELECT game, mv, clock0, clock1 FROM move ORDER BY game, number")?;
        let moves = statement.query_map([], |row| {
            Ok((
                row.get::<_, i64>(0)? as GameNumber,
                StoredMove {
                    mv: row.get(1)?,
                    clocks: [row.get::<_, i64>(2)? as u64, row.get::<_, i64>(3)? as u64],
                },
            ))
        })?;
        let mut index = 0;
        for row in moves {
            let (game, stored) = row?;
            // Both lists are sorted by game: walk them together.
            while index < games.len() && games[index].id < game {
                index += 1;
            }
            if let Some(record) = games.get_mut(index).filter(|record| record.id == game) {
                record.moves.push(stored);
            }
        }
        Ok(games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_survive_reopening() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("server.db");
        let clock = Some(StoredClock {
            main_ms: 60_000,
            increment_ms: 1000,
        });
        {
            let mut storage = SqliteStorage::open(&path).expect("open");
            assert!(storage.create_account("ann", "hash").expect("account"));
            assert!(!storage.create_account("ann", "other").expect("account"));
            storage.add_rules("h1", "id x").expect("rules");
            let first = storage.create_game("h1", clock).expect("game");
            let second = storage.create_game("h1", None).expect("game");
            storage.set_player(first, 1, "ann").expect("seat");
            for number in 1..=3 {
                let stored = StoredMove {
                    mv: format!("0 {number} 1 {number}"),
                    clocks: [number.into(), 7],
                };
                storage.add_move(first, number, &stored).expect("move");
            }
            storage.truncate_moves(first, 2).expect("undo");
            let result = StoredResult {
                winner: None,
                reason: "draw agreed".into(),
            };
            storage.finish_game(second, &result).expect("finish");
        }
        let mut storage = SqliteStorage::open(&path).expect("reopen");
        assert_eq!(
            storage.password_hash("ann").expect("read").as_deref(),
            Some("hash")
        );
        assert_eq!(storage.password_hash("bob").expect("read"), None);
        let games = storage.games().expect("games");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].players, [None, Some("ann".into())]);
        assert_eq!(games[0].clock, clock);
        let moves: Vec<&str> = games[0].moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(moves, ["0 1 1 1", "0 2 1 2"]);
        assert_eq!(games[0].moves[1].clocks, [2, 7]);
        assert_eq!(games[0].result, None);
        assert_eq!(games[1].result.as_ref().map(|r| r.winner), Some(None));
        assert_eq!(storage.all_rules().expect("rules").len(), 1);
    }
}
