//! Puzzle sets of forced wins from recorded games, and the engine's score on them.
//!
//! ```text
//! puzzles make [--games core/tests/data/copenhagen_games.csv.gz] [--rules data/rules/copenhagen]
//!              [--depth 3] [--nodes 3000000] [--per-kind 40] [--per-kind-in-one 12] > matches/puzzles/copenhagen.txt
//! puzzles solve [--rules data/rules/copenhagen] [--time 0.1] [--eval network|classic]
//!               [--network FILE] [--hash 64] [--set KEY=VALUE]... [--verbose]
//!               matches/puzzles/copenhagen.txt
//! ```
//!
//! The file format is `hnefatafl_matches::solve::puzzle`'s.

use aim::nnue::Network;
use aim::settings::Settings;
use aim::{Engine, EngineConfig, Evaluation, Limits, Tuning};
use clap::{Parser, Subcommand, ValueEnum};
use hnefatafl_core::Rules;
use hnefatafl_matches::record::read_record_file;
use hnefatafl_matches::solve::puzzle::{
    self, MakeSpec, Tally, candidates, make, move_word, read_puzzles, solves,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Puzzle sets of forced wins from recorded games, and the engine's score on them.
#[derive(Parser)]
#[command(name = "puzzles", version)]
struct Arguments {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Searches every distinct position of recorded games for a forced win of the side to
    /// move (a proof search: every defence answered) and writes the wins kept, with every
    /// winning first move, to standard output, one puzzle a line, after a header that
    /// says how they were made.
    Make {
        /// The recorded games (one a line, moves `d1-d3` before the first comma; a name
        /// ending in `.gz` is read gzipped).
        #[arg(
            long,
            value_name = "FILE",
            default_value = "core/tests/data/copenhagen_games.csv.gz"
        )]
        games: PathBuf,
        /// The rule file the games were played by.
        #[arg(long, value_name = "FILE", default_value = "data/rules/copenhagen")]
        rules: PathBuf,
        /// The deepest win looked for, in the winner's moves (the deepest depth looks only
        /// at first moves that threaten to win at once; the others at every move).
        #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=4))]
        depth: u32,
        /// The most moves the search may play on one step of one position; a position
        /// that needs more is left out.
        #[arg(long, value_name = "N", default_value_t = 3_000_000)]
        nodes: u64,
        /// The most puzzles kept of each winner, depth and end (spread evenly over the
        /// games).
        #[arg(long, value_name = "N", default_value_t = 40)]
        per_kind: usize,
        /// The most puzzles kept of each winner and end among the wins in one move.
        #[arg(long, value_name = "N", default_value_t = 12)]
        per_kind_in_one: usize,
    },
    /// Runs the engine's normal search on each puzzle of a file for a time a position and
    /// reports how many it solves (its move is one of the winning first moves), in all,
    /// by winner and depth, and by how the win ends.
    Solve {
        /// The puzzle file.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The rule file of the puzzles.
        #[arg(long, value_name = "FILE", default_value = "data/rules/copenhagen")]
        rules: PathBuf,
        /// Seconds a position.
        #[arg(long, value_name = "SECONDS", default_value_t = 0.1)]
        time: f64,
        /// The evaluation: the learned network (the rule file's, `data/networks/<rules>.nnue`
        /// beside its folder, or `--network`) or the classic one.
        #[arg(long, value_enum, default_value_t = Eval::Network)]
        eval: Eval,
        /// A network file instead of the rule file's.
        #[arg(long, value_name = "FILE")]
        network: Option<PathBuf>,
        /// The transposition table's size in MiB.
        #[arg(long, value_name = "MIB", default_value_t = 64)]
        hash: usize,
        /// A knob of the search or the evaluation, as the match runner's (`hprune=0`,
        /// `mobility=5`; `match --help` lists them); may be given many times.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// List every puzzle with the engine's move.
        #[arg(long)]
        verbose: bool,
    },
}

/// An evaluation `--eval` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Eval {
    /// The learned network.
    Network,
    /// The classic, hand-written evaluation.
    Classic,
}

fn read_rules(path: &Path) -> Result<Rules, String> {
    let name = path.display();
    let text = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    Rules::parse(&text).map_err(|e| format!("{name}: {e}"))
}

fn run_make(games: &Path, rules_path: &Path, spec: &MakeSpec) -> Result<(), String> {
    let rules = read_rules(rules_path)?;
    let text = read_record_file(games)?;
    let started = Instant::now();
    let positions = candidates(&rules, &text).map_err(|e| format!("{}: {e}", games.display()))?;
    let made = make(&positions, spec);
    println!(
        "# Forced wins of the side to move in {} of the {} distinct positions of {} ({}),",
        made.puzzles.len(),
        made.positions,
        games.display(),
        rules.id()
    );
    println!(
        "# by `puzzles make --games {} --rules {} --depth {} --nodes {} --per-kind {} --per-kind-in-one {}`",
        games.display(),
        rules_path.display(),
        spec.depth,
        spec.node_limit,
        spec.per_kind,
        spec.per_kind_in_one
    );
    println!(
        "# (at most {} of each winner, depth and end, {} of the wins in one, spread over the games).",
        spec.per_kind, spec.per_kind_in_one
    );
    println!("# Found: {}", found_line(&made.found));
    println!(
        "# side depth end winning-moves position source (see hnefatafl_matches::solve::puzzle)"
    );
    for puzzle in &made.puzzles {
        println!("{}", puzzle.to_line()?);
    }
    eprintln!(
        "puzzles: {} kept of {} positions, {} left out at the node limit, in {:.0} s",
        made.puzzles.len(),
        made.positions,
        made.out_of_nodes,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The wins found, counted: `defenders in 1 escape 120, ...`.
fn found_line(found: &std::collections::BTreeMap<(String, u32, puzzle::End), usize>) -> String {
    let parts: Vec<String> = found
        .iter()
        .map(|((side, depth, end), count)| format!("{side} in {depth} by {} {count}", end.word()))
        .collect();
    parts.join(", ")
}

struct SolveOptions {
    time: f64,
    eval: Eval,
    network: Option<PathBuf>,
    hash: usize,
    /// `--set`'s knobs.
    tuning: Tuning,
    verbose: bool,
}

/// The engine's knobs with each `KEY=VALUE` of `--set` applied.
fn tuning_of(set: &[String]) -> Result<Tuning, String> {
    let mut settings = Settings::default();
    for word in set {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--set {word}: not KEY=VALUE"))?;
        settings
            .set(key, value)
            .map_err(|e| format!("--set {word}: {e}"))?;
    }
    Ok(settings.tuning)
}

fn run_solve(file: &Path, rules_path: &Path, options: &SolveOptions) -> Result<(), String> {
    let rules = read_rules(rules_path)?;
    let puzzles = read_puzzles(&rules, &read_record_file(file)?)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    if !(options.time.is_finite() && options.time > 0.0) {
        return Err(format!(
            "--time {}: not a positive number of seconds",
            options.time
        ));
    }
    let config = EngineConfig {
        threads: 1,
        hash_mib: options.hash.max(1),
    };
    let mut engine = Engine::with_tuning(config, options.tuning.clone());
    let mut limits = Limits {
        time: Some(Duration::from_secs_f64(options.time)),
        threads: Some(1),
        ..Limits::default()
    };
    let evaluation = match options.eval {
        Eval::Classic if options.network.is_some() => {
            return Err("--network names a network, which --eval classic does not use".to_string());
        }
        Eval::Classic => {
            limits.evaluation = Some(Evaluation::Classic);
            "the classic evaluation".to_string()
        }
        Eval::Network => {
            let path = options
                .network
                .clone()
                .unwrap_or_else(|| hnefatafl_data::network_beside(rules_path));
            let name = path.display().to_string();
            let bytes = std::fs::read(&path).map_err(|e| format!("{name}: {e}"))?;
            let network = Network::for_rules(&name, &bytes, &rules).map_err(|e| e.to_string())?;
            engine.set_network(Some(Arc::new(network)));
            limits.evaluation = Some(Evaluation::Network);
            format!("network {name}")
        }
    };
    println!(
        "{}: {} puzzles, {} s a position, one thread, {} MiB, {evaluation}",
        file.display(),
        puzzles.len(),
        options.time,
        options.hash.max(1)
    );
    let mut tally = Tally::default();
    for puzzle in &puzzles {
        let (solved, best) = solves(&mut engine, puzzle, &limits);
        tally.add(puzzle, solved);
        if options.verbose {
            let played = best.map_or_else(|| "none".to_string(), |mv| move_word(&rules, mv));
            println!(
                "{} {} {} in {} ({}): {played}",
                if solved { "solved" } else { "missed" },
                puzzle.side().map_or("?", |side| side.word()),
                puzzle.end.word(),
                puzzle.depth,
                puzzle.source
            );
        }
    }
    print!("{}", puzzle::report(&tally));
    Ok(())
}

fn main() -> ExitCode {
    let result = match Arguments::parse().command {
        Command::Make {
            games,
            rules,
            depth,
            nodes,
            per_kind,
            per_kind_in_one,
        } => {
            let spec = MakeSpec {
                depth,
                node_limit: nodes.max(1),
                per_kind,
                per_kind_in_one,
            };
            run_make(&games, &rules, &spec)
        }
        Command::Solve {
            file,
            rules,
            time,
            eval,
            network,
            hash,
            set,
            verbose,
        } => tuning_of(&set).and_then(|tuning| {
            let options = SolveOptions {
                time,
                eval,
                network,
                hash,
                tuning,
                verbose,
            };
            run_solve(&file, &rules, &options)
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("puzzles: {message}");
            ExitCode::FAILURE
        }
    }
}
