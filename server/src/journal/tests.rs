use std::sync::mpsc;
use std::time::Duration;

use futures_util::FutureExt;

use super::*;
use crate::storage::{
    GameRecord, RatedGame, SqliteStorage, StoredHistory, StoredRating, StoredRules, StoredSeek,
    StoredTime,
};

/// SQLite whose `add_move` says when it begins and then waits to be let go.
struct Held {
    inner: SqliteStorage,
    began: mpsc::Sender<()>,
    release: mpsc::Receiver<()>,
}

impl Storage for Held {
    fn create_account(&mut self, name: &str, hash: &str) -> Result<bool, StorageError> {
        self.inner.create_account(name, hash)
    }
    fn password_hash(&mut self, name: &str) -> Result<Option<String>, StorageError> {
        self.inner.password_hash(name)
    }
    fn add_rules(
        &mut self,
        hash: &str,
        text: &str,
        uploader: Option<&str>,
    ) -> Result<(), StorageError> {
        self.inner.add_rules(hash, text, uploader)
    }
    fn all_rules(&mut self) -> Result<Vec<StoredRules>, StorageError> {
        self.inner.all_rules()
    }
    fn create_game(
        &mut self,
        game: GameNumber,
        rules_hash: &str,
        clock: Option<StoredClock>,
        rated: bool,
    ) -> Result<(), StorageError> {
        self.inner.create_game(game, rules_hash, clock, rated)
    }
    fn set_seek(&mut self, game: GameNumber, seek: &StoredSeek) -> Result<(), StorageError> {
        self.inner.set_seek(game, seek)
    }
    fn set_player(&mut self, game: GameNumber, side: u8, name: &str) -> Result<(), StorageError> {
        self.inner.set_player(game, side, name)
    }
    fn add_move(
        &mut self,
        game: GameNumber,
        number: u32,
        stored: &StoredMove,
    ) -> Result<(), StorageError> {
        self.began.send(()).expect("the test waits");
        self.release.recv().expect("the test lets go");
        self.inner.add_move(game, number, stored)
    }
    fn truncate_moves(
        &mut self,
        game: GameNumber,
        keep: u32,
        clocks: &StoredClocks,
    ) -> Result<(), StorageError> {
        self.inner.truncate_moves(game, keep, clocks)
    }
    fn start_turn(&mut self, game: GameNumber, at: StoredTime) -> Result<(), StorageError> {
        self.inner.start_turn(game, at)
    }
    fn finish_game(&mut self, game: GameNumber, result: &StoredResult) -> Result<(), StorageError> {
        self.inner.finish_game(game, result)
    }
    fn games(&mut self) -> Result<Vec<GameRecord>, StorageError> {
        self.inner.games()
    }
    fn period_end(&mut self) -> Result<Option<StoredTime>, StorageError> {
        self.inner.period_end()
    }
    fn uncounted_games(&mut self, before: StoredTime) -> Result<Vec<RatedGame>, StorageError> {
        self.inner.uncounted_games(before)
    }
    fn all_ratings(&mut self) -> Result<Vec<StoredRating>, StorageError> {
        self.inner.all_ratings()
    }
    fn close_period(
        &mut self,
        end: StoredTime,
        ratings: &[StoredRating],
        history: &[StoredHistory],
        counted: &[GameNumber],
    ) -> Result<(), StorageError> {
        self.inner.close_period(end, ratings, history, counted)
    }
    fn leaderboard(
        &mut self,
        rules_hash: &str,
        skip: u32,
        limit: u32,
    ) -> Result<Vec<StoredRating>, StorageError> {
        self.inner.leaderboard(rules_hash, skip, limit)
    }
    fn account_ratings(
        &mut self,
        name: &str,
        limit: u32,
    ) -> Result<Vec<StoredRating>, StorageError> {
        self.inner.account_ratings(name, limit)
    }
    fn history(&mut self, name: &str, limit: u32) -> Result<Vec<StoredHistory>, StorageError> {
        self.inner.history(name, limit)
    }
    fn save_tournament(&mut self, id: u64, record: &str) -> Result<(), StorageError> {
        self.inner.save_tournament(id, record)
    }
    fn tournaments(&mut self) -> Result<Vec<(u64, String)>, StorageError> {
        self.inner.tournaments()
    }
    fn add_moderation(&mut self, entry: &StoredAction) -> Result<(), StorageError> {
        self.inner.add_moderation(entry)
    }
    fn moderation_log(&mut self) -> Result<Vec<StoredAction>, StorageError> {
        self.inner.moderation_log()
    }
    fn unrate_game(&mut self, game: GameNumber) -> Result<(), StorageError> {
        self.inner.unrate_game(game)
    }
}

const PATIENCE: Duration = Duration::from_secs(30);

#[tokio::test]
async fn a_line_after_a_move_waits_until_the_move_is_committed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("server.db");
    let (began, began_here) = mpsc::channel();
    let (release_here, release) = mpsc::channel();
    let held = Held {
        inner: SqliteStorage::open(&path).expect("open"),
        began,
        release,
    };
    let mut reader = SqliteStorage::open(&path).expect("a second connection");
    let (mut journal, committed) = start(Box::new(held)).expect("the writer");

    journal.record(Write::AddRules {
        hash: "h".into(),
        text: "id x".into(),
        uploader: None,
    });
    journal.record(Write::CreateGame {
        game: 1,
        rules_hash: "h".into(),
        clock: None,
        rated: false,
    });
    let stored = StoredMove {
        mv: "1 2 3 2".into(),
        clocks: StoredClocks::default(),
    };
    journal.record(Write::AddMove {
        game: 1,
        number: 1,
        stored: stored.clone(),
    });
    // The `moved` line the referee queues behind the move.
    let after = journal.recorded();

    // A line queued before the move goes out once the game is made.
    let mut gate = committed.clone();
    tokio::time::timeout(PATIENCE, gate.reached(after - 1))
        .await
        .expect("the game is committed")
        .expect("no write failed");

    // The writer is inside the move's write: the line behind it is held.
    began_here
        .recv_timeout(PATIENCE)
        .expect("the move's write begins");
    let mut gate = committed.clone();
    assert!(
        gate.reached(after).now_or_never().is_none(),
        "a line went out before the move it follows was stored"
    );
    assert!(
        reader
            .games()
            .expect("read")
            .first()
            .expect("the game")
            .moves
            .is_empty()
    );

    // Once the move is stored, the line goes, and another connection reads the move.
    release_here.send(()).expect("let go");
    tokio::time::timeout(PATIENCE, gate.reached(after))
        .await
        .expect("the move is committed")
        .expect("no write failed");
    let games = reader.games().expect("read");
    assert_eq!(games[0].moves, [stored]);
}

#[tokio::test]
async fn a_failed_write_holds_back_every_later_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let storage = SqliteStorage::open(&dir.path().join("server.db")).expect("open");
    let (mut journal, committed) = start(Box::new(storage)).expect("the writer");
    // A game of rules never stored breaks the foreign key.
    journal.record(Write::CreateGame {
        game: 1,
        rules_hash: "missing".into(),
        clock: None,
        rated: false,
    });
    let mut gate = committed.clone();
    let error = tokio::time::timeout(PATIENCE, gate.reached(journal.recorded()))
        .await
        .expect("the write is tried")
        .expect_err("the write fails");
    assert!(error.contains("FOREIGN KEY"), "{error}");
    let mut watcher = committed.clone();
    assert_eq!(
        tokio::time::timeout(PATIENCE, watcher.failed())
            .await
            .expect("failed"),
        error
    );
}
