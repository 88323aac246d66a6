//! Opening sets and recorded games for the match runner: reading either never panics;
//! every opening of recorded games has the plies asked for, and an opening written as a
//! set's line reads back to the same position.

#![no_main]

use std::sync::OnceLock;

use hnefatafl_core::Rules;
use hnefatafl_matches::openings::{opening_line, read_openings, recorded_openings};
use libfuzzer_sys::fuzz_target;

fn rules() -> &'static Rules {
    static PARSED: OnceLock<Rules> = OnceLock::new();
    PARSED.get_or_init(hnefatafl_matches::fetlar_rules)
}

fuzz_target!(|data: &[u8]| {
    // The first byte chooses the plies of a recorded opening; the rest is the text.
    let Some((&plies, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let _ = read_openings(rules(), text);
    let plies = usize::from(plies % 9);
    if let Ok(openings) = recorded_openings(rules(), text, plies) {
        for (game, games) in &openings {
            assert_eq!(game.moves().len(), plies);
            assert!(*games >= 1);
            let line = opening_line(game);
            if plies > 0 {
                let again = read_openings(rules(), &line).expect("a written opening reads back");
                assert_eq!(again[0].position().hash(), game.position().hash());
            }
        }
    }
});
