//! OTN position records: reading must never panic; what reads writes back to the same
//! text once normalised, and fitting it onto fixed rules must never panic either.

#![no_main]

use hnefatafl_core::Player;
use hnefatafl_core::otn::{Board, position_from_otn, position_to_otn};
use hnefatafl_fuzz::brandub_otn;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(board) = text.parse::<Board>() else {
        return;
    };
    let written = board.to_string();
    let again: Board = written.parse().expect("a written position reads back");
    assert_eq!(again, board);
    if let Ok(position) = position_from_otn(brandub_otn(), &board, Player::One) {
        let back = position_to_otn(brandub_otn(), &position).expect("brandub is OTN");
        assert_eq!(back, board);
    }
});
