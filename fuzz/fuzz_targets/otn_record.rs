//! OTN game records: reading must never panic, nor replaying what reads, on its own
//! rules and on fixed ones.

#![no_main]

use std::sync::OnceLock;

use hnefatafl_core::Rules;
use hnefatafl_core::otn::{GameRecord, RulesString};
use libfuzzer_sys::fuzz_target;

const RULES: &str = "dim:7 surf:n tfr:i ks:w cenp:K start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

fn rules() -> &'static Rules {
    static PARSED: OnceLock<Rules> = OnceLock::new();
    PARSED.get_or_init(|| {
        RulesString::parse(RULES)
            .and_then(|r| r.to_rules())
            .expect("the fuzz target's fixed rules string must be valid")
    })
}

fuzz_target!(|text: &str| {
    let Ok(record) = GameRecord::parse(text) else {
        return;
    };
    if let Ok((own, _)) = record.game_rules_nearest() {
        let _ = record.replay(&own);
    }
    if let Ok(game) = record.replay(rules()) {
        let written = GameRecord::from_game(&game, record.tags.clone()).expect("brandub is OTN");
        let again = GameRecord::parse(&written.to_text()).expect("a written record reads back");
        assert_eq!(again.moves, written.moves);
    }
});
