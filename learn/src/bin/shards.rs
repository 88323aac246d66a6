//! Shows and merges the trainer's shards of self-play data (`shards --help`; the format is
//! [`hnefatafl_learn::shard`]).
//!
//! ```text
//! shards info <shard>...
//! shards merge --out <shard> <shard>...
//! ```
//!
//! `info` prints each shard's layout, counts, the balance of its results and the settings
//! its games were played with. `merge` writes the complete games of several shards (runs
//! of other machines too) into one, numbered again from 0, and refuses shards whose piece
//! layouts differ, naming the file.

use clap::{Parser, Subcommand};
use hnefatafl_learn::shard;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
