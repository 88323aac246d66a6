//! Makes a balanced opening set for the match runner.
//!
//! ```text
//! openings --rules data/rules/brandub [--count 50] [--plies 4] [--depth 4]
//!          [--max-score 60] [--seed 1] [--games <recorded games>] > benches/openings/brandub.txt
//! ```
//!
//! Random openings of `--plies` plies, each kept when a `--depth` search scores it within
//! `--max-score` hundredths of a piece of even and no kept opening reaches the same
//! position. With `--games`, the openings are the first `--plies` plies of recorded games
//! instead (one game a line, as [`recorded_openings`] reads them; a name ending in `.gz`
//! is read gzipped), the most played first, kept by the same test. Writes the set to
//! standard output, with a header that says how it was made.

use hnefatafl_benches::openings::{
    OpeningSpec, keep_balanced, make_openings, opening_line, recorded_openings,
};
use hnefatafl_core::Rules;
use std::io::Read;
use std::process::ExitCode;

const USAGE: &str = "usage: openings --rules <file> [--count N] [--plies N] [--depth N] \
[--max-score N] [--seed N] [--games <recorded games>]";

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rules_path = None;
    let mut games_path = None;
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
            "--games" => games_path = Some(value.clone()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let rules_path = rules_path.ok_or("--rules is required")?;
    let text = std::fs::read(&rules_path).map_err(|e| format!("{rules_path}: {e}"))?;
    let rules = Rules::parse(&text).map_err(|e| format!("{rules_path}: {e}"))?;
    // How the openings were drawn, for the header; the seed only draws random ones.
    let (openings, source, seed) = match games_path {
        None => (
            make_openings(&rules, &spec),
            format!("{} random plies", spec.plies),
            format!(", seed {}", spec.seed),
        ),
        Some(path) => {
            let text = read_games(&path)?;
            let recorded =
                recorded_openings(&rules, &text, spec.plies).map_err(|e| format!("{path}: {e}"))?;
            let source = format!(
                "the most played {}-ply openings of {path} ({} distinct)",
                spec.plies,
                recorded.len()
            );
            let openings = keep_balanced(recorded.into_iter().map(|(game, _)| game), &spec);
            (openings, source, String::new())
        }
    };
    println!(
        "# {} openings for {rules_path} ({}): {source}, kept within {} of even at depth {}{seed}",
        openings.len(),
        rules.id(),
        spec.max_score,
        spec.depth,
    );
    for game in &openings {
        println!("{}", opening_line(game));
    }
    Ok(())
}

/// The text of a file of recorded games, gunzipped when its name ends in `.gz`.
fn read_games(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut text = String::new();
    if path.ends_with(".gz") {
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut text)
            .map_err(|e| format!("{path}: {e}"))?;
    } else {
        text = String::from_utf8(bytes).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(text)
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
