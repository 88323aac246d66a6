//! The board that core writes for an embedder (`Game::display`) is the one the `b`
//! command prints, without colours: every shipped rule file, at the start and along
//! random games, and a type drawn like another (`ui_bit`).

use std::path::Path;

use hnefatafl_core::random::random_opening;
use hnefatafl_core::{Game, Rules};
use uicx::board;

fn shipped_rules() -> Vec<(String, Rules)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules");
    let mut all = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("data/rules") {
        let path = entry.expect("entry").path();
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let rules: Rules = text.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        all.push((name, rules));
    }
    all
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
