//! Export over loopback TLS with the real server: a game played over the wire comes back
//! as OTN that core's reader replays to the moves played, and a player's archive of
//! several games comes in pages, over the protocol and through the `hnefatafl` client.

mod server_support;

use assert_cmd::Command;
use hnefatafl_core::otn::GameRecord;
use hnefatafl_core::save::SavedGame;
use hnefatafl_core::{Game, Rules};
use hnefatafl_net::protocol::{ClientMessage, GameId, Record, RecordFormat, ServerMessage};
use server_support::{Duel, TestClient, started};

fn brandub() -> Rules {
    let text = hnefatafl_data::rules("brandub").expect("shipped");
    Rules::parse(text.as_bytes()).expect("reads")
}

/// Plays `moves` random moves (fewer if the game ends first), then player 1 resigns
/// unless it ended; answers the game's number and the moves as played.
async fn finished_game(duel: &mut Duel, moves: u32) -> (GameId, Game) {
    while duel.number < moves && duel.game.outcome().is_none() {
        duel.play().await;
    }
    if duel.game.outcome().is_none() {
        duel.players[1]
            .send(ClientMessage::Resign { game: duel.id })
            .await;
    }
    let id = duel.id;
    for player in &mut duel.players {
        player
            .expect(|m| matches!(m, ServerMessage::Ended { game, .. } if *game == id).then_some(()))
            .await;
    }
    (id, duel.game.clone())
}

/// OTN read back by core's reader, replayed on brandub's rules: it must be the game played.
fn replays_to(text: &str, played: &Game) {
    let record = GameRecord::parse(text).expect("core reads the OTN");
    let replayed = record.replay(&brandub()).expect("the OTN replays");
    let moves: Vec<_> = replayed.moves().collect();
    assert_eq!(moves, played.moves().collect::<Vec<_>>());
    assert_eq!(replayed.position().hash(), played.position().hash());
}

/// Every page of an account's records, asked as a client does; answers the records.
async fn player_records(
    client: &mut TestClient,
    account: &str,
    format: RecordFormat,
) -> Vec<Record> {
    let mut all = Vec::new();
    let mut after = None;
    loop {
        client
            .send(ClientMessage::FetchPlayer {
                account: account.into(),
                format,
                after,
            })
            .await;
        let (records, more) = client
            .expect(|m| match m {
                ServerMessage::PlayerRecords {
                    records,
                    more,
                    left_out,
                    ..
                } => {
                    assert!(left_out.is_empty());
                    Some((records.clone(), *more))
                }
                ServerMessage::Error { message } => panic!("refused: {message}"),
                _ => None,
            })
            .await;
        after = records.last().map(|record| record.game);
        all.extend(records);
        if !more {
            return all;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_come_back_as_otn_one_at_a_time_and_a_players_whole_archive() {
    let (_data, home, server) = started(&[]);
    let port = server.port;

    let mut duel = Duel::start(port, home.path(), "brandub", ["ann", "bob"], 0x0e7f_0001).await;
    let mut played = Vec::new();
    for moves in [14, 3, 9] {
        played.push(finished_game(&mut duel, moves).await);
        duel.next_game("brandub").await;
    }
    // A game of others' is in nobody else's archive; an unfinished one is in none.
    let mut others = Duel::start(port, home.path(), "brandub", ["cid", "dag"], 7).await;
    finished_game(&mut others, 4).await;

    // One game as OTN: the moves played, the players named by their sides.
    let watcher = &mut duel.players[0];
    let (first, game) = &played[0];
    watcher
        .send(ClientMessage::Fetch {
            game: *first,
            format: RecordFormat::Otn,
        })
        .await;
    let (format, text) = watcher
        .expect(|m| match m {
            ServerMessage::SavedGame { format, text, .. } => Some((*format, text.clone())),
            ServerMessage::Error { message } => panic!("refused: {message}"),
            _ => None,
        })
        .await;
    assert_eq!(format, RecordFormat::Otn);
    replays_to(&text, game);
    let record = GameRecord::parse(&text).expect("reads");
    let players = [record.tag("attackers"), record.tag("defenders")];
    let mut players: Vec<&str> = players.into_iter().flatten().collect();
    players.sort_unstable();
    assert_eq!(players, ["ann", "bob"]);

    // Ann's whole archive, in both formats: her three games, oldest first.
    let ids: Vec<GameId> = played.iter().map(|(id, _)| *id).collect();
    let records = player_records(watcher, "ann", RecordFormat::Otn).await;
    assert_eq!(records.iter().map(|r| r.game).collect::<Vec<_>>(), ids);
    for (record, (_, game)) in records.iter().zip(&played) {
        replays_to(&record.text, game);
    }
    let saved = player_records(watcher, "ANN", RecordFormat::Saved).await;
    assert_eq!(saved.len(), 3);
    for (record, (_, game)) in saved.iter().zip(&played) {
        let saved = SavedGame::parse(record.text.as_bytes()).expect("a saved game");
        assert_eq!(saved.moves, game.moves().collect::<Vec<_>>());
    }
    // Paged by `after`: the games after the first.
    watcher
        .send(ClientMessage::FetchPlayer {
            account: "bob".into(),
            format: RecordFormat::Otn,
            after: Some(ids[0]),
        })
        .await;
    let after_first = watcher
        .expect(|m| match m {
            ServerMessage::PlayerRecords { records, more, .. } => {
                assert!(!more);
                Some(records.iter().map(|r| r.game).collect::<Vec<_>>())
            }
            _ => None,
        })
        .await;
    assert_eq!(after_first, ids[1..]);

    // The client writes them to files it names: one game, then Ann's whole archive.
    let work = tempfile::tempdir().expect("a working directory");
    let script = format!(
        "c localhost:{port}\nlogin bob\npassword 1\nfetch {} otn\nfetch player ann otn\nq\n",
        ids[0]
    );
    let output = Command::new(server_support::binaries::client_binary())
        .current_dir(work.path())
        .env("HOME", home.path())
        .env_remove("DISPLAY")
        .env("NO_COLOR", "1")
        .args(["-C", "-l", "eng"])
        .write_stdin(script)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let one = format!("game-{}.otn", ids[0]);
    assert!(
        stdout.contains(&format!("Game saved to {one}.")),
        "{stdout}"
    );
    replays_to(
        &std::fs::read_to_string(work.path().join(&one)).expect("written"),
        &played[0].1,
    );
    let names: Vec<String> = ids.iter().map(|id| format!("ann-{id}.otn")).collect();
    let said = format!("Wrote 3 finished games of ann: {}.", names.join(", "));
    assert!(stdout.contains(&said), "{stdout}");
    for (name, (_, game)) in names.iter().zip(&played) {
        replays_to(
            &std::fs::read_to_string(work.path().join(name)).expect("written"),
            game,
        );
    }
}
