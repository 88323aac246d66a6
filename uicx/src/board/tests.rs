//! The board as the `b` command prints it: the start position of every shipped rule
//! file and after a move (snapshots), and the same board that core writes for an
//! embedder (`Game::display`), at the start and along random games, with a type drawn
//! like another (`ui_bit`).

use std::path::Path;

use hnefatafl_core::random::random_opening;
use hnefatafl_core::{Game, Rules};

use crate::board;

fn shipped_rules() -> Vec<(String, Rules)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules");
    let mut all = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("data/rules") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .expect("name")
            .to_owned();
        let text = std::fs::read(&path).expect("read");
        match Rules::parse(&text) {
            Ok(rules) => all.push((name, rules)),
            Err(error) => panic!("{name}: {error}"),
        }
    }
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

#[test]
fn start_positions() {
    let all = shipped_rules();
    assert!(all.len() >= 8, "expected the shipped rule files");
    for (name, rules) in all {
        let game = Game::new(rules);
        insta::assert_snapshot!(format!("start_{name}"), board::render(&game, false));
    }
}

#[test]
fn last_move_is_marked_and_colour_only_on_request() {
    let Some((_, rules)) = shipped_rules()
        .into_iter()
        .find(|(name, _)| name == "brandub")
    else {
        panic!("brandub is shipped")
    };
    let mut game = Game::new(rules.clone());
    let mv = rules.parse_move(&["3", "1", "1", "1"]).expect("a move");
    game.try_play(mv).expect("legal");
    let plain = board::render(&game, false);
    insta::assert_snapshot!("brandub_after_move", plain);
    assert!(!plain.contains('\x1b'));
    let coloured = board::render(&game, true);
    assert!(coloured.contains('\x1b'));
    let stripped: String = {
        let mut out = String::new();
        let mut escape = false;
        for c in coloured.chars() {
            match (escape, c) {
                (false, '\x1b') => escape = true,
                (true, 'm') => escape = false,
                (false, c) => out.push(c),
                (true, _) => {}
            }
        }
        out
    };
    assert_eq!(stripped, plain);
}

#[test]
fn ui_bit_draws_a_type_like_another() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/brandub");
    // Without names, the letters go by the types' bits.
    let text: String = std::fs::read_to_string(path)
        .expect("brandub")
        .lines()
        .filter(|line| !(line.starts_with("piece ") && line.contains(" name")))
        .map(|line| format!("{line}\n"))
        .collect();
    let plain = Rules::parse(text.as_bytes()).expect("valid");
    let drawn_as_king = format!("{text}\npiece 2 ui_bit 1\n");
    let rules = match Rules::parse(drawn_as_king.as_bytes()) {
        Ok(rules) => rules,
        Err(error) => panic!("{error}"),
    };
    let before = board::render(&Game::new(plain), false);
    let after = board::render(&Game::new(rules), false);
    assert_eq!(before.matches('d').count(), 5, "{before}");
    // The defenders (type 2, player 1) now show as kings, in their owner's case.
    assert_eq!(after.matches('d').count(), 1, "{after}");
    assert_eq!(after.matches('k').count(), 5, "{after}");
}

#[test]
fn core_writes_the_board_the_b_command_prints() {
    let all = shipped_rules();
    assert!(all.len() >= 8, "expected the shipped rule files");
    for (name, rules) in all {
        let start = Game::new(rules.clone());
        assert_eq!(
            start.display().to_string(),
            board::render(&start, false),
            "{name}"
        );
        assert_eq!(
            start.position().display().to_string(),
            board::render(&start, false),
            "{name}: no last move to mark at the start"
        );
        for seed in 0..3 {
            let game = random_opening(&rules, 9, seed);
            assert!(game.last_move().is_some(), "{name}");
            assert_eq!(
                game.display().to_string(),
                board::render(&game, false),
                "{name}, seed {seed}"
            );
        }
    }
}

#[test]
fn a_type_drawn_like_another_is_written_alike() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/tablut");
    let text = std::fs::read_to_string(path).expect("tablut");
    let drawn = format!("{text}\npiece 2 ui_bit 1\nsquare 8 ui_bit 4\n");
    let rules: Rules = drawn.parse().expect("valid rules");
    let game = random_opening(&rules, 5, 1);
    assert_eq!(game.display().to_string(), board::render(&game, false));
}

#[test]
fn named_types_are_drawn_by_the_initials_of_their_names() {
    // Halatafl's white (type 4, drawn like type 2 in the window) and black (type 2).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/halatafl");
    let text = std::fs::read_to_string(path).expect("halatafl");
    let rules = Rules::parse(text.as_bytes()).expect("valid");
    let drawn = board::render(&Game::new(rules), false);
    // The rows, without the column names above them.
    let rows: String = drawn.lines().skip(2).collect();
    assert_eq!(rows.matches('W').count(), 24, "{drawn}");
    assert_eq!(rows.matches('b').count(), 24, "{drawn}");
    assert!(!rows.contains('D') && !rows.contains('a'), "{drawn}");
}
