//! Saved games: `SavedGame::parse` must never panic, and neither must replaying what it
//! accepts, against a small fixed rule set.

#![no_main]

use std::sync::OnceLock;

use hnefatafl_core::Rules;
use hnefatafl_core::save::SavedGame;
use libfuzzer_sys::fuzz_target;

/// A 5x5 game: a king on a hostile throne, four defenders, four attackers, escape corners.
const RULES: &str = "\
id fuzz_five
name \"Five by five\"
width 5
height 5
pieces \\
  0 0 4 0 0 \\
  0 0 2 0 0 \\
  4 2 1 2 4 \\
  0 0 2 0 0 \\
  0 0 4 0 0
squares \\
  2 1 1 1 2 \\
  1 1 1 1 1 \\
  1 1 4 1 1 \\
  1 1 1 1 1 \\
  2 1 1 1 2
# king
piece bit 1
piece 1 owner 0
piece 1 escape
piece 1 capt_loss
piece 1 capt_edge
piece 1 captures 4
piece 1 occupies 7
piece 1 noreturn 4
# defender
piece bit 2
piece 2 owner 0
piece 2 custodial
piece 2 captures 4
piece 2 occupies 1
# attacker
piece bit 4
piece 4 owner 1
piece 4 custodial
piece 4 captures 3
piece 4 occupies 1
# plain square
square bit 1
# corner
square bit 2
square 2 escape
square 2 captures 7
# throne
square bit 4
square 4 captures 7
";

fn rules() -> &'static Rules {
    static RULES_PARSED: OnceLock<Rules> = OnceLock::new();
    RULES_PARSED.get_or_init(|| {
        Rules::parse(RULES.as_bytes()).expect("the fuzz target's fixed rule text must be valid")
    })
}

fuzz_target!(|text: &[u8]| {
    let rules = rules();
    if let Ok(saved) = SavedGame::parse(text) {
        let _ = saved.replay(rules);
        // Also replay the moves with the id made to match, so the moves themselves are tried.
        let mut same_rules = saved;
        same_rules.rules_id = rules.id().to_owned();
        let _ = same_rules.replay(rules);
    }
});
