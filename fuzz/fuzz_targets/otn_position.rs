//! OTN position records: reading must never panic; what reads writes back to the same
//! text once normalised, and fitting it onto fixed rules must never panic either.

#![no_main]

use std::sync::OnceLock;

use hnefatafl_core::otn::{Board, RulesString, position_from_otn, position_to_otn};
use hnefatafl_core::{Player, Rules};
use libfuzzer_sys::fuzz_target;

/// Brandub with a weak king, as an OTN rules string.
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
    let Ok(board) = text.parse::<Board>() else {
        return;
    };
    let written = board.to_string();
    let again: Board = written.parse().expect("a written position reads back");
    assert_eq!(again, board);
    if let Ok(position) = position_from_otn(rules(), &board, Player::One) {
        let back = position_to_otn(rules(), &position).expect("brandub is OTN");
        assert_eq!(back, board);
    }
});
