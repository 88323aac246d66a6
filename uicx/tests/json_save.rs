//! Saved games in JSON: a path ending in `.json` is written and read in the serde form of
//! core's saved game, by the real binary.

use std::path::Path;

use hnefatafl_core::save::SavedGame;
use hnefatafl_core::{Game, Rules};

mod common;
use common::{data, on_shipped, stdout_of};

/// The program's standard output for these commands on brandub in English, with an
/// empty HOME and no rc file.
fn run(home: &Path, input: &str) -> String {
    stdout_of(&mut on_shipped(home, "brandub"), input)
}

#[test]
fn a_json_saved_game_reads_back_and_replays() {
    let home = tempfile::tempdir().expect("HOME");
    let json = home.path().join("game.json");
    let text = home.path().join("game.saved");
    // Three moves of brandub (player 0 is the attacker on the edges).
    let moves = "m 3 0 2 0\nm 3 2 2 2\nm 0 3 0 2\n";
    run(
        home.path(),
        &format!("{moves}w {}\nw {}\n", json.display(), text.display()),
    );
    let written = std::fs::read_to_string(&json).expect("the JSON file");
    let value: serde_json::Value = serde_json::from_str(&written).expect("JSON");
    assert_eq!(value["rules_id"], "brandub");
    assert_eq!(value["moves"][0]["from"], serde_json::json!([3, 0]));
    assert_eq!(value["moves"].as_array().map(Vec::len), Some(3));
    // The JSON and the text form hold the same game.
    let from_json: SavedGame = serde_json::from_str(&written).expect("a saved game");
    let from_text =
        SavedGame::parse(&std::fs::read(&text).expect("the text file")).expect("a saved game");
    assert_eq!(from_json, from_text);
    let rules = Rules::parse(&std::fs::read(data().join("rules/brandub")).expect("brandub"))
        .expect("valid");
    let game: Game = from_json.replay(&rules).expect("legal moves");
    assert_eq!(game.ply(), 3);
    // The program reads it back: the board after loading is the board it saved.
    let loaded = run(home.path(), &format!("e {}\nb\n", json.display()));
    let played = run(home.path(), &format!("{moves}b\n"));
    let board = |out: &str| {
        out.lines()
            .rev()
            .take(9)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(board(&loaded), board(&played));
}

#[test]
fn a_broken_json_saved_game_is_refused() {
    let home = tempfile::tempdir().expect("HOME");
    let json = home.path().join("broken.json");
    std::fs::write(&json, "{\"rules_id\": 5}").expect("write");
    let output = on_shipped(home.path(), "brandub")
        .write_stdin(format!("e {}\n", json.display()))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("broken.json"), "{stderr}");
    assert!(stderr.contains("saved game refused"), "{stderr}");
}
