//! Why the server could not start, or stopped: its own file, so that the referee and the
//! connections both name these errors without importing each other.

use hnefatafl_net::protocol::GameId;

use crate::storage::StorageError;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// A shipped rule file is broken.
    #[error("rules/{0}: {1}")]
    Rules(String, String),
    /// A stored game cannot be replayed.
    #[error("stored game {0}: {1}")]
    Game(GameId, String),
    /// A stored tournament cannot be read.
    #[error("stored tournament {0}: {1}")]
    Tournament(u64, String),
    /// A thread of the server (the storage writer, the computers' searches) could not be
    /// started.
    #[error("cannot start a thread: {0}")]
    Thread(std::io::Error),
    /// A storage write failed while the server ran: it stopped, so that no client is told
    /// of anything not stored.
    #[error("{0}; the server stopped, since it could no longer store what it is told")]
    Write(String),
}
