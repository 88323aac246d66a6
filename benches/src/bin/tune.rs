//! Tunes the evaluation weights on positions from self-play games (Texel's method).
//!
//! ```text
//! tune --rules data/rules/hnefatafl [--games 200] [--nodes 5000] [--opening 6] [--plies 200]
//!      [--seed 1] [--jobs 2] [--passes 4] [--keys mobility,guard,...]
//! ```
//!
//! Plays `--games` games of the engine against itself (default weights, `--nodes` nodes a
//! move, each from a random opening of `--opening` plies seeded by the game's number), keeps
//! every position after the opening whose search score was not decisive, with the game's
//! result for its side to move (1, ½ or 0; a game reaching `--plies` is a draw). The data
//! stays in memory: at most `--games` x `--plies` positions. Then it fits the scale `k` of
//! the logistic `1 / (1 + 10^(-k x eval / 400))` to the default weights, and walks the
//! weights one at a time (Texel's local search: a step up or down is kept when the mean
//! squared error of the predicted results falls; the step halves when no weight moves) for
//! `--passes` rounds of step sizes. It prints the error before and after, and the tuned
//! weights as a side for the match runner (`match --a n20000,<weights> --b n20000`), which
//! decides whether they play better.

use aim::{Engine, EngineConfig, EvalWeights, Limits, Tuning};
use hnefatafl_benches::{WEIGHT_KEYS, random_opening, weight_mut};
use hnefatafl_core::{Game, Position, Rules};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

const USAGE: &str = "usage: tune --rules <file> [--games N] [--nodes N] [--opening N] \
[--plies N] [--seed N] [--jobs N] [--passes N] [--keys k1,k2,...]";

/// The weights tuned when `--keys` is not given: every one but the piece (the first key),
/// which sets the scale.
fn default_keys() -> Vec<String> {
    WEIGHT_KEYS[1..].iter().map(|k| k.to_string()).collect()
}

struct Options {
    rules: Rules,
    games: usize,
    nodes: u64,
    opening: usize,
    plies: usize,
    seed: u64,
    jobs: usize,
    passes: u32,
    keys: Vec<String>,
}

fn parse_args() -> Result<Options, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rules_path = None;
    let mut options = Options {
        rules: hnefatafl_benches::fetlar_rules(),
        games: 200,
        nodes: 5000,
        opening: 6,
        plies: 200,
        seed: 1,
        jobs: 1,
        passes: 4,
        keys: default_keys(),
    };
    let mut index = 0;
    while index < args.len() {
        let flag = &args[index];
        let value = args
            .get(index + 1)
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag}: `{value}` is not a number"))
        };
        match flag.as_str() {
            "--rules" => rules_path = Some(value.clone()),
            "--games" => options.games = number()? as usize,
            "--nodes" => options.nodes = number()?.max(1),
            "--opening" => options.opening = number()? as usize,
            "--plies" => options.plies = number()? as usize,
            "--seed" => options.seed = number()?,
            "--jobs" => options.jobs = (number()? as usize).max(1),
            "--passes" => options.passes = number()? as u32,
            "--keys" => {
                options.keys = value.split(',').map(str::to_string).collect();
                if let Some(bad) = options
                    .keys
                    .iter()
                    .find(|key| !WEIGHT_KEYS.contains(&key.as_str()))
                {
                    return Err(format!("--keys: `{bad}` is not a weight"));
                }
            }
            _ => return Err(format!("unknown option `{flag}`")),
        }
        index += 2;
    }
    let path = rules_path.ok_or("--rules is required")?;
    let text = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    options.rules = Rules::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    Ok(options)
}

/// A position and the result of its game for its side to move (1, ½ or 0).
struct Sample {
    position: Position,
    result: f64,
}

/// Plays one self-play game from a random opening and returns its samples.
fn self_play(options: &Options, number: usize) -> Vec<Sample> {
    let start = random_opening(
        &options.rules,
        options.opening,
        options.seed.wrapping_mul(1_000_003) + number as u64,
    );
    let mut game: Game = start;
    let mut engine = Engine::new(EngineConfig {
        threads: 1,
        hash_mib: 16,
    });
    let limits = Limits {
        nodes: Some(options.nodes),
        ..Limits::default()
    };
    let mut kept = Vec::new();
    for _ in 0..options.plies {
        if game.outcome().is_some() {
            break;
        }
        let found = engine.search(
            &game,
            &limits,
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        if found.score.mate_plies().is_none() {
            kept.push((game.position().clone(), game.side_to_move()));
        }
        let Some(mv) = found.best else {
            break;
        };
        if game.try_play(mv).is_err() {
            break;
        }
    }
    let winner = game.outcome().and_then(|outcome| outcome.winner);
    kept.into_iter()
        .map(|(position, mover)| Sample {
            position,
            result: match winner {
                Some(winner) if winner == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
        })
        .collect()
}

/// The static evaluations of the samples with these weights.
fn evaluations(samples: &[Sample], weights: &EvalWeights) -> Vec<f64> {
    let mut engine = Engine::with_tuning(
        EngineConfig {
            threads: 1,
            hash_mib: 0,
        },
        Tuning {
            weights: weights.clone(),
            ..Tuning::default()
        },
    );
    samples
        .iter()
        .map(|sample| f64::from(engine.evaluate(&sample.position).0))
        .collect()
}

/// The mean squared error of the results predicted from the evaluations at scale `k`.
fn error(samples: &[Sample], evaluations: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .zip(evaluations)
        .map(|(sample, &eval)| {
            let predicted = 1.0 / (1.0 + 10f64.powf(-k * eval / 400.0));
            (sample.result - predicted).powi(2)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The scale `k` that fits the default evaluation best (a search over a log grid, then
/// a finer one around the best).
fn fit_scale(samples: &[Sample], evaluations: &[f64]) -> f64 {
    let mut best = (f64::INFINITY, 1.0);
    for step in 0..=40 {
        let k = 0.01 * 1.2f64.powi(step);
        let e = error(samples, evaluations, k);
        if e < best.0 {
            best = (e, k);
        }
    }
    let centre = best.1;
    for step in -10..=10 {
        let k = centre * (1.0 + 0.02 * f64::from(step));
        let e = error(samples, evaluations, k);
        if e < best.0 {
            best = (e, k);
        }
    }
    best.1
}

fn side_text(weights: &EvalWeights, keys: &[String]) -> String {
    let mut weights = weights.clone();
    keys.iter()
        .filter_map(|key| weight_mut(&mut weights, key).map(|w| format!("{key}={w}")))
        .collect::<Vec<_>>()
        .join(",")
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("tune: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // Self-play, the games shared between `--jobs` threads.
    let next = AtomicUsize::new(0);
    let mut samples: Vec<Sample> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..options.jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let number = next.fetch_add(1, Ordering::Relaxed);
                        if number >= options.games {
                            return mine;
                        }
                        mine.extend(self_play(&options, number));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().unwrap_or_default())
            .collect()
    });
    samples.shrink_to_fit();
    let wins = samples.iter().filter(|s| s.result == 1.0).count();
    println!(
        "{} positions from {} games at {} nodes a move ({} won by the side to move, {} drawn)",
        samples.len(),
        options.games,
        options.nodes,
        wins,
        samples.iter().filter(|s| s.result == 0.5).count()
    );
    if samples.is_empty() {
        eprintln!("tune: no positions to tune on");
        return ExitCode::FAILURE;
    }

    let mut weights = EvalWeights::default();
    let k = fit_scale(&samples, &evaluations(&samples, &weights));
    let start_error = error(&samples, &evaluations(&samples, &weights), k);
    println!("scale k = {k:.4}; error with the default weights {start_error:.6}");
    let mut best_error = start_error;
    for pass in 0..options.passes {
        // Steps: a quarter of each weight's size at first, halving every pass (at least 1).
        let divisor = 4 << pass;
        loop {
            let mut moved = false;
            for key in &options.keys {
                let Some(&mut current) = weight_mut(&mut weights, key) else {
                    continue;
                };
                let step = (current.abs() / divisor).max(1);
                for candidate in [current + step, current - step] {
                    let mut trial = weights.clone();
                    if let Some(weight) = weight_mut(&mut trial, key) {
                        *weight = candidate;
                    }
                    let e = error(&samples, &evaluations(&samples, &trial), k);
                    if e < best_error {
                        best_error = e;
                        weights = trial;
                        moved = true;
                        break;
                    }
                }
            }
            if !moved {
                break;
            }
        }
        println!(
            "pass {} (steps of 1/{divisor}): error {best_error:.6}",
            pass + 1
        );
    }
    println!(
        "error {start_error:.6} -> {best_error:.6} on {} positions",
        samples.len()
    );
    println!("tuned: {}", side_text(&weights, &options.keys));
    ExitCode::SUCCESS
}
