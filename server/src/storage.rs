//! The server's storage: accounts, rule files and games behind one small trait, with
//! SQLite (through rusqlite's bundled build) as the embedded default.
//!
//! Every change is one transaction, committed before the call returns: a move the server
//! acknowledges is on disk. The database runs in WAL mode with `synchronous=NORMAL`, which
//! keeps every committed transaction when the process is killed (SIGKILL included); only a
//! power cut may lose the last ones.
//!
//! The schema has a version (SQLite's `user_version`); [`SqliteStorage::open`] brings a
//! database of an older version up to date, so that a server started on an old data
//! directory keeps its accounts and games.

use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};

use schema::{MIGRATIONS, SCHEMA};

pub use moderation::StoredAction;

mod moderation;
mod schema;
mod tournaments;

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

/// A game's stored clock, in milliseconds: Fischer (main time and increment), byo-yomi
/// (main time and periods) or correspondence (time per move); the fields of the other
/// kinds are 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoredClock {
    /// Each player's main time.
    pub main_ms: u64,
    /// Time added after each move.
    pub increment_ms: u64,
    /// Byo-yomi periods.
    pub periods: u32,
    /// The length of a byo-yomi period.
    pub period_ms: u64,
    /// Correspondence: the time for each move.
    pub move_ms: u64,
}

/// Both players' clocks at one moment: time left in milliseconds (0 when untimed) and
/// byo-yomi periods left (0 without).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoredClocks {
    /// Each player's time left.
    pub times: [u64; 2],
    /// Each player's byo-yomi periods left.
    pub periods: [u32; 2],
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
    /// Both clocks after the move.
    pub clocks: StoredClocks,
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
    /// The clocks before the first move, when an undo took every move back (the time
    /// spent stays spent); `None` for full clocks.
    pub first_clocks: Option<StoredClocks>,
    /// When the current turn began, for a correspondence clock (its deadline runs on
    /// the wall clock, also while the server is down).
    pub turn_started: Option<StoredTime>,
    /// How it ended, if it did.
    pub result: Option<StoredResult>,
    /// Whether the result counts for the players' ratings.
    pub rated: bool,
    /// Who may take the free seat, for a seek or a challenge; `None` for an open game.
    pub seek: Option<StoredSeek>,
}

/// The terms of a seek as the storage keeps them: who may take its free seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredSeek {
    /// The one account that may take it (a challenge).
    pub to: Option<String>,
    /// The lowest rating in the game's rules that may take it.
    pub min_rating: Option<i32>,
    /// The highest rating in the game's rules that may take it.
    pub max_rating: Option<i32>,
}

/// A time as the storage keeps it: milliseconds since the Unix epoch.
pub type StoredTime = i64;

/// The time now, as the storage keeps it.
pub fn stored_now() -> StoredTime {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}

/// One account's rating in one rule set, on the Glicko scale.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredRating {
    /// The account.
    pub name: String,
    /// The hash of the rule file's text.
    pub rules_hash: String,
    /// The rating.
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
    /// Rated games counted so far.
    pub games: u32,
    /// The end of the last rating period in which the account played; `None` before any.
    pub last_period: Option<StoredTime>,
}

/// One account's rating after one rating period in which it played.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredHistory {
    /// The account.
    pub name: String,
    /// The hash of the rule file's text.
    pub rules_hash: String,
    /// The end of the period.
    pub period_end: StoredTime,
    /// The rating after the period.
    pub rating: f64,
    /// The rating deviation after the period.
    pub deviation: f64,
    /// Rated games of the account in the period.
    pub games: u32,
}

/// A finished rated game not yet counted in a rating period.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    /// The game.
    pub id: GameNumber,
    /// The hash of the rule file's text.
    pub rules_hash: String,
    /// The account at each seat.
    pub players: [String; 2],
    /// The winner's side; `None` for a draw.
    pub winner: Option<u8>,
}

/// A stored rule file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRules {
    /// The hash of its text.
    pub hash: String,
    /// Its text.
    pub text: String,
    /// The account that uploaded it; `None` for a shipped file.
    pub uploader: Option<String>,
}

/// What the server keeps. One implementation per database; SQLite is the default.
pub trait Storage: Send {
    /// Makes an account; false when the name is taken.
    fn create_account(&mut self, name: &str, password_hash: &str) -> Result<bool, StorageError>;
    /// The password hash of an account.
    fn password_hash(&mut self, name: &str) -> Result<Option<String>, StorageError>;
    /// Keeps a rule file's text under its hash, with the account that uploaded it (none
    /// for a shipped file); nothing happens when it is there.
    fn add_rules(
        &mut self,
        hash: &str,
        text: &str,
        uploader: Option<&str>,
    ) -> Result<(), StorageError>;
    /// Every stored rule file.
    fn all_rules(&mut self) -> Result<Vec<StoredRules>, StorageError>;
    /// Records when the current turn of a game began (correspondence clocks).
    fn start_turn(&mut self, game: GameNumber, at: StoredTime) -> Result<(), StorageError>;
    /// Makes game number `game` (the server numbers its games: one more than the last).
    fn create_game(
        &mut self,
        game: GameNumber,
        rules_hash: &str,
        clock: Option<StoredClock>,
        rated: bool,
    ) -> Result<(), StorageError>;
    /// Puts an account at a seat.
    fn set_player(&mut self, game: GameNumber, side: u8, name: &str) -> Result<(), StorageError>;
    /// Stores move `number` (1 for the first) of a game.
    fn add_move(
        &mut self,
        game: GameNumber,
        number: u32,
        stored: &StoredMove,
    ) -> Result<(), StorageError>;
    /// Removes the moves after the first `keep`, and sets the clocks after what is left
    /// to `clocks` (an undo gives no time back).
    fn truncate_moves(
        &mut self,
        game: GameNumber,
        keep: u32,
        clocks: &StoredClocks,
    ) -> Result<(), StorageError>;
    /// Records the terms of a seek: who may take the game's free seat.
    fn set_seek(&mut self, game: GameNumber, seek: &StoredSeek) -> Result<(), StorageError>;
    /// Records how a game ended, and when (now).
    fn finish_game(&mut self, game: GameNumber, result: &StoredResult) -> Result<(), StorageError>;
    /// Every game, finished or not, with its moves.
    fn games(&mut self) -> Result<Vec<GameRecord>, StorageError>;
    /// The end of the last rating period closed; `None` before the first.
    fn period_end(&mut self) -> Result<Option<StoredTime>, StorageError>;
    /// The finished rated games with both seats taken, ended before `before` and not yet
    /// counted in a rating period.
    fn uncounted_games(&mut self, before: StoredTime) -> Result<Vec<RatedGame>, StorageError>;
    /// Every rating of every account.
    fn all_ratings(&mut self) -> Result<Vec<StoredRating>, StorageError>;
    /// Closes a rating period, all in one transaction: the new ratings, the history rows,
    /// the games marked as counted, and `end` as the last period's end.
    fn close_period(
        &mut self,
        end: StoredTime,
        ratings: &[StoredRating],
        history: &[StoredHistory],
        counted: &[GameNumber],
    ) -> Result<(), StorageError>;
    /// At most `limit` ratings of a rule set from the `skip`th, highest rating first.
    fn leaderboard(
        &mut self,
        rules_hash: &str,
        skip: u32,
        limit: u32,
    ) -> Result<Vec<StoredRating>, StorageError>;
    /// At most `limit` of an account's ratings, the most played rule sets first.
    fn account_ratings(
        &mut self,
        name: &str,
        limit: u32,
    ) -> Result<Vec<StoredRating>, StorageError>;
    /// At most `limit` of an account's history rows, the latest first.
    fn history(&mut self, name: &str, limit: u32) -> Result<Vec<StoredHistory>, StorageError>;
    /// Keeps a tournament's record (its JSON) under its number, replacing the last.
    fn save_tournament(&mut self, id: u64, record: &str) -> Result<(), StorageError>;
    /// Every tournament's number and record, by number.
    fn tournaments(&mut self) -> Result<Vec<(u64, String)>, StorageError>;
    /// Adds an entry to the moderation log.
    fn add_moderation(&mut self, entry: &StoredAction) -> Result<(), StorageError>;
    /// The moderation log, oldest first.
    fn moderation_log(&mut self) -> Result<Vec<StoredAction>, StorageError>;
    /// Makes a game unrated (a moderator aborted it): no rating period counts it.
    fn unrate_game(&mut self, game: GameNumber) -> Result<(), StorageError>;
}

/// The SQLite storage.
pub struct SqliteStorage {
    connection: Connection,
}

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
        let mut connection = connection;
        migrate(&mut connection)?;
        Ok(SqliteStorage { connection })
    }
}

/// Brings the schema up to date, each step in a transaction of its own.
fn migrate(connection: &mut Connection) -> Result<(), StorageError> {
    let version: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let version = usize::try_from(version).unwrap_or(usize::MAX);
    if version > MIGRATIONS.len() {
        return Err(StorageError(format!(
            "the database has schema version {version}, newer than this server's {}",
            MIGRATIONS.len()
        )));
    }
    for (step, sql) in MIGRATIONS.iter().enumerate().skip(version) {
        let transaction = connection.transaction()?;
        transaction.execute_batch(sql)?;
        transaction.pragma_update(None, "user_version", step + 1)?;
        transaction.commit()?;
    }
    Ok(())
}

fn rating_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredRating> {
    Ok(StoredRating {
        name: row.get(0)?,
        rules_hash: row.get(1)?,
        rating: row.get(2)?,
        deviation: row.get(3)?,
        volatility: row.get(4)?,
        games: row.get(5)?,
        last_period: row.get(6)?,
    })
}

const RATING_COLUMNS: &str = "name, rules_hash, rating, deviation, volatility, games, last_period";

impl Storage for SqliteStorage {
    fn create_account(&mut self, name: &str, password_hash: &str) -> Result<bool, StorageError> {
        // Names are told apart without regard to case: `Owner` is `owner`'s.
        let added = self.connection.execute(
            "INSERT INTO account (name, password_hash)
             SELECT ?1, ?2
             WHERE NOT EXISTS (SELECT 1 FROM account WHERE name = ?1 COLLATE NOCASE)",
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

    fn add_rules(
        &mut self,
        hash: &str,
        text: &str,
        uploader: Option<&str>,
    ) -> Result<(), StorageError> {
        self.connection.execute(
            "INSERT OR IGNORE INTO rules (hash, text, uploader) VALUES (?1, ?2, ?3)",
            params![hash, text, uploader],
        )?;
        Ok(())
    }

    fn all_rules(&mut self) -> Result<Vec<StoredRules>, StorageError> {
        let mut statement = self
            .connection
            .prepare("SELECT hash, text, uploader FROM rules")?;
        let rows = statement.query_map([], |row| {
            Ok(StoredRules {
                hash: row.get(0)?,
                text: row.get(1)?,
                uploader: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn start_turn(&mut self, game: GameNumber, at: StoredTime) -> Result<(), StorageError> {
        self.connection.execute(
            "UPDATE game SET turn_ms = ?1 WHERE id = ?2",
            params![at, game as i64],
        )?;
        Ok(())
    }

    fn create_game(
        &mut self,
        game: GameNumber,
        rules_hash: &str,
        clock: Option<StoredClock>,
        rated: bool,
    ) -> Result<(), StorageError> {
        let clock_or_none = clock.unwrap_or_default();
        self.connection.execute(
            "INSERT INTO game (id, rules_hash, main_ms, increment_ms, rated, periods,
                               period_ms, move_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game as i64,
                rules_hash,
                clock.map(|c| c.main_ms as i64),
                clock.map(|c| c.increment_ms as i64),
                rated,
                clock_or_none.periods,
                clock_or_none.period_ms as i64,
                clock_or_none.move_ms as i64
            ],
        )?;
        Ok(())
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
            "INSERT INTO move (game, number, mv, clock0, clock1, periods0, periods1)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                game as i64,
                number,
                stored.mv,
                stored.clocks.times[0] as i64,
                stored.clocks.times[1] as i64,
                stored.clocks.periods[0],
                stored.clocks.periods[1]
            ],
        )?;
        Ok(())
    }

    fn truncate_moves(
        &mut self,
        game: GameNumber,
        keep: u32,
        clocks: &StoredClocks,
    ) -> Result<(), StorageError> {
        let transaction = self.connection.transaction()?;
        transaction.execute(
            "DELETE FROM move WHERE game = ?1 AND number > ?2",
            params![game as i64, keep],
        )?;
        let values = params![
            clocks.times[0] as i64,
            clocks.times[1] as i64,
            clocks.periods[0],
            clocks.periods[1],
            game as i64,
            keep
        ];
        if keep == 0 {
            transaction.execute(
                "UPDATE game SET first_clock0 = ?1, first_clock1 = ?2, first_periods0 = ?3,
                     first_periods1 = ?4 WHERE id = ?5 AND ?6 = 0",
                values,
            )?;
        } else {
            transaction.execute(
                "UPDATE move SET clock0 = ?1, clock1 = ?2, periods0 = ?3, periods1 = ?4
                 WHERE game = ?5 AND number = ?6",
                values,
            )?;
        }
        transaction.commit()?;
        Ok(())
    }

    fn set_seek(&mut self, game: GameNumber, seek: &StoredSeek) -> Result<(), StorageError> {
        self.connection.execute(
            "UPDATE game SET seek = 1, seek_to = ?1, seek_min = ?2, seek_max = ?3 WHERE id = ?4",
            params![seek.to, seek.min_rating, seek.max_rating, game as i64],
        )?;
        Ok(())
    }

    fn finish_game(&mut self, game: GameNumber, result: &StoredResult) -> Result<(), StorageError> {
        self.connection.execute(
            "UPDATE game SET winner = ?1, reason = ?2, finished_ms = ?3 WHERE id = ?4",
            params![
                result.winner.map_or(-1, i64::from),
                result.reason,
                stored_now(),
                game as i64
            ],
        )?;
        Ok(())
    }

    fn games(&mut self) -> Result<Vec<GameRecord>, StorageError> {
        let mut statement = self.connection.prepare(
            "SELECT id, rules_hash, player0, player1, main_ms, increment_ms, winner, reason,
                    rated, periods, period_ms, move_ms, turn_ms, first_clock0, first_clock1,
                    first_periods0, first_periods1, seek, seek_to, seek_min, seek_max
             FROM game ORDER BY id",
        )?;
        let mut games = statement
            .query_map([], |row| {
                let main: Option<i64> = row.get(4)?;
                let increment: Option<i64> = row.get(5)?;
                let winner: Option<i64> = row.get(6)?;
                let reason: Option<String> = row.get(7)?;
                let first: [Option<i64>; 4] =
                    [row.get(13)?, row.get(14)?, row.get(15)?, row.get(16)?];
                let first_clocks = match first {
                    [Some(time0), Some(time1), Some(periods0), Some(periods1)] => {
                        Some(StoredClocks {
                            times: [time0 as u64, time1 as u64],
                            periods: [periods0 as u32, periods1 as u32],
                        })
                    }
                    _ => None,
                };
                let (periods, period_ms, move_ms): (i64, i64, i64) =
                    (row.get(9)?, row.get(10)?, row.get(11)?);
                let seek = if row.get::<_, bool>(17)? {
                    Some(StoredSeek {
                        to: row.get(18)?,
                        min_rating: row.get(19)?,
                        max_rating: row.get(20)?,
                    })
                } else {
                    None
                };
                Ok(GameRecord {
                    id: row.get::<_, i64>(0)? as GameNumber,
                    rules_hash: row.get(1)?,
                    players: [row.get(2)?, row.get(3)?],
                    clock: main.map(|main| StoredClock {
                        main_ms: main as u64,
                        increment_ms: increment.unwrap_or(0) as u64,
                        periods: periods as u32,
                        period_ms: period_ms as u64,
                        move_ms: move_ms as u64,
                    }),
                    moves: Vec::new(),
                    first_clocks,
                    turn_started: row.get(12)?,
                    result: reason.map(|reason| StoredResult {
                        winner: winner.and_then(|w| u8::try_from(w).ok()),
                        reason,
                    }),
                    rated: row.get(8)?,
                    seek,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut statement = self.connection.prepare(
            "SELECT game, mv, clock0, clock1, periods0, periods1 FROM move
                 ORDER BY game, number",
        )?;
        let moves = statement.query_map([], |row| {
            Ok((
                row.get::<_, i64>(0)? as GameNumber,
                StoredMove {
                    mv: row.get(1)?,
                    clocks: StoredClocks {
                        times: [row.get::<_, i64>(2)? as u64, row.get::<_, i64>(3)? as u64],
                        periods: [row.get(4)?, row.get(5)?],
                    },
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

    fn period_end(&mut self) -> Result<Option<StoredTime>, StorageError> {
        Ok(self
            .connection
            .query_row("SELECT period_end FROM rating_period", [], |row| row.get(0))
            .optional()?)
    }

    fn uncounted_games(&mut self, before: StoredTime) -> Result<Vec<RatedGame>, StorageError> {
        let mut statement = self.connection.prepare(
            "SELECT id, rules_hash, player0, player1, winner FROM game
             WHERE rated AND counted_in IS NULL AND finished_ms < ?1
                   AND player0 IS NOT NULL AND player1 IS NOT NULL
             ORDER BY id",
        )?;
        let rows = statement.query_map([before], |row| {
            let winner: Option<i64> = row.get(4)?;
            Ok(RatedGame {
                id: row.get::<_, i64>(0)? as GameNumber,
                rules_hash: row.get(1)?,
                players: [row.get(2)?, row.get(3)?],
                winner: winner.and_then(|w| u8::try_from(w).ok()),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn all_ratings(&mut self) -> Result<Vec<StoredRating>, StorageError> {
        let mut statement = self
            .connection
            .prepare(&format!("SELECT {RATING_COLUMNS} FROM rating"))?;
        let rows = statement.query_map([], rating_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn close_period(
        &mut self,
        end: StoredTime,
        ratings: &[StoredRating],
        history: &[StoredHistory],
        counted: &[GameNumber],
    ) -> Result<(), StorageError> {
        let transaction = self.connection.transaction()?;
        {
            let mut rating = transaction.prepare(&format!(
                "INSERT OR REPLACE INTO rating ({RATING_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
            ))?;
            for row in ratings {
                rating.execute(params![
                    row.name,
                    row.rules_hash,
                    row.rating,
                    row.deviation,
                    row.volatility,
                    row.games,
                    row.last_period
                ])?;
            }
            let mut past = transaction.prepare(
                "INSERT OR REPLACE INTO rating_history
                 (name, rules_hash, period_end, rating, deviation, games)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for row in history {
                past.execute(params![
                    row.name,
                    row.rules_hash,
                    row.period_end,
                    row.rating,
                    row.deviation,
                    row.games
                ])?;
            }
            let mut game = transaction.prepare("UPDATE game SET counted_in = ?1 WHERE id = ?2")?;
            for id in counted {
                game.execute(params![end, *id as i64])?;
            }
            transaction.execute(
                "INSERT OR REPLACE INTO rating_period (id, period_end) VALUES (0, ?1)",
                [end],
            )?;
        }
        transaction.commit()?;
        Ok(())
    }

    fn leaderboard(
        &mut self,
        rules_hash: &str,
        skip: u32,
        limit: u32,
    ) -> Result<Vec<StoredRating>, StorageError> {
        let mut statement = self.connection.prepare(&format!(
            "SELECT {RATING_COLUMNS} FROM rating WHERE rules_hash = ?1
             ORDER BY rating DESC, name LIMIT ?2 OFFSET ?3"
        ))?;
        let rows = statement.query_map(params![rules_hash, limit, skip], rating_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn account_ratings(
        &mut self,
        name: &str,
        limit: u32,
    ) -> Result<Vec<StoredRating>, StorageError> {
        let mut statement = self.connection.prepare(&format!(
            "SELECT {RATING_COLUMNS} FROM rating WHERE name = ?1
             ORDER BY games DESC, rules_hash LIMIT ?2"
        ))?;
        let rows = statement.query_map(params![name, limit], rating_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn history(&mut self, name: &str, limit: u32) -> Result<Vec<StoredHistory>, StorageError> {
        let mut statement = self.connection.prepare(
            "SELECT name, rules_hash, period_end, rating, deviation, games FROM rating_history
             WHERE name = ?1 ORDER BY period_end DESC, rules_hash LIMIT ?2",
        )?;
        let rows = statement.query_map(params![name, limit], |row| {
            Ok(StoredHistory {
                name: row.get(0)?,
                rules_hash: row.get(1)?,
                period_end: row.get(2)?,
                rating: row.get(3)?,
                deviation: row.get(4)?,
                games: row.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn save_tournament(&mut self, id: u64, record: &str) -> Result<(), StorageError> {
        tournaments::save(&self.connection, id, record)
    }

    fn tournaments(&mut self) -> Result<Vec<(u64, String)>, StorageError> {
        tournaments::all(&self.connection)
    }

    fn add_moderation(&mut self, entry: &StoredAction) -> Result<(), StorageError> {
        moderation::add(&self.connection, entry)
    }

    fn moderation_log(&mut self) -> Result<Vec<StoredAction>, StorageError> {
        moderation::log(&self.connection)
    }

    fn unrate_game(&mut self, game: GameNumber) -> Result<(), StorageError> {
        moderation::unrate(&self.connection, game)
    }
}

#[cfg(test)]
mod tests;
