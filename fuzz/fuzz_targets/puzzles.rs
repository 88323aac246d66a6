//! Puzzle files (`hnefatafl_matches::solve::puzzle::read_puzzles`): any text reads as
//! puzzles or gives an error naming its line, never a panic; every puzzle read is a
//! position whose winning moves are legal there, and written as a line it reads back the
//! same.
//!
//! The first byte chooses the rules: bit 0 copenhagen (11x11, the rule file the shipped
//! puzzles are of), else the fuzz targets' fixed 7x7 brandub, whose shorter boards
//! mutations reach more easily. The rest is the file.

#![no_main]

use std::sync::OnceLock;

use hnefatafl_core::Rules;
use hnefatafl_fuzz::{brandub_otn, shipped};
use hnefatafl_matches::solve::puzzle::{Puzzle, read_puzzles};
use libfuzzer_sys::fuzz_target;

fn copenhagen() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    shipped(&RULES, "copenhagen")
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let rules = if choice & 1 == 1 {
        copenhagen()
    } else {
        brandub_otn()
    };
    let puzzles = match read_puzzles(rules, text) {
        Ok(puzzles) => puzzles,
        Err(error) => {
            assert!(
                error.starts_with("line ") || error == "no puzzle in the file",
                "a refusal names its line: {error}"
            );
            return;
        }
    };
    for puzzle in &puzzles {
        assert!(!puzzle.moves.is_empty());
        for &mv in &puzzle.moves {
            assert!(puzzle.position.check_move(mv).is_ok(), "{mv:?} is legal");
        }
        let line = puzzle.to_line().expect("a puzzle read writes");
        let again = Puzzle::from_line(rules, &line).expect("a written puzzle reads back");
        assert_eq!(&again, puzzle, "{line}");
    }
});
