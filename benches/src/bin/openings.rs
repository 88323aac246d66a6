//! Makes a balanced opening set for the match runner.
//!
//! ```text
//! openings --rules data/rules/brandub [--count 50] [--plies 4] [--depth 4]
//!          [--max-score 60] [--seed 1] > benches/openings/brandub.txt
//! ```
//!
//! Random openings of `--plies` plies, each kept when a `--depth` search scores it within
//! `--max-score` hundredths of a piece of even and no kept opening reaches the same
//! position. Writes the set to standard output, with a header that says how it was made.

use hnefatafl_benches::openings::{OpeningSpec, make_openings, opening_line};
use hnefatafl_core::Rules;
use std::process::ExitCode;

const USAGE: &str = "usage: openings --rules <file> [--count N] [--plies N] [--depth N] \
[--max-score N] [--seed N]";

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rules_path = None;
    let mut spec = OpeningSpec {
        count: 50,
        plies: 4,
        depth: 4,
        max_score: 60,
        seed: 1,
    };
    for pair in args.chunks(2) {
        let [name, value] = pair else {
            return Err(format!("`{}` needs a value", pair[0]));
        };
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("bad number `{value}` for {name}"))
        };
        match name.as_str() {
            "--rules" => rules_path = Some(value.clone()),
            "--count" => spec.count = number()? as usize,
            "--plies" => spec.plies = number()? as usize,
            "--depth" => spec.depth = (number()? as u32).max(1),
            "--max-score" => spec.max_score = number()?.min(i32::MAX as u64) as i32,
            "--seed" => spec.seed = number()?,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let rules_path = rules_path.ok_or("--rules is required")?;
    let text = std::fs::read(&rules_path).map_err(|e| format!("{rules_path}: {e}"))?;
    let rules = Rules::parse(&text).map_err(|e| format!("{rules_path}: {e}"))?;
    let openings = make_openings(&rules, &spec);
    println!(
        "# {} openings for {rules_path} ({}): {} random plies, kept within {} of even at depth {}, seed {}",
        openings.len(),
        rules.id(),
        spec.plies,
        spec.max_score,
        spec.depth,
        spec.seed
    );
    for game in &openings {
        println!("{}", opening_line(game));
    }
    Ok(())
}

fn main() -> ExitCode {
    if hnefatafl_benches::asks_for_help() {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("openings: {message}\n{USAGE}");
            ExitCode::FAILURE
        }
    }
}
