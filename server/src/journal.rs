//! The referee's storage writes, committed off its lock, and the gate that holds back
//! every message until the writes recorded before it are on disk.
//!
//! Under the lock the referee only records a write ([`Journal::record`], a typed
//! [`Write`] numbered in order and put on a channel) and queues the messages that follow
//! it, each tagged with the number of the last write recorded before it ([`Line`]). One
//! thread owns the [`Storage`] and commits the writes in the order they were recorded,
//! publishing the number of the last one committed ([`Committed`]). A connection's
//! writing task sends a line only once that number has reached the line's tag. So a move
//! acknowledged or relayed to anybody is committed first, the order of the lines each
//! connection sees is the order the referee queued them in, and no disk write happens
//! under the lock.

use tokio::sync::watch;

use crate::storage::{
    GameNumber, Storage, StorageError, StoredAction, StoredClock, StoredClocks, StoredMove,
    StoredResult, StoredSeek, StoredTime,
};

/// One change to the storage, recorded by the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Write {
    /// An uploaded rule file.
    AddRules {
        hash: String,
        text: String,
        uploader: Option<String>,
    },
    /// A new game, its number given by the referee.
    CreateGame {
        game: GameNumber,
        rules_hash: String,
        clock: Option<StoredClock>,
        rated: bool,
    },
    /// An account takes a seat.
    SetPlayer {
        game: GameNumber,
        side: u8,
        name: String,
    },
    /// A move with both clocks after it.
    AddMove {
        game: GameNumber,
        number: u32,
        stored: StoredMove,
    },
    /// An undo: the moves after the first `keep` are taken back; the clocks stay as they
    /// are.
    TruncateMoves {
        game: GameNumber,
        keep: u32,
        clocks: StoredClocks,
    },
    /// The terms of a seek: who may take the game's free seat.
    SetSeek {
        game: GameNumber,
        seek: StoredSeek,
    },
    /// The current turn began (correspondence clocks).
    StartTurn {
        game: GameNumber,
        at: StoredTime,
    },
    /// The game's end.
    FinishGame {
        game: GameNumber,
        result: StoredResult,
    },
    /// A tournament's record (its JSON), whole, replacing the last.
    SaveTournament {
        id: u64,
        record: String,
    },
    /// A moderator's action, and a game a moderator aborted, which no rating counts.
    AddModeration(StoredAction),
    UnrateGame(GameNumber),
}

impl Write {
    /// Commits the write.
    fn apply(&self, storage: &mut dyn Storage) -> Result<(), StorageError> {
        match self {
            Write::AddRules {
                hash,
                text,
                uploader,
            } => storage.add_rules(hash, text, uploader.as_deref()),
            Write::CreateGame {
                game,
                rules_hash,
                clock,
                rated,
            } => storage.create_game(*game, rules_hash, *clock, *rated),
            Write::SetPlayer { game, side, name } => storage.set_player(*game, *side, name),
            Write::AddMove {
                game,
                number,
                stored,
            } => storage.add_move(*game, *number, stored),
            Write::TruncateMoves { game, keep, clocks } => {
                storage.truncate_moves(*game, *keep, clocks)
            }
            Write::SetSeek { game, seek } => storage.set_seek(*game, seek),
            Write::StartTurn { game, at } => storage.start_turn(*game, *at),
            Write::FinishGame { game, result } => storage.finish_game(*game, result),
            Write::SaveTournament { id, record } => storage.save_tournament(*id, record),
            Write::AddModeration(entry) => storage.add_moderation(entry),
            Write::UnrateGame(game) => storage.unrate_game(*game),
        }
    }
}

/// A line for one connection, sent once the writes recorded before it are committed.
#[derive(Debug)]
pub(crate) struct Line {
    /// The number of the last write recorded before the line was queued (0: none).
    pub(crate) after: u64,
    /// The line, its newline included.
    pub(crate) text: String,
}

/// The referee's end: records writes in order.
pub(crate) struct Journal {
    recorded: u64,
    writes: std::sync::mpsc::Sender<(u64, Write)>,
}

impl Journal {
    /// Records a write, to be committed after every write recorded before it. It never
    /// waits: the channel is unbounded, and the writer takes a write in the time of one
    /// SQLite transaction.
    pub(crate) fn record(&mut self, write: Write) {
        self.recorded += 1;
        // Once the writer has stopped (a failed write), the server is stopping too, and
        // nothing queued from now on is ever sent.
        let _ = self.writes.send((self.recorded, write));
    }

    /// The number of the last write recorded.
    pub(crate) fn recorded(&self) -> u64 {
        self.recorded
    }
}

/// Where the writer stands.
#[derive(Clone, Debug)]
enum Progress {
    /// Every write up to this number is committed.
    Committed(u64),
    /// A write failed; the writer has stopped.
    Failed(String),
}

/// How far the writer has committed, for the connections' writing tasks to wait on.
#[derive(Clone)]
pub(crate) struct Committed(watch::Receiver<Progress>);

impl Committed {
    /// Waits until every write up to `after` is committed.
    ///
    /// # Errors
    ///
    /// A write failed (its error in words): nothing recorded after it will ever be
    /// committed, so nothing queued after it may be sent.
    pub(crate) async fn reached(&mut self, after: u64) -> Result<(), String> {
        let progress = self
            .0
            .wait_for(|progress| match progress {
                Progress::Committed(committed) => *committed >= after,
                Progress::Failed(_) => true,
            })
            .await
            .map_err(|_| "the storage writer stopped".to_owned())?;
        match &*progress {
            Progress::Committed(_) => Ok(()),
            Progress::Failed(error) => Err(error.clone()),
        }
    }

    /// Waits until a write fails, and answers its error; never returns while the
    /// writes succeed.
    pub(crate) async fn failed(&mut self) -> String {
        match self.reached(u64::MAX).await {
            Err(error) => error,
            Ok(()) => std::future::pending().await,
        }
    }
}

/// Starts the writer: a thread of its own that owns `storage` and commits every
/// recorded write in order, until the journal is dropped or a write fails.
///
/// # Errors
///
/// The thread cannot be started.
pub(crate) fn start(mut storage: Box<dyn Storage>) -> std::io::Result<(Journal, Committed)> {
    start_committing(move |write| write.apply(&mut *storage))
}

/// Starts the writer as [`start`] does, each write committed by `commit` (the tests
/// watch the writes this way).
fn start_committing(
    mut commit: impl FnMut(&Write) -> Result<(), StorageError> + Send + 'static,
) -> std::io::Result<(Journal, Committed)> {
    let (writes, pending) = std::sync::mpsc::channel::<(u64, Write)>();
    let (progress, committed) = watch::channel(Progress::Committed(0));
    std::thread::Builder::new()
        .name("storage writer".to_owned())
        .spawn(move || {
            for (number, write) in pending {
                if let Err(error) = commit(&write) {
                    progress.send_replace(Progress::Failed(error.to_string()));
                    return;
                }
                progress.send_replace(Progress::Committed(number));
            }
        })?;
    Ok((
        Journal {
            recorded: 0,
            writes,
        },
        Committed(committed),
    ))
}

#[cfg(test)]
mod tests;
