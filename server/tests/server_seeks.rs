//! Seeks, challenges and rematches through the real binary, on the wire: who may take a
//! seek's seat, the challenged player told at once, the side drawn when not chosen, a
//! rematch with the sides swapped, and the hourly quota of challenges.

mod server_support;

use hnefatafl_net::protocol::{ClientMessage, GameSummary, SeekTerms, ServerMessage};
use server_support::{ServerProcess, TestClient, started};

fn seek(rules: &str, side: Option<u8>, terms: SeekTerms) -> ClientMessage {
    ClientMessage::Seek {
        rules: rules.to_owned(),
        clock: None,
        side,
        rated: false,
        terms,
    }
}

fn to(name: &str) -> SeekTerms {
    SeekTerms {
        to: Some(name.to_owned()),
        ..SeekTerms::default()
    }
}

async fn challenged(client: &mut TestClient) -> (String, GameSummary) {
    client
        .expect(|m| match m {
            ServerMessage::Challenged { from, summary } => Some((from.clone(), summary.clone())),
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_is_for_the_challenged_and_a_rematch_swaps_the_sides() {
    let (_data, home, server) = started(&[]);
    let [mut ann, mut bob, mut carl] =
        TestClient::all_registered(server.port, home.path(), ["ann", "bob", "carl"]).await;

    ann.send(seek("brandub", Some(1), to("bob"))).await;
    let state = ann.game_state().await;
    let game = state.summary.game;
    assert_eq!(state.summary.players, [None, Some("ann".to_owned())]);
    assert_eq!(state.summary.seek, Some(to("bob")));
    let (from, summary) = challenged(&mut bob).await;
    assert_eq!((from.as_str(), summary.game), ("ann", game));

    carl.send(ClientMessage::Join { game }).await;
    let refused = carl.error().await;
    assert!(refused.contains("a challenge to bob"), "{refused}");
    bob.send(ClientMessage::Join { game }).await;
    let state = bob.game_state().await;
    assert_eq!(state.your_side, Some(0));
    assert_eq!(state.summary.seek, None, "a taken seek is an ordinary game");

    bob.send(ClientMessage::Resign { game }).await;
    ann.expect(|m| matches!(m, ServerMessage::Ended { .. }).then_some(()))
        .await;
    ann.send(ClientMessage::Rematch { game }).await;
    let state = ann.game_state().await;
    assert_eq!(state.summary.players, [Some("ann".to_owned()), None]);
    assert_eq!(state.summary.seek, Some(to("bob")));
    let (_, summary) = challenged(&mut bob).await;
    assert_eq!(summary.game, state.summary.game);

    // A challenge to nobody, or to oneself, is refused.
    ann.send(seek("brandub", None, to("nobody"))).await;
    assert!(ann.error().await.contains("no account `nobody`"));
    ann.send(seek("brandub", None, to("ann"))).await;
    assert!(ann.error().await.contains("another player"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rating_range_keeps_out_who_is_outside_it() {
    let (_data, home, server) = started(&[]);
    let [mut ann, mut bob] =
        TestClient::all_registered(server.port, home.path(), ["ann", "bob"]).await;
    let range = |low, high| SeekTerms {
        to: None,
        min_rating: low,
        max_rating: high,
    };
    // Nobody has played a rated game: everyone counts as 1500.
    ann.send(seek("brandub", Some(0), range(Some(1501), None)))
        .await;
    let high = ann.game_state().await.summary.game;
    ann.send(seek("brandub", Some(0), range(None, Some(1499))))
        .await;
    let low = ann.game_state().await.summary.game;
    ann.send(seek("brandub", Some(0), range(Some(1500), Some(1500))))
        .await;
    let within = ann.game_state().await.summary.game;
    for game in [high, low] {
        bob.send(ClientMessage::Join { game }).await;
        let refused = bob.error().await;
        assert!(refused.contains("yours is 1500"), "{refused}");
    }
    bob.send(ClientMessage::Join { game: within }).await;
    assert_eq!(bob.game_state().await.your_side, Some(1));
    ann.send(seek("brandub", None, range(Some(1600), Some(1400))))
        .await;
    assert!(ann.error().await.contains("is empty"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_side_is_drawn_and_challenges_have_an_hourly_quota() {
    let (_data, home, server) = started(&["--challenges-per-hour", "1"]);
    let [mut ann, _bob] =
        TestClient::all_registered(server.port, home.path(), ["ann", "bob"]).await;
    // Twelve seeks without a side: both sides come up (all on one side: 1 in 2,048).
    let mut sides = [0; 2];
    for _ in 0..12 {
        ann.send(seek("brandub", None, SeekTerms::default())).await;
        let state = ann.game_state().await;
        sides[usize::from(state.your_side.expect("a seat"))] += 1;
    }
    assert!(sides.iter().all(|&count| count > 0), "{sides:?}");
    ann.send(seek("brandub", None, to("bob"))).await;
    ann.game_state().await;
    ann.send(seek("brandub", None, to("bob"))).await;
    let refused = ann.error().await;
    assert!(
        refused.contains("at most 1 challenges an hour"),
        "{refused}"
    );
}

#[test]
fn the_challenge_quota_is_in_the_help() {
    let help = assert_cmd::Command::cargo_bin("hnefataflserver")
        .expect("binary")
        .arg("--help")
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("--challenges-per-hour <N>"), "{text}");
    assert!(text.contains("[default: 30]"), "{text}");
}

/// A challenge is still a challenge after the server was killed and started again: its
/// terms are stored with the game, and only the challenged player may take the seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_survives_a_restart() {
    let (data, home, mut server) = started(&[]);
    let port = server.port;
    for name in ["ann", "bob", "carl"] {
        TestClient::registered(port, home.path(), name).await;
    }
    let mut ann = TestClient::connect(port, home.path()).await;
    ann.login("ann", "ann secret").await;
    let game = ann.made_game(seek("brandub", Some(1), to("bob"))).await;

    // Killed at once after the answer: what was answered is on disk.
    server.kill();
    let _server = ServerProcess::start(data.path(), port, &[]);
    let mut carl = TestClient::connect(port, home.path()).await;
    carl.login("carl", "carl secret").await;
    carl.send(ClientMessage::Join { game }).await;
    let refused = carl.error().await;
    assert!(refused.contains("a challenge to bob"), "{refused}");
    let mut bob = TestClient::connect(port, home.path()).await;
    bob.login("bob", "bob secret").await;
    bob.send(ClientMessage::Join { game }).await;
    let state = bob.game_state().await;
    assert_eq!(state.your_side, Some(0));
    assert_eq!(
        state.summary.players,
        [Some("bob".to_owned()), Some("ann".to_owned())]
    );
}
