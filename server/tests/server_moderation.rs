//! Moderation over loopback TLS with the real server: the owner (`--admin`) makes a
//! moderator, who mutes, hides a chat line, kicks, aborts a game, bans an account and an
//! address; a plain account is refused; the log names every actor; a restart keeps the
//! bans, the moderator and the log.

#[path = "server_support/raw.rs"]
mod raw;
mod server_support;

use std::time::Duration;

use hnefatafl_net::protocol::{
    ClientMessage, EndCause, GameId, ModAction, ModLogEntry, ServerMessage,
};
use raw::Raw;
use server_support::{PATIENCE, ServerProcess, TestClient, make_and_join, open_game, started};

/// Sends a moderator's action and answers the logged entry, or the refusal's text.
async fn moderate(
    client: &mut TestClient,
    action: ModAction,
    reason: Option<&str>,
) -> Result<ModLogEntry, String> {
    client
        .send(ClientMessage::Moderate {
            action,
            reason: reason.map(str::to_owned),
        })
        .await;
    client
        .expect(|m| match m {
            ServerMessage::Moderated { entry } => Some(Ok(entry.clone())),
            ServerMessage::Error { message } => Some(Err(message.clone())),
            _ => None,
        })
        .await
}

/// Makes a game of brandub between two clients; answers its number.
async fn game(first: &mut TestClient, second: &mut TestClient, rated: bool) -> GameId {
    let [made, _] = make_and_join(first, second, open_game("brandub", None, rated)).await;
    made.summary.game
}

/// Waits until the server closes the client's connection, skipping what comes first;
/// answers the last error it was told.
async fn closed(client: &mut TestClient) -> String {
    let mut told = String::new();
    loop {
        let next = tokio::time::timeout(PATIENCE, client.client.recv())
            .await
            .expect("closed in time");
        match next {
            Ok(Some(ServerMessage::Error { message })) => told = message,
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => return told,
        }
    }
}

/// A login's refusal, from a new connection.
async fn login_refused(port: u16, home: &std::path::Path, name: &str) -> String {
    let mut client = TestClient::connect(port, home).await;
    client
        .send(ClientMessage::Login {
            name: name.into(),
            password: format!("{name} secret"),
        })
        .await;
    client
        .expect(|m| match m {
            ServerMessage::Error { message } => Some(message.clone()),
            ServerMessage::LoggedIn { .. } => panic!("{name} logged in"),
            _ => None,
        })
        .await
}

/// The first message of a connection from `from`: a refusal's text.
async fn address_refused(port: u16, home: &std::path::Path, from: [u8; 4]) -> String {
    let mut raw = Raw::handshake(from, port, home)
        .await
        .expect("the handshake");
    match raw.next().await {
        Some(ServerMessage::Error { message }) => {
            assert!(raw.next().await.is_none(), "closed after the refusal");
            message
        }
        other => panic!("not refused: {other:?}"),
    }
}

/// The whole moderation log, the latest first.
async fn log(client: &mut TestClient) -> Vec<ModLogEntry> {
    client.send(ClientMessage::ModerationLog { page: 0 }).await;
    client
        .expect(|m| match m {
            ServerMessage::ModerationLog { entries, .. } => Some(entries.clone()),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await
}

/// The chat lines the server keeps of a game, as a watcher lists them again.
async fn chat_texts(client: &mut TestClient, game: GameId) -> Vec<String> {
    client.send(ClientMessage::ChatLog { game }).await;
    client
        .expect(|m| match m {
            ServerMessage::ChatLines { lines, .. } => {
                Some(lines.iter().map(|line| line.text.clone()).collect())
            }
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moderators_mute_hide_kick_abort_and_ban_and_a_restart_keeps_it() {
    let extra = ["--admin", "boss", "--rating-period", "1s"];
    let (data, home, mut server) = started(&extra);
    let port = server.port;
    let [mut boss, mut moderator, mut bob, mut carol, mut eve] =
        TestClient::all_registered(port, home.path(), ["boss", "mod", "bob", "carol", "eve"]).await;

    // A plain account may do nothing of it; a moderator does not make moderators.
    let promote = ModAction::Promote {
        account: "mod".into(),
    };
    let refused = moderate(&mut eve, promote.clone(), None).await;
    assert!(refused.expect_err("refused").contains("only moderators"));
    eve.send(ClientMessage::ModerationLog { page: 0 }).await;
    assert!(eve.error().await.contains("only moderators"));
    let made = moderate(&mut boss, promote, None).await.expect("made");
    assert_eq!(made.by, "boss");
    let eve_promoted = ModAction::Promote {
        account: "eve".into(),
    };
    let refused = moderate(&mut moderator, eve_promoted, None).await;
    assert!(refused.expect_err("refused").contains("only the owner"));
    let ban_boss = ModAction::Ban {
        account: "boss".into(),
    };
    let refused = moderate(&mut moderator, ban_boss, None).await;
    assert!(refused.expect_err("refused").contains("owner"));
    let refused = moderate(
        &mut eve,
        ModAction::Kick {
            account: "bob".into(),
        },
        None,
    )
    .await;
    assert!(refused.is_err());

    // Mute: Bob's chat is refused, with the reason.
    let id = game(&mut bob, &mut carol, true).await;
    eve.send(ClientMessage::Watch { game: id }).await;
    eve.game_state().await;
    let mute = ModAction::Mute {
        account: "bob".into(),
        seconds: None,
    };
    moderate(&mut moderator, mute, Some("calm down"))
        .await
        .expect("muted");
    bob.send(ClientMessage::Say {
        game: id,
        text: "hello".into(),
    })
    .await;
    let problem = bob.error().await;
    assert!(
        problem.contains("muted") && problem.contains("calm down"),
        "{problem}"
    );

    // Hide: the watcher is told, and the line is no longer listed.
    for text in ["good luck", "something rude"] {
        carol
            .send(ClientMessage::Say {
                game: id,
                text: text.into(),
            })
            .await;
    }
    let rude = eve
        .expect(|m| match m {
            ServerMessage::Chat { text, line, .. } if text == "something rude" => Some(*line),
            _ => None,
        })
        .await;
    assert_eq!(
        chat_texts(&mut eve, id).await,
        ["good luck", "something rude"]
    );
    let hide = ModAction::Hide {
        game: id,
        line: rude,
    };
    moderate(&mut moderator, hide, None).await.expect("hidden");
    let hidden = eve
        .expect(|m| match m {
            ServerMessage::ChatHidden { game, line } if *game == id => Some(*line),
            _ => None,
        })
        .await;
    assert_eq!(hidden, rude);
    assert_eq!(chat_texts(&mut eve, id).await, ["good luck"]);

    // Abort: both players hear the end, with no winner (and no rating counts it, below).
    moderate(&mut moderator, ModAction::Abort { game: id }, Some("stuck"))
        .await
        .expect("aborted");
    let ended = carol
        .expect(|m| match m {
            ServerMessage::Ended { game, result } if *game == id => Some(*result),
            _ => None,
        })
        .await;
    assert_eq!((ended.winner, ended.reason), (None, EndCause::Aborted));

    // Kick: the connection is told and closed; the account may log in again.
    moderate(
        &mut moderator,
        ModAction::Kick {
            account: "eve".into(),
        },
        Some("flood"),
    )
    .await
    .expect("kicked");
    let told = closed(&mut eve).await;
    assert!(
        told.contains("closed this connection") && told.contains("flood"),
        "{told}"
    );
    let mut eve = TestClient::connect(port, home.path()).await;
    eve.login("eve", "eve secret").await;

    // A rated game of Bob's that counts for the ratings, then his ban.
    let rated = game(&mut bob, &mut carol, true).await;
    bob.send(ClientMessage::Resign { game: rated }).await;
    let leaderboard = || async {
        let mut carol = TestClient::connect(port, home.path()).await;
        loop {
            let (_, entries) = carol.leaderboard("brandub").await;
            if let Some(games) = entries.iter().find(|e| e.name == "bob").map(|e| e.games) {
                return games;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    let counted = tokio::time::timeout(PATIENCE, leaderboard())
        .await
        .expect("Bob's rated game counted");
    assert_eq!(counted, 1, "the aborted rated game counts for nobody");
    let ban = ModAction::Ban {
        account: "bob".into(),
    };
    moderate(&mut moderator, ban, Some("cheating"))
        .await
        .expect("banned");
    let told = closed(&mut bob).await;
    assert!(told.contains("cheating"), "{told}");
    let refused = login_refused(port, home.path(), "bob").await;
    assert!(
        refused.contains("banned") && refused.contains("cheating"),
        "{refused}"
    );
    // His games and rating stay: the archive and the leaderboard still have them.
    let archived = eve.games_listed(ClientMessage::Archive).await;
    assert!(
        archived
            .iter()
            .any(|g| g.game == rated && g.players[0].as_deref() == Some("bob"))
    );
    let counted = tokio::time::timeout(PATIENCE, leaderboard())
        .await
        .expect("Bob still on the leaderboard");
    assert_eq!(counted, 1);

    // An address: connections from it are refused with the reason.
    let ban_address = ModAction::BanAddress {
        address: "127.0.0.2".into(),
    };
    moderate(&mut moderator, ban_address, Some("a bot"))
        .await
        .expect("banned");
    let refused = address_refused(port, home.path(), [127, 0, 0, 2]).await;
    assert!(
        refused.contains("banned") && refused.contains("a bot"),
        "{refused}"
    );
    Raw::connect([127, 0, 0, 3], port, home.path()).await;

    // The log names every action and its actor, the latest first.
    let entries = log(&mut moderator).await;
    let done: Vec<(&str, &str)> = entries
        .iter()
        .map(|entry| (entry.by.as_str(), kind(&entry.action)))
        .collect();
    assert_eq!(
        done,
        [
            ("mod", "ban_address"),
            ("mod", "ban"),
            ("mod", "kick"),
            ("mod", "abort"),
            ("mod", "hide"),
            ("mod", "mute"),
            ("boss", "promote"),
        ]
    );
    assert_eq!(entries[1].reason.as_deref(), Some("cheating"));

    // A restart keeps the bans, the moderator and the log.
    server.kill();
    drop(server);
    let server = ServerProcess::start(data.path(), 0, &extra);
    let port = server.port;
    let refused = login_refused(port, home.path(), "bob").await;
    assert!(refused.contains("cheating"), "{refused}");
    let refused = address_refused(port, home.path(), [127, 0, 0, 2]).await;
    assert!(refused.contains("a bot"), "{refused}");
    let mut moderator = TestClient::connect(port, home.path()).await;
    moderator.login("mod", "mod secret").await;
    assert_eq!(log(&mut moderator).await, entries);
    let unban = ModAction::Unban {
        account: "bob".into(),
    };
    moderate(&mut moderator, unban, None)
        .await
        .expect("unbanned");
    let mut bob = TestClient::connect(port, home.path()).await;
    bob.login("bob", "bob secret").await;

    // The client's `mod`: a moderator mutes for a time and reads the log; a plain
    // account is refused.
    let script =
        format!("c localhost:{port}\nlogin mod\nmod secret\nmod mute eve 10m spam\nmod log\nq\n");
    let stdout = client(home.path(), &script);
    assert!(stdout.contains("Done and logged as entry 9"), "{stdout}");
    assert!(stdout.contains(", mod: mute eve 600s (spam)"), "{stdout}");
    assert!(stdout.contains("8. "), "{stdout}");
    let script = format!("c localhost:{port}\nlogin eve\neve secret\nmod kick bob\nq\n");
    let output = client_output(home.path(), &script);
    assert!(output.contains("only moderators may do that"), "{output}");
}

/// What the `hnefatafl` program prints on its standard output for a script.
fn client(home: &std::path::Path, script: &str) -> String {
    let output = run_client(home, script);
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What it prints on both its outputs.
fn client_output(home: &std::path::Path, script: &str) -> String {
    let output = run_client(home, script);
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

fn run_client(home: &std::path::Path, script: &str) -> std::process::Output {
    assert_cmd::Command::new(server_support::binaries::client_binary())
        .env("HOME", home)
        .env_remove("DISPLAY")
        .env("NO_COLOR", "1")
        .args(["-C", "-l", "eng"])
        .write_stdin(script)
        .timeout(Duration::from_secs(60))
        .output()
        .expect("runs")
}

/// The wire's name of an action.
fn kind(action: &ModAction) -> &'static str {
    match action {
        ModAction::Promote { .. } => "promote",
        ModAction::Demote { .. } => "demote",
        ModAction::Mute { .. } => "mute",
        ModAction::Unmute { .. } => "unmute",
        ModAction::Kick { .. } => "kick",
        ModAction::Ban { .. } => "ban",
        ModAction::Unban { .. } => "unban",
        ModAction::BanAddress { .. } => "ban_address",
        ModAction::UnbanAddress { .. } => "unban_address",
        ModAction::Hide { .. } => "hide",
        ModAction::Abort { .. } => "abort",
    }
}
