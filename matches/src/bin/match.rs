//! The engine match runner: plays two engine configurations against each other
//! (`match --help`; the match itself is [`hnefatafl_matches::runner`]).
//!
//! ```text
//! match --rules data/rules/brandub --games 40 --a level=3 --b depth=2
//!       [--plies 300] [--opening 4 | --openings matches/openings/brandub.txt]
//!       [--seed 1] [--jobs 1] [--a-plays 0|1] [--clock 60+1] [--sprt 0,10]
//!       [--gauntlet matches/gauntlet.txt] [--verbose] [--resume earlier-report.txt]
//! ```

use clap::Parser;
use hnefatafl_matches::runner::{Arguments, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run(&Arguments::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("match: {message}");
            ExitCode::FAILURE
        }
    }
}
