use std::sync::mpsc;
use std::time::Duration;

use futures_util::FutureExt;

use super::*;
use crate::storage::SqliteStorage;

const PATIENCE: Duration = Duration::from_secs(30);

#[tokio::test]
async fn a_line_after_a_move_waits_until_the_move_is_committed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("server.db");
    let (began, began_here) = mpsc::channel();
    let (release_here, release) = mpsc::channel();
    // SQLite, its writer saying when a move's write begins and then waiting to be let go.
    let mut held = SqliteStorage::open(&path).expect("open");
    let mut reader = SqliteStorage::open(&path).expect("a second connection");
    let (mut journal, committed) = start_committing(move |write| {
        if matches!(write, Write::AddMove { .. }) {
            began.send(()).expect("the test waits");
            release.recv().expect("the test lets go");
        }
        write.apply(&mut held)
    })
    .expect("the writer");

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
