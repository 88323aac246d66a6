use super::*;

#[test]
fn games_survive_reopening() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("server.db");
    let clock = Some(StoredClock {
        main_ms: 60_000,
        increment_ms: 1000,
        ..StoredClock::default()
    });
    let after_undo = StoredClocks {
        times: [1, 5],
        periods: [0, 0],
    };
    {
        let mut storage = SqliteStorage::open(&path).expect("open");
        assert!(storage.create_account("ann", "hash").expect("account"));
        assert!(!storage.create_account("ann", "other").expect("account"));
        assert!(!storage.create_account("ANN", "other").expect("account"));
        storage.add_rules("h1", "id x", None).expect("rules");
        let (first, second) = (1, 2);
        storage.create_game(first, "h1", clock, true).expect("game");
        storage
            .create_game(second, "h1", None, false)
            .expect("game");
        storage.set_player(first, 1, "ann").expect("seat");
        for number in 1..=3 {
            let stored = StoredMove {
                mv: format!("0 {number} 1 {number}"),
                clocks: StoredClocks {
                    times: [number.into(), 7],
                    periods: [0, 0],
                },
            };
            storage.add_move(first, number, &stored).expect("move");
        }
        storage.truncate_moves(first, 2, &after_undo).expect("undo");
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
    assert!(games[0].rated && !games[1].rated);
    let moves: Vec<&str> = games[0].moves.iter().map(|m| m.mv.as_str()).collect();
    assert_eq!(moves, ["0 1 1 1", "0 2 1 2"]);
    assert_eq!(games[0].moves[1].clocks, after_undo);
    assert_eq!(games[0].result, None);
    assert_eq!(games[1].result.as_ref().map(|r| r.winner), Some(None));
    assert_eq!(storage.all_rules().expect("rules").len(), 1);
}

#[test]
fn byo_yomi_and_correspondence_clocks_survive_reopening() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("server.db");
    let byo_yomi = StoredClock {
        main_ms: 1000,
        periods: 3,
        period_ms: 500,
        ..StoredClock::default()
    };
    let correspondence = StoredClock {
        move_ms: 86_400_000,
        ..StoredClock::default()
    };
    let spent = StoredClocks {
        times: [0, 1000],
        periods: [2, 3],
    };
    {
        let mut storage = SqliteStorage::open(&path).expect("open");
        storage.add_rules("h1", "id x", None).expect("rules");
        storage
            .create_game(1, "h1", Some(byo_yomi), false)
            .expect("game");
        storage
            .create_game(2, "h1", Some(correspondence), false)
            .expect("game");
        let stored = StoredMove {
            mv: "0 1 1 1".into(),
            clocks: spent,
        };
        storage.add_move(1, 1, &stored).expect("move");
        // Every move taken back: the clocks before the first move are the spent ones.
        storage.truncate_moves(1, 0, &spent).expect("undo");
        storage.start_turn(2, 1234).expect("turn");
    }
    let mut storage = SqliteStorage::open(&path).expect("reopen");
    let games = storage.games().expect("games");
    assert_eq!(games[0].clock, Some(byo_yomi));
    assert!(games[0].moves.is_empty());
    assert_eq!(games[0].first_clocks, Some(spent));
    assert_eq!(games[0].turn_started, None);
    assert_eq!(games[1].clock, Some(correspondence));
    assert_eq!(games[1].first_clocks, None);
    assert_eq!(games[1].turn_started, Some(1234));
}

/// A database that a server from before ratings made (version 0, no `user_version`):
/// the tables as that server wrote them, with a finished game in them.
fn version_0_database(path: &Path) {
    let old = Connection::open(path).expect("open");
    old.execute_batch(include_str!(
        "../../tests/server_support/schema_version_0.sql"
    ))
    .expect("the old schema");
    old.execute_batch(
        "INSERT INTO account VALUES ('ann', 'hash');
         INSERT INTO rules VALUES ('h1', 'id x');
         INSERT INTO game VALUES (1, 'h1', 'ann', 'bob', NULL, NULL, 0, 'resigned');
         INSERT INTO move VALUES (1, 1, '0 1 1 1', 0, 0);",
    )
    .expect("the finished game");
}

#[test]
fn a_database_from_before_ratings_is_brought_up_to_date() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("server.db");
    version_0_database(&path);
    let mut storage = SqliteStorage::open(&path).expect("open an old database");
    assert_eq!(
        storage.password_hash("ann").expect("read").as_deref(),
        Some("hash")
    );
    let games = storage.games().expect("games");
    assert_eq!(games.len(), 1);
    assert!(!games[0].rated);
    assert_eq!(games[0].moves.len(), 1);
    assert_eq!(storage.period_end().expect("period"), None);
    assert!(storage.uncounted_games(i64::MAX).expect("games").is_empty());
    // The new tables work, and opening it again changes nothing.
    let rated = 2;
    storage.create_game(rated, "h1", None, true).expect("game");
    storage.set_player(rated, 0, "ann").expect("seat");
    storage.set_player(rated, 1, "bob").expect("seat");
    let result = StoredResult {
        winner: Some(1),
        reason: "resigned".into(),
    };
    storage.finish_game(rated, &result).expect("finish");
    drop(storage);
    let mut storage = SqliteStorage::open(&path).expect("reopen");
    let uncounted = storage.uncounted_games(i64::MAX).expect("games");
    assert_eq!(uncounted.len(), 1);
    assert_eq!(uncounted[0].winner, Some(1));
    assert_eq!(uncounted[0].players, ["ann".to_owned(), "bob".to_owned()]);
}

#[test]
fn a_closed_period_keeps_ratings_history_and_counted_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut storage = SqliteStorage::open(&dir.path().join("server.db")).expect("open");
    storage.add_rules("h1", "id x", None).expect("rules");
    let game = 1;
    storage.create_game(game, "h1", None, true).expect("game");
    storage.set_player(game, 0, "ann").expect("seat");
    storage.set_player(game, 1, "bob").expect("seat");
    let result = StoredResult {
        winner: None,
        reason: "draw agreed".into(),
    };
    storage.finish_game(game, &result).expect("finish");
    let rating = |name: &str, rating: f64| StoredRating {
        name: name.into(),
        rules_hash: "h1".into(),
        rating,
        deviation: 300.0,
        volatility: 0.06,
        games: 1,
        last_period: Some(10),
    };
    let history = StoredHistory {
        name: "bob".into(),
        rules_hash: "h1".into(),
        period_end: 10,
        rating: 1600.0,
        deviation: 300.0,
        games: 1,
    };
    let ratings = [rating("ann", 1400.0), rating("bob", 1600.0)];
    storage
        .close_period(10, &ratings, std::slice::from_ref(&history), &[game])
        .expect("close");
    assert_eq!(storage.period_end().expect("period"), Some(10));
    assert!(storage.uncounted_games(i64::MAX).expect("games").is_empty());
    let board = storage.leaderboard("h1", 0, 100).expect("board");
    let names: Vec<&str> = board.iter().map(|row| row.name.as_str()).collect();
    assert_eq!(names, ["bob", "ann"]);
    assert_eq!(storage.leaderboard("h1", 1, 100).expect("board").len(), 1);
    assert_eq!(
        storage.account_ratings("ann", 100).expect("ratings").len(),
        1
    );
    assert_eq!(storage.history("bob", 100).expect("history"), [history]);
    assert!(storage.history("ann", 100).expect("history").is_empty());
}

#[test]
fn a_database_newer_than_the_server_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("server.db");
    drop(SqliteStorage::open(&path).expect("open"));
    let newer = Connection::open(&path).expect("open");
    newer
        .pragma_update(None, "user_version", 99)
        .expect("version");
    drop(newer);
    let problem = SqliteStorage::open(&path)
        .err()
        .expect("refused")
        .to_string();
    assert!(problem.contains("version 99"), "{problem}");
}
