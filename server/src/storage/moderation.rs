//! The moderation log's rows (`crate::moderation` replays them at start) and the mark
//! that takes an aborted game out of the ratings.

use rusqlite::{Connection, params};

use super::{GameNumber, StorageError, StoredTime};

/// One moderator's action as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// The entry's number, the first being 1.
    pub number: u64,
    /// When.
    pub at: StoredTime,
    /// Who did it.
    pub by: String,
    /// What was done, and to whom: the wire's form of the action, as JSON (the log is
    /// shown as it was sent).
    pub action: String,
    /// Why, when the moderator said.
    pub reason: Option<String>,
}

pub(super) fn add(connection: &Connection, entry: &StoredAction) -> Result<(), StorageError> {
    connection.execute(
        "INSERT INTO moderation (number, at_ms, by_account, action, reason)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            entry.number as i64,
            entry.at,
            entry.by,
            entry.action,
            entry.reason
        ],
    )?;
    Ok(())
}

pub(super) fn log(connection: &Connection) -> Result<Vec<StoredAction>, StorageError> {
    let mut statement = connection.prepare(
        "SELECT number, at_ms, by_account, action, reason FROM moderation ORDER BY number",
    )?;
    let rows = statement.query_map([], |row| {
        Ok(StoredAction {
            number: row.get::<_, i64>(0)? as u64,
            at: row.get(1)?,
            by: row.get(2)?,
            action: row.get(3)?,
            reason: row.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(super) fn unrate(connection: &Connection, game: GameNumber) -> Result<(), StorageError> {
    connection.execute(
        "UPDATE game SET rated = 0 WHERE id = ?1",
        params![game as i64],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{SqliteStorage, Storage, StoredResult};
    use super::*;

    #[test]
    fn the_log_comes_back_in_order_and_an_aborted_game_is_unrated() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("server.db");
        let mut storage = SqliteStorage::open(&path).expect("opens");
        let entries = [1, 2].map(|number| StoredAction {
            number,
            at: 1_000 * number as i64,
            by: "boss".into(),
            action: format!(r#"{{"kind":"kick","account":"u{number}"}}"#),
            reason: (number == 2).then(|| "spam".to_owned()),
        });
        for entry in &entries {
            storage.add_moderation(entry).expect("added");
        }
        storage.add_rules("h", "rules", None).expect("rules");
        storage.create_game(1, "h", None, true).expect("a game");
        storage.set_player(1, 0, "ann").expect("seated");
        storage.set_player(1, 1, "bob").expect("seated");
        storage.unrate_game(1).expect("unrated");
        let result = StoredResult {
            winner: None,
            reason: "aborted".into(),
        };
        storage.finish_game(1, &result).expect("finished");
        drop(storage);
        let mut storage = SqliteStorage::open(&path).expect("opens again");
        assert_eq!(storage.moderation_log().expect("read"), entries);
        assert!(!storage.games().expect("games")[0].rated);
        assert!(storage.uncounted_games(i64::MAX).expect("read").is_empty());
    }
}
