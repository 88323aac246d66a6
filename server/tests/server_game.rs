//! Two clients play a whole game through the real server over TLS; a third watches; the
//! finished game is in the archive and the program loads it with `e`.

mod server_support;

use assert_cmd::Command;
use hnefatafl_core::save::SavedGame;
use hnefatafl_net::protocol::{ClientMessage, EndCause, RecordFormat, ServerMessage};
use server_support::{Random, TestClient, apply, replay, send_random_move, started};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_and_a_spectator_play_a_whole_game() {
    let (_data, home, server) = started(&[]);

    let mut ann = TestClient::connect(server.port, home.path()).await;
    ann.register("ann", "ann's password").await;
    let mut bob = TestClient::connect(server.port, home.path()).await;
    bob.register("bob", "bob's password").await;

    ann.send(ClientMessage::New {
        rules: "brandub".into(),
        clock: None,
        side: 0,
        opponent: None,
        rated: false,
    })
    .await;
    let state = ann.game_state().await;
    let id = state.summary.game;
    assert_eq!(state.your_side, Some(0));
    assert_eq!(state.summary.players, [Some("ann".into()), None]);

    // Bob finds the game in the list and takes the free seat.
    let listed = bob.games_listed(ClientMessage::Games).await;
    assert!(
        listed
            .iter()
            .any(|g| g.game == id && g.players[1].is_none())
    );
    bob.send(ClientMessage::Join { game: id }).await;
    assert_eq!(bob.game_state().await.your_side, Some(1));

    // A guest, not logged in, watches.
    let mut watcher = TestClient::connect(server.port, home.path()).await;
    watcher.send(ClientMessage::Watch { game: id }).await;
    let watched = watcher.game_state().await;
    assert_eq!(watched.your_side, None);
    let mut seen = replay(&watched);

    let mut local = replay(&state);
    let mut random = Random(0x5eed_0001);
    let mut number = 0;
    let result = loop {
        number += 1;
        let sent = send_random_move([&mut ann, &mut bob], id, &local, &mut random).await;
        // Everyone hears of the move, in order.
        for client in [&mut ann, &mut bob, &mut watcher] {
            let (mv, clocks) = client.moved(id, number).await;
            assert_eq!(mv, sent);
            assert_eq!(clocks, None);
        }
        apply(&mut local, sent);
        apply(&mut seen, sent);
        if local.outcome().is_some() {
            let result = watcher
                .expect(|m| match m {
                    ServerMessage::Ended { game, result } if *game == id => Some(*result),
                    _ => None,
                })
                .await;
            break result;
        }
        assert!(number < 5000, "the random game should have ended");
    };
    let outcome = local.outcome().expect("over");
    assert_eq!(result.winner, outcome.winner.map(|w| w.index() as u8));
    assert_eq!(result.reason, EndCause::Rules(outcome.reason));

    // The archive holds it; the saved game has every move.
    let archived = watcher.games_listed(ClientMessage::Archive).await;
    let entry = archived.iter().find(|g| g.game == id).expect("archived");
    assert_eq!(entry.moves, number);
    assert_eq!(entry.result.as_ref(), Some(&result));
    watcher
        .send(ClientMessage::Fetch {
            game: id,
            format: RecordFormat::Saved,
        })
        .await;
    let (rules_file, text) = watcher
        .expect(|m| match m {
            ServerMessage::SavedGame {
                rules_file, text, ..
            } => Some((rules_file.clone(), text.clone())),
            _ => None,
        })
        .await;
    assert_eq!(rules_file, "brandub");
    let saved = SavedGame::parse(text.as_bytes()).expect("a saved game");
    assert_eq!(saved.moves, seen.moves().collect::<Vec<_>>());

    // The program loads it with `e`.
    let path = home.path().join("archived.save");
    std::fs::write(&path, &text).expect("write the save");
    let output = Command::new(server_support::binaries::client_binary())
        .env("HOME", home.path())
        .env_remove("DISPLAY")
        .env("NO_COLOR", "1")
        .args(["-C", "-l", "eng"])
        .write_stdin(format!("e {}\nq\n", path.display()))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(&format!(
            "Game loaded from {}: {number} moves.",
            path.display()
        )),
        "{stdout}"
    );
}
