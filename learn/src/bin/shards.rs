//! Shows and merges the trainer's shards of self-play data (`shards --help`; the format is
//! [`hnefatafl_learn::shard`]).
//!
//! ```text
//! shards info <shard>...
//! shards merge --out <shard> <shard>...
//! shards import --rules <rule file> --games <recorded games> --out <shard>
//!               [--nodes 500] [--network <file>] [--jobs 0]
//! ```
//!
//! `info` prints each shard's layout, counts, the balance of its results and the settings
//! its games were played with. `merge` writes the complete games of several shards (runs
//! of other machines too) into one, numbered again from 0, and refuses shards whose piece
//! layouts differ, naming the file. `import` makes a shard of recorded games (people's,
//! as `core/tests/data/copenhagen_games.csv.gz`; see [`hnefatafl_learn::import`]), each
//! position scored by a search of `--nodes` nodes with `--network` (or the classic
//! evaluation), for `train --data`.

use aim::nnue::Layout;
use clap::{Args, Parser, Subcommand};
use hnefatafl_core::Rules;
use hnefatafl_learn::import::{Import, import};
use hnefatafl_learn::shard;
use hnefatafl_learn::training::read_network;
use hnefatafl_matches::record::read_record_file;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Shows and merges the trainer's shards of self-play data (the games.shard of a train
/// --work folder).
#[derive(Parser)]
#[command(name = "shards", version)]
struct Arguments {
    #[command(subcommand)]
    command: Command,
}

/// What to do.
#[derive(Subcommand)]
enum Command {
    /// Prints each shard's layout, games, positions, results and settings.
    Info {
        /// The shards.
        #[arg(required = true, value_name = "SHARD")]
        shards: Vec<PathBuf>,
    },
    /// Writes the complete games of several shards into one (written whole), numbered
    /// again from 0; shards of different piece layouts are refused.
    Merge {
        /// The shard written.
        #[arg(long, value_name = "SHARD")]
        out: PathBuf,
        /// The shards read.
        #[arg(required = true, value_name = "SHARD")]
        shards: Vec<PathBuf>,
    },
    /// Writes a shard of recorded games (one a line, a name ending in .gz read gzipped):
    /// those with a result and not lost on time, each position before a recorded move
    /// scored by a search, with the game's recorded result.
    Import(ImportArguments),
}

/// What `import` is given.
#[derive(Args)]
struct ImportArguments {
    /// The rule file the games were played by.
    #[arg(long, value_name = "FILE")]
    rules: PathBuf,
    /// The recorded games.
    #[arg(long, value_name = "FILE")]
    games: PathBuf,
    /// The shard written (whole).
    #[arg(long, value_name = "SHARD")]
    out: PathBuf,
    /// Nodes of the search that scores each position.
    #[arg(long, value_name = "N", default_value_t = 500)]
    nodes: u64,
    /// The network the search evaluates with (one made for these rules), instead of
    /// the classic evaluation.
    #[arg(long, value_name = "FILE")]
    network: Option<PathBuf>,
    /// Threads scoring games (0: one per core); the shard is the same whatever it is.
    #[arg(long, value_name = "N", default_value_t = 0)]
    jobs: usize,
}

/// Imports recorded games into a shard.
fn run_import(arguments: ImportArguments) -> Result<(), String> {
    let name = arguments.rules.display();
    let text = std::fs::read(&arguments.rules).map_err(|e| format!("{name}: {e}"))?;
    let rules = Rules::parse(&text).map_err(|e| format!("{name}: {e}"))?;
    let network = match &arguments.network {
        Some(path) => Some(Arc::new(read_network(path, &rules)?)),
        None => None,
    };
    if arguments.nodes == 0 {
        return Err("--nodes 0: a search of at least one node scores a position".to_string());
    }
    let games_name = arguments.games.display().to_string();
    let text = read_record_file(&arguments.games)?;
    let settings = Import {
        nodes: arguments.nodes,
        network,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(arguments.jobs)
        .build()
        .map_err(|e| format!("--jobs {}: {e}", arguments.jobs))?;
    let imported = pool
        .install(|| import(&rules, &text, &settings))
        .map_err(|e| format!("{games_name}: {e}"))?;
    if imported.games.is_empty() {
        return Err(format!(
            "{games_name}: no game with a result to import ({} unfinished, {} lost on time)",
            imported.unfinished, imported.timed_out
        ));
    }
    let source = format!("of {games_name}");
    let described = settings.describe(&rules, &source);
    shard::write(
        &arguments.out,
        Layout::of(&rules),
        &described,
        &imported.games,
    )?;
    let count = |result| imported.games.iter().filter(|g| g.result == result).count();
    let positions: usize = imported.games.iter().map(|g| g.samples.len()).sum();
    println!(
        "wrote {}: {} games ({} won by player 0, {} by player 1, {} drawn), {positions} positions; left out {} unfinished, {} lost on time, {} repeated",
        arguments.out.display(),
        imported.games.len(),
        count(1),
        count(-1),
        count(0),
        imported.unfinished,
        imported.timed_out,
        imported.repeated
    );
    Ok(())
}

/// Prints what a shard holds.
fn info(path: &Path) -> Result<(), String> {
    let read = shard::read(path)?;
    let count = |result| read.games.iter().filter(|g| g.result == result).count();
    let positions: usize = read.games.iter().map(|g| g.samples.len()).sum();
    println!("{}:", path.display());
    println!("  {}", shard::describe_layout(&read.header.layout));
    println!(
        "  {} games ({} won by player 0, {} by player 1, {} drawn), {positions} positions",
        read.games.len(),
        count(1),
        count(-1),
        count(0)
    );
    if read.stopped {
        println!(
            "  the run writing it was stopped (its header counts {} games): its complete games are read",
            read.header.games
        );
    }
    for line in read.header.settings.lines() {
        println!("  settings: {line}");
    }
    Ok(())
}

fn run(arguments: Arguments) -> Result<(), String> {
    match arguments.command {
        Command::Info { shards } => shards.iter().try_for_each(|path| info(path)),
        Command::Merge { out, shards } => {
            let merged = shard::merge(&shards, &out)?;
            for path in &merged.stopped {
                println!(
                    "{}: the run writing it was stopped: its complete games are merged",
                    path.display()
                );
            }
            println!(
                "wrote {}: {} games, {} positions from {} shards",
                out.display(),
                merged.games,
                merged.positions,
                shards.len()
            );
            Ok(())
        }
        Command::Import(arguments) => run_import(arguments),
    }
}

fn main() -> ExitCode {
    match run(Arguments::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("shards: {error}");
            ExitCode::FAILURE
        }
    }
}
