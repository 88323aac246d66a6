//! The tournaments' table: each tournament's record, kept whole as JSON under its number
//! (the record's shape is `crate::tournament::Tournament`'s; the storage only keeps it).

use rusqlite::{Connection, params};

use super::StorageError;

/// Keeps a record, replacing the one kept under the same number.
pub(super) fn save(connection: &Connection, id: u64, record: &str) -> Result<(), StorageError> {
    connection.execute(
        "INSERT OR REPLACE INTO tournament (id, record) VALUES (?1, ?2)",
        params![id as i64, record],
    )?;
    Ok(())
}

/// Every record, by number.
pub(super) fn all(connection: &Connection) -> Result<Vec<(u64, String)>, StorageError> {
    let mut statement = connection.prepare("SELECT id, record FROM tournament ORDER BY id")?;
    let rows = statement.query_map([], |row| {
        Ok((row.get::<_, i64>(0)? as u64, row.get::<_, String>(1)?))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
