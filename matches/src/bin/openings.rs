//! Makes a balanced opening set for the match runner.
//!
//! ```text
//! openings --rules data/rules/brandub [--count 50] [--plies 4] [--depth 4]
//!          [--max-score 60] [--seed 1] [--games <recorded games>] > matches/openings/brandub.txt
//! ```
//!
//! Random openings of `--plies` plies, each kept when a `--depth` search scores it within
//! `--max-score` hundredths of a piece of even and no kept opening reaches the same
//! position. With `--games`, the openings are the first `--plies` plies of recorded games
//! instead (one game a line, as [`recorded_openings`] reads them; a name ending in `.gz`
//! is read gzipped), the most played first, kept by the same test. Writes the set to
//! standard output, with a header that says how it was made.

use clap::Parser;
use hnefatafl_core::Rules;
use hnefatafl_matches::openings::{
    OpeningSpec, keep_balanced, make_openings, opening_line, recorded_openings,
};
use hnefatafl_matches::record::read_record_file;
use std::path::PathBuf;
use std::process::ExitCode;

/// Makes a balanced opening set for the match runner and writes it to standard output,
/// with a header that says how it was made: random openings of `--plies` plies (or, with
/// `--games`, the first `--plies` plies of recorded games, the most played first), each
/// kept when a `--depth` search scores it within `--max-score` hundredths of a piece of
/// even and no kept opening reaches the same position.
#[derive(Parser)]
#[command(name = "openings", version)]
struct Arguments {
    /// The rule file the openings are played by.
    #[arg(long, value_name = "FILE")]
    rules: PathBuf,
    /// Openings wanted.
    #[arg(long, value_name = "N", default_value_t = 50)]
    count: usize,
    /// Plies of each opening.
    #[arg(long, value_name = "N", default_value_t = 4)]
    plies: usize,
    /// Depth of the search that judges an opening.
    #[arg(long, value_name = "N", default_value_t = 4)]
    depth: u32,
    /// The most an opening may favour the side to move, in hundredths of a piece.
    #[arg(long, value_name = "N", default_value_t = 60)]
    max_score: u32,
    /// Seed of the random plies.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Recorded games (one a line; a name ending in `.gz` is read gzipped) whose openings
    /// are taken instead of random ones.
    #[arg(long, value_name = "FILE")]
    games: Option<PathBuf>,
}

fn run() -> Result<(), String> {
    let arguments = Arguments::parse();
    let spec = OpeningSpec {
        count: arguments.count,
        plies: arguments.plies,
        depth: arguments.depth.max(1),
        max_score: arguments.max_score.min(i32::MAX as u32) as i32,
        seed: arguments.seed,
    };
    let rules_path = arguments.rules.display().to_string();
    let text = std::fs::read(&rules_path).map_err(|e| format!("{rules_path}: {e}"))?;
    let rules = Rules::parse(&text).map_err(|e| format!("{rules_path}: {e}"))?;
    let games_path = arguments.games.map(|path| path.display().to_string());
    // How the openings were drawn, for the header; the seed only draws random ones.
    let (openings, source, seed) = match games_path {
        None => (
            make_openings(&rules, &spec),
            format!("{} random plies", spec.plies),
            format!(", seed {}", spec.seed),
        ),
        Some(path) => {
            let text = read_record_file(std::path::Path::new(&path))?;
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

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("openings: {message}");
            ExitCode::FAILURE
        }
    }
}
