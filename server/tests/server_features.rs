//! The server's features through the real binary: `--showtraffic`, the login slow-down,
//! the protocol version, chat, undo and draw offers, resigning, loss on time, uploaded
//! rules, a computer opponent, and a private server that stops when its last client goes.

mod server_support;

use std::time::Duration;

use assert_cmd::Command;
use hnefatafl_net::protocol::{
    ClientMessage, ClockSpec, EndCause, GameResult, OfferKind, ServerMessage,
};
use server_support::{
    Duel, ServerProcess, TestClient, computer_game, make_and_join, raw_connection, replay, seated,
    started,
};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

#[test]
fn help_and_version() {
    let help = Command::cargo_bin("hnefataflserver")
        .expect("binary")
        .arg("--help")
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&help.stdout);
    for option in [
        "--port",
        "--data",
        "--showtraffic",
        "--continue",
        "--local",
        "--computer",
    ] {
        assert!(text.contains(option), "{option} missing from {text}");
    }
    assert!(text.contains("8149"), "{text}");
    let version = Command::cargo_bin("hnefataflserver")
        .expect("binary")
        .arg("--version")
        .output()
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("hnefataflserver {}", env!("CARGO_PKG_VERSION"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn showtraffic_prints_every_message_with_passwords_masked() {
    let (_data, home, server) = started(&["--showtraffic"]);
    let mut dan = TestClient::connect(server.port, home.path()).await;
    dan.register("dan", "very-secret-word").await;
    let output = server.output_until(|text| text.contains("logged_in"));
    assert!(!output.contains("very-secret-word"), "{output}");
    let lines: Vec<&str> = output.lines().collect();
    let find = |needle: &str| {
        lines
            .iter()
            .find(|line| line.contains(needle))
            .unwrap_or_else(|| panic!("no {needle} in {output}"))
            .to_string()
    };
    let register = find("\"type\":\"register\"");
    assert!(register.contains(" #1 <- "), "{register}");
    assert!(register.contains("\"password\":\"********\""), "{register}");
    // The time comes first, as RFC 3339.
    assert!(
        register.starts_with("20") && register.contains('T'),
        "{register}"
    );
    assert!(find("\"type\":\"hello\"").contains(" #1 <- "));
    assert!(find("\"type\":\"welcome\"").contains(" #1 -> "));
    assert!(find("\"type\":\"logged_in\"").contains(" #1 -> "));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_logins_slow_down_and_versions_are_checked() {
    let (_data, home, server) = started(&[]);
    let mut carl = TestClient::connect(server.port, home.path()).await;
    carl.register("carl", "right password").await;
    carl.send(ClientMessage::Register {
        name: "carl".into(),
        password: "another".into(),
    })
    .await;
    assert_eq!(carl.error().await, "the name `carl` is taken");

    let mut other = TestClient::connect(server.port, home.path()).await;
    for _ in 0..4 {
        other
            .send(ClientMessage::Login {
                name: "carl".into(),
                password: "wrong".into(),
            })
            .await;
        assert_eq!(other.error().await, "wrong name or password");
    }
    // Now even the right password must wait.
    other
        .send(ClientMessage::Login {
            name: "carl".into(),
            password: "right password".into(),
        })
        .await;
    let refused = other.error().await;
    assert!(
        refused.starts_with("too many failed logins for `carl`"),
        "{refused}"
    );

    // A client of another protocol version is told, and let go.
    let mut stream = BufReader::new(raw_connection(server.port, home.path()).await);
    stream
        .get_mut()
        .write_all(b"{\"type\":\"login\",\"name\":\"x\",\"password\":\"y\"}\n")
        .await
        .expect("send");
    let mut line = String::new();
    stream.read_line(&mut line).await.expect("reply");
    assert!(line.contains("the first message must be `hello`"), "{line}");
    stream
        .get_mut()
        .write_all(b"{\"type\":\"hello\",\"version\":99,\"client\":\"future\"}\n")
        .await
        .expect("send");
    line.clear();
    stream.read_line(&mut line).await.expect("reply");
    assert!(
        line.contains("protocol version 99 is not spoken here"),
        "{line}"
    );
    line.clear();
    let end = stream.read_line(&mut line).await;
    assert!(matches!(end, Ok(0) | Err(_)), "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_offers_and_resigning() {
    let (_data, home, server) = started(&[]);
    let mut duel = Duel::start(server.port, home.path(), "brandub", ["ann", "bob"], 3).await;
    let id = duel.id;
    duel.play().await;
    duel.play().await;
    let [ann, bob] = &mut duel.players;

    ann.send(ClientMessage::Say {
        game: id,
        text: "well played".into(),
    })
    .await;
    let chat = bob
        .expect(|m| match m {
            ServerMessage::Chat { from, text, .. } => Some((from.clone(), text.clone())),
            _ => None,
        })
        .await;
    assert_eq!(chat, ("ann".into(), "well played".into()));

    // Bob takes back his move, with Ann's consent.
    bob.send(ClientMessage::Offer {
        game: id,
        kind: OfferKind::Undo,
    })
    .await;
    let offered = ann
        .expect(|m| match m {
            ServerMessage::Offered { kind, from, .. } => Some((*kind, from.clone())),
            _ => None,
        })
        .await;
    assert_eq!(offered, (OfferKind::Undo, "bob".into()));
    ann.send(ClientMessage::Answer {
        game: id,
        kind: OfferKind::Undo,
        accept: true,
    })
    .await;
    for client in [&mut *ann, &mut *bob] {
        let left = client
            .expect(|m| match m {
                ServerMessage::Undone { moves, .. } => Some(*moves),
                _ => None,
            })
            .await;
        assert_eq!(left, 1);
    }
    ann.send(ClientMessage::Join { game: id }).await;
    let state = ann.game_state().await;
    assert_eq!(state.moves.len(), 1);
    assert_eq!(state.to_move, 1);
    duel.game.undo();
    duel.number = 1;
    assert_eq!(
        replay(&state).moves().collect::<Vec<_>>(),
        duel.game.moves().collect::<Vec<_>>()
    );
    let [ann, bob] = &mut duel.players;

    // A draw offer declined, then resigning.
    ann.offer_answered(bob, id, OfferKind::Draw, false).await;
    ann.expect(|m| {
        matches!(
            m,
            ServerMessage::Declined {
                kind: OfferKind::Draw,
                ..
            }
        )
        .then_some(())
    })
    .await;
    bob.send(ClientMessage::Resign { game: id }).await;
    let result = ann.ended(id).await;
    assert_eq!(
        result,
        GameResult {
            winner: Some(0),
            reason: EndCause::Resigned
        }
    );
    bob.send(ClientMessage::Resign { game: id }).await;
    assert_eq!(bob.error().await, format!("game {id} is over"));

    // A draw agreed in a second game.
    let new = ClientMessage::New {
        rules: "tablut".into(),
        clock: None,
        side: 1,
        opponent: None,
        rated: false,
    };
    let [made, joined] = make_and_join(ann, bob, new).await;
    let second = made.summary.game;
    assert_eq!(joined.your_side, Some(0));
    bob.agreed_with(ann, second, OfferKind::Draw).await;
    let result = bob.ended(second).await;
    assert_eq!(
        result,
        GameResult {
            winner: None,
            reason: EndCause::DrawAgreed
        }
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_runs_out() {
    let (_data, home, server) = started(&[]);
    let clock = ClockSpec::fischer(300, 0);
    let ([_ann, mut bob], state) = seated(server.port, home.path(), clock).await;
    let id = state.summary.game;
    assert!(
        state.clocks.is_some_and(|c| c[0] <= 300 && c[1] == 300),
        "{:?}",
        state.clocks
    );
    // Ann, to move, never does.
    let result = bob.ended(id).await;
    assert_eq!(
        result,
        GameResult {
            winner: Some(1),
            reason: EndCause::Time
        }
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploaded_rules_and_a_computer_opponent() {
    let (_data, home, server) = started(&["--computer", "1"]);
    let mut ann = TestClient::connect(server.port, home.path()).await;
    ann.register("ann", "password").await;

    let shipped = include_str!("../../data/rules/brandub");
    // Its own id and name: a shipped rule set's are not an upload's to take.
    let text = shipped
        .replacen("id\tbrandub", "id\tmy_brandub", 1)
        .replacen("\"Brandub\"", "\"My brandub\"", 1);
    assert_ne!(text, shipped, "the shipped file names its id");
    let info = ann.upload(text.clone()).await;
    assert_eq!(info.id, "my_brandub");
    assert_eq!(info.hash.len(), 64);
    ann.send(ClientMessage::UploadRules {
        text: "width 99\n".into(),
    })
    .await;
    assert!(ann.error().await.starts_with("rules: "));
    let offered = ann.rules_list().await;
    assert!(offered.iter().any(|r| r.file == "hnefatafl"));
    assert!(offered.contains(&info));

    // The computer plays player 0 on the uploaded rules and moves first.
    ann.send(computer_game(&info.hash, "computer1", 1, false))
        .await;
    let state = ann.game_state().await;
    assert_eq!(
        state.summary.players,
        [Some("computer1".into()), Some("ann".into())]
    );
    assert_eq!(state.rules_text, text);
    let id = state.summary.game;
    let mut game = replay(&state);
    let (first, _) = ann.moved(id, 1).await;
    server_support::apply(&mut game, first);
    let mut random = server_support::Random(11);
    let mine = server_support::random_move(&game, &mut random);
    ann.send(ClientMessage::Move { game: id, mv: mine }).await;
    ann.moved(id, 2).await;
    ann.moved(id, 3).await;
    ann.send(computer_game("brandub", "computer9", 0, false))
        .await;
    assert!(ann.error().await.contains("no computer account"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_server_stops_when_its_last_client_leaves() {
    let (data, home, mut server) = started(&["--local"]);
    let first = TestClient::connect(server.port, home.path()).await;
    let second = TestClient::connect(server.port, home.path()).await;
    drop(first);
    // One client is still there.
    assert!(server.ended_within(Duration::from_millis(500)).is_none());
    drop(second);
    let status = server
        .ended_within(Duration::from_secs(30))
        .expect("stopped by itself");
    assert!(status.success());

    // With --continue it stays.
    let mut kept = ServerProcess::start(data.path(), 0, &["--local", "--continue"]);
    drop(TestClient::connect(kept.port, home.path()).await);
    assert!(kept.ended_within(Duration::from_millis(500)).is_none());
    TestClient::connect(kept.port, home.path()).await;
}
