//! Every game ends: the computer plays itself at every level on every shipped rule file,
//! and each game reaches an outcome of the rules (a win, a draw by the file's rules, or a
//! repetition) within the bound those rules give.

use aim::{Engine, EngineConfig, Limits, MAX_LEVEL};
use hnefatafl_core::{Game, Rules};

fn shipped() -> Vec<(String, Rules)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the rule folder")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read(&path).expect("a rule file");
            let rules = Rules::parse(&text).expect("a shipped file reads");
            (path.display().to_string(), rules)
        })
        .collect()
}

#[test]
fn computer_against_computer_ends_at_every_level_on_every_file() {
    let files = shipped();
    assert!(files.len() >= 12, "every shipped file is played");
    for (file, rules) in files {
        // The file's own rules bound the game: no capture for `draw_plies` plies draws,
        // and every capture takes a piece off, so the game is over before this many.
        let draw_plies = rules
            .draw_plies()
            .unwrap_or_else(|| panic!("{file}: no `draw_plies`, nothing bounds a game"));
        let pieces = rules.start_position().pieces().count();
        let bound = (pieces + 1) * draw_plies as usize + 1;
        for level in 1..=MAX_LEVEL {
            let mut engine = Engine::new(EngineConfig {
                threads: 1,
                hash_mib: 1,
            });
            engine.seed(u64::from(level));
            let limits = Limits {
                level: Some(level),
                depth: Some(2),
                nodes: Some(400),
                ..Limits::default()
            };
            let mut game = Game::new(rules.clone());
            while game.outcome().is_none() {
                assert!(
                    game.ply() < bound,
                    "{file}, level {level}: past {bound} plies"
                );
                let found = engine.search_within(&game, &limits);
                let mv = found
                    .best
                    .unwrap_or_else(|| panic!("{file}, level {level}: no move in a live game"));
                game.try_play(mv)
                    .unwrap_or_else(|e| panic!("{file}, level {level}: {mv}: {e}"));
            }
        }
    }
}
