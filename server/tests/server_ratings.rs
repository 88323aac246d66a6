//! Ratings through the real server over TLS: a rated game changes both players' Glicko-2
//! ratings when the rating period ends, an unrated one changes nothing, the leaderboard
//! ranks them, and a restart keeps them.

mod server_support;

use std::time::{Duration, Instant};

use hnefatafl_net::protocol::{ClientMessage, GameId, RulesRating, ServerMessage};
use server_support::{
    PATIENCE, ServerProcess, TestClient, computer_game, make_and_join, open_game, started,
};

/// A new player's rating and deviation, as Glickman's paper sets them.
const NEW_RATING: i32 = 1500;
const NEW_DEVIATION: u32 = 350;

/// `creator` makes a brandub game, `joiner` takes the other seat, and `loser` (one of the
/// two, by name) resigns; both hear the end.
async fn play_to_resignation(
    creator: &mut TestClient,
    joiner: &mut TestClient,
    rated: bool,
    loser: &str,
) -> GameId {
    let [made, joined] = make_and_join(creator, joiner, open_game("brandub", None, rated)).await;
    assert_eq!(made.summary.rated, rated);
    let game = made.summary.game;
    assert_eq!(joined.summary.rated, rated);
    let resigning = if creator.name == loser {
        &mut *creator
    } else {
        &mut *joiner
    };
    resigning.send(ClientMessage::Resign { game }).await;
    for client in [creator, joiner] {
        client
            .expect(|m| match m {
                ServerMessage::Ended { game: g, .. } => (*g == game).then_some(()),
                ServerMessage::Error { message } => panic!("refused: {message}"),
                _ => None,
            })
            .await;
    }
    game
}

/// Asks until both accounts have a rating, for at most [`PATIENCE`].
async fn rated_when_the_period_ends(
    client: &mut TestClient,
    names: [&str; 2],
) -> [(RulesRating, usize); 2] {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let first = client.ratings_of(names[0]).await;
        let second = client.ratings_of(names[1]).await;
        if let ([one], [two]) = (first.0.as_slice(), second.0.as_slice()) {
            return [(one.clone(), first.1), (two.clone(), second.1)];
        }
        assert!(Instant::now() < deadline, "no ratings within {PATIENCE:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_games_change_ratings_when_the_period_ends_and_unrated_ones_do_not() {
    let period = ["--rating-period", "1s"];
    let (data, home, mut server) = started(&period);
    let port = server.port;

    let mut ann = TestClient::connect(port, home.path()).await;
    ann.register("ann", "password a").await;
    let mut bob = TestClient::connect(port, home.path()).await;
    bob.register("bob", "password b").await;
    assert_eq!(ann.ratings_of("ann").await, (Vec::new(), 0));

    // Bob wins an unrated game, then Ann a rated one. Were the unrated game counted, Bob
    // would have risen or both would have two games.
    play_to_resignation(&mut ann, &mut bob, false, "ann").await;
    play_to_resignation(&mut bob, &mut ann, true, "bob").await;

    let [(winner, winner_history), (loser, loser_history)] =
        rated_when_the_period_ends(&mut ann, ["ann", "bob"]).await;
    for rating in [&winner, &loser] {
        assert_eq!(rating.rules_id, "brandub");
        assert_eq!(rating.games, 1, "{rating:?}");
        // One game makes a new player's rating more certain.
        assert!(rating.deviation < NEW_DEVIATION, "{rating:?}");
    }
    assert!(winner.rating > NEW_RATING, "{winner:?}");
    assert!(loser.rating < NEW_RATING, "{loser:?}");
    assert_eq!((winner_history, loser_history), (1, 1));

    let (rules_id, board) = ann.leaderboard("brandub").await;
    assert_eq!(rules_id, "brandub");
    let ranks: Vec<(u32, &str, u32)> = board
        .iter()
        .map(|entry| (entry.rank, entry.name.as_str(), entry.games))
        .collect();
    assert_eq!(ranks, [(1, "ann", 1), (2, "bob", 1)]);
    assert_eq!(board[0].rating, winner.rating);

    // Another rule set's leaderboard is empty; an unknown one is named.
    let (_, entries) = ann.leaderboard("tablut").await;
    assert!(entries.is_empty());
    ann.send(ClientMessage::Ratings {
        rules: "no-such-game".into(),
        page: 0,
    })
    .await;
    assert!(ann.error().await.contains("no-such-game"));

    // A restart keeps the ratings; later periods without games only widen deviations.
    drop((ann, bob));
    server.kill();
    let _server = ServerProcess::start(data.path(), port, &period);
    let mut carl = TestClient::connect(port, home.path()).await;
    let (after, history) = carl.ratings_of("ann").await;
    assert_eq!(history, 1);
    assert_eq!(after.len(), 1);
    assert_eq!((after[0].rating, after[0].games), (winner.rating, 1));
    assert!(after[0].deviation >= winner.deviation);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_accounts_are_rated_too() {
    let (_data, home, server) = started(&["--rating-period", "1s", "--computer", "1"]);
    let mut ann = TestClient::connect(server.port, home.path()).await;
    ann.register("ann", "password a").await;
    ann.send(computer_game("brandub", "computer1", 0, true))
        .await;
    let state = ann.game_state().await;
    assert!(state.summary.rated);
    let game = state.summary.game;
    ann.send(ClientMessage::Resign { game }).await;
    ann.expect(|m| match m {
        ServerMessage::Ended { game: g, .. } => (*g == game).then_some(()),
        _ => None,
    })
    .await;
    let [(computer, _), (human, _)] =
        rated_when_the_period_ends(&mut ann, ["computer1", "ann"]).await;
    assert!(computer.rating > NEW_RATING, "{computer:?}");
    assert!(human.rating < NEW_RATING, "{human:?}");
}

/// Makes `<data>/server.db` as a server from before ratings did (schema version 0), with
/// a finished game of brandub in it.
fn database_from_before_ratings(data: &std::path::Path) {
    use sha2::{Digest, Sha256};
    let rules = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/brandub"),
    )
    .expect("the shipped brandub");
    let hash: String = Sha256::digest(rules.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let old = rusqlite::Connection::open(data.join("server.db")).expect("open");
    old.execute_batch(include_str!("server_support/schema_version_0.sql"))
        .expect("the old schema");
    old.execute(
        "INSERT INTO rules VALUES (?1, ?2)",
        rusqlite::params![hash, rules],
    )
    .expect("rules");
    old.execute(
        "INSERT INTO game VALUES (1, ?1, 'old0', 'old1', NULL, NULL, 1, 'resigned')",
        [hash],
    )
    .expect("a game");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_on_a_database_from_before_ratings_keeps_its_games_and_rates() {
    let data = tempfile::tempdir().expect("data dir");
    let home = tempfile::tempdir().expect("home");
    database_from_before_ratings(data.path());
    let server = ServerProcess::start(data.path(), 0, &["--rating-period", "1s"]);
    let mut ann = TestClient::connect(server.port, home.path()).await;
    ann.register("ann", "password a").await;
    let archive = ann.games_listed(ClientMessage::Archive).await;
    assert_eq!(archive.len(), 1);
    assert_eq!(
        archive[0].players,
        [Some("old0".into()), Some("old1".into())]
    );
    assert!(!archive[0].rated);
    let mut bob = TestClient::connect(server.port, home.path()).await;
    bob.register("bob", "password b").await;
    play_to_resignation(&mut ann, &mut bob, true, "ann").await;
    let [(winner, _), (loser, _)] = rated_when_the_period_ends(&mut ann, ["bob", "ann"]).await;
    assert!(winner.rating > NEW_RATING && loser.rating < NEW_RATING);
    // The old game, unrated, counted for nobody.
    assert_eq!(ann.ratings_of("old1").await, (Vec::new(), 0));
}
