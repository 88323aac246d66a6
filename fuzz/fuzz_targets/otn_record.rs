//! OTN game records: reading must never panic, nor replaying what reads, on its own
//! rules and on fixed ones.

#![no_main]

use std::cell::RefCell;

use hnefatafl_core::Rules;
use hnefatafl_core::otn::{GameRecord, OtnError, RulesString};
use hnefatafl_fuzz::brandub_otn;
use libfuzzer_sys::fuzz_target;

/// How many rules strings keep their nearest rules between inputs.
const REMEMBERED: usize = 64;

thread_local! {
    /// The nearest rules of recent rules strings: most inputs are mutations of one record,
    /// and making rules (a rule file written and parsed) would otherwise take most of each
    /// run. The answer depends on the string alone, so remembering it changes nothing.
    static NEAREST: RefCell<Vec<(String, Result<Rules, OtnError>)>> = const { RefCell::new(Vec::new()) };
}

/// The nearest rules of a record's rules string, remembered.
fn nearest(rules: &RulesString) -> Result<Rules, OtnError> {
    let key = rules.to_string();
    NEAREST.with_borrow_mut(|remembered| {
        if let Some((_, found)) = remembered.iter().find(|(text, _)| *text == key) {
            return found.clone();
        }
        let made = rules.to_rules_nearest().map(|(rules, _)| rules);
        if remembered.len() == REMEMBERED {
            // The oldest verdict is forgotten, not needed.
            drop(remembered.remove(0));
        }
        remembered.push((key, made.clone()));
        made
    })
}

fuzz_target!(|text: &str| {
    let Ok(record) = GameRecord::parse(text) else {
        return;
    };
    if let Ok(own) = nearest(&record.rules) {
        let _ = record.replay(&own);
    }
    if let Ok(game) = record.replay(brandub_otn()) {
        let written = GameRecord::from_game(&game, record.tags.clone()).expect("brandub is OTN");
        let again = GameRecord::parse(&written.to_text()).expect("a written record reads back");
        assert_eq!(again.moves, written.moves);
    }
});
