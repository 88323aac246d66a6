//! Tunes the evaluation weights on positions from self-play games (Texel's method).
//!
//! ```text
//! tune --rules data/rules/hnefatafl [--games 200] [--nodes 5000] [--nodes0 N] [--nodes1 N]
//!      [--opening 6] [--plies 200] [--seed 1] [--jobs 2] [--passes 4] [--holdout 20]
//!      [--openings matches/openings/hnefatafl.txt] [--bound 4] [--save FILE | --load FILE]
//!      [--keys mobility,guard,...]
//! ```
//!
//! Plays `--games` games of the engine against itself (default weights, `--nodes` nodes a
//! move, or `--nodes0`/`--nodes1` for the moves of player 0 or 1: the node handicap that
//! makes a rule file whose one side wins every equal game go both ways; each game from a
//! random opening of `--opening` plies seeded by the game's number, or, with `--openings`,
//! game `k` from opening `k` of that set (modulo its length) and then `--opening` random
//! plies), keeps every position
//! after the opening whose search score was not decisive, with the game's result for its
//! side to move (1, ½ or 0; a game reaching `--plies` is a draw). The data stays in memory:
//! at most `--games` x `--plies` positions. `--holdout` percent of the games (every game
//! whose number is a multiple of `100 / holdout`; split by game, since the positions of one
//! game share its result) are kept out of the fit and only measured. `--save` writes each
//! game as it ends (its moves, its winner and which positions were kept), and `--load`
//! tunes on such a file instead of playing.
//!
//! Then it fits the scale `k` of the logistic `1 / (1 + 10^(-k x eval / 400))` to the
//! default weights on the training games, and walks the weights one at a time (Texel's
//! local search: a step up or down is kept when the mean squared error of the predicted
//! results falls; the step halves when no weight moves) for `--passes` rounds of step
//! sizes. Each weight stays within `--bound` times of its default either way with its sign
//! kept (`--bound 4`: between a quarter and four times), and a weight whose default is 0
//! stays between 0 and `--bound` times the piece, so the fit cannot blow a term up to
//! predict the side from the data's bias. It prints the training and hold-out errors
//! before and after, and the tuned weights as a side for the match runner
//! (`match --a n20000,<weights> --b n20000`), which decides whether they play better.

use aim::settings::{WEIGHT_KEYS, weight_mut};
use aim::{Engine, EngineConfig, EvalWeights, Limits, Tuning};
use clap::Parser;
use hnefatafl_core::{Game, Position, Rules};
use hnefatafl_matches::openings::{opening_line, play_written, random_plies, read_openings};
use hnefatafl_matches::random_opening;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Tunes the evaluation weights on positions from self-play games (Texel's method), and
/// prints the tuned weights as a side for the match runner, which decides whether they
/// play better.
///
/// It plays games of the engine against itself, keeps every position after the opening
/// whose search score was not decisive with its game's result, fits the scale of the
/// logistic that maps the evaluation to a result, and walks the weights one at a time
/// (a step is kept when the error of the predicted results falls; the steps halve each
/// pass). A weight stays within `--bound` times its default, its sign kept.
#[derive(Parser)]
#[command(name = "tune", version)]
struct Arguments {
    /// The rule file [default: the shipped 11x11 rules, data/rules/hnefatafl].
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// Self-play games.
    #[arg(long, value_name = "N", default_value_t = 200)]
    games: usize,
    /// Nodes a move.
    #[arg(long, value_name = "N", default_value_t = 5000)]
    nodes: u64,
    /// Nodes of player 0's moves (a handicap for a rule file one side wins).
    #[arg(long, value_name = "N")]
    nodes0: Option<u64>,
    /// Nodes of player 1's moves.
    #[arg(long, value_name = "N")]
    nodes1: Option<u64>,
    /// Random plies of each game's opening (after the set's opening with --openings).
    #[arg(long, value_name = "N", default_value_t = 6)]
    opening: usize,
    /// An opening set: game k starts from its opening k (modulo its length).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// A game that reaches this many plies is a draw.
    #[arg(long, value_name = "N", default_value_t = 200)]
    plies: usize,
    /// The seed of the random openings.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Games played at once, each on its own thread.
    #[arg(long, value_name = "N", default_value_t = 1)]
    jobs: usize,
    /// Rounds of step sizes, each half the last.
    #[arg(long, value_name = "N", default_value_t = 4)]
    passes: u32,
    /// The percent of the games kept out of the fit and only measured (at most 50).
    #[arg(long, value_name = "PERCENT", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(0..=50))]
    holdout: u64,
    /// Each weight stays within this many times its default either way (1 to 1000).
    #[arg(long, value_name = "F", default_value_t = 4,
          value_parser = clap::value_parser!(i32).range(1..=1000))]
    bound: i32,
    /// Write each game as it ends (its moves, its winner and the positions kept).
    #[arg(long, value_name = "FILE", conflicts_with = "load")]
    save: Option<String>,
    /// Tune on the games of a --save file instead of playing.
    #[arg(long, value_name = "FILE")]
    load: Option<String>,
    /// The weights tuned, separated by commas [default: every one but the piece, which
    /// sets the scale].
    #[arg(long, value_name = "K1,K2,...", value_delimiter = ',', value_parser = weight_key)]
    keys: Vec<String>,
}

/// A weight's key, as `--keys` takes it.
fn weight_key(text: &str) -> Result<String, String> {
    if WEIGHT_KEYS.contains(&text) {
        Ok(text.to_owned())
    } else {
        Err(format!(
            "`{text}` is not a weight ({})",
            WEIGHT_KEYS.join(" ")
        ))
    }
}

/// The weights tuned when `--keys` is not given: every one but the piece (the first key),
/// which sets the scale.
fn default_keys() -> Vec<String> {
    WEIGHT_KEYS[1..].iter().map(|k| k.to_string()).collect()
}

struct Options {
    rules: Rules,
    games: usize,
    nodes: u64,
    /// The node limit of player 0's and player 1's moves, where a handicap sets one.
    nodes_as: [Option<u64>; 2],
    /// The opening set whose opening `k mod len` starts game `k` (`--openings`).
    openings: Vec<Game>,
    opening: usize,
    plies: usize,
    seed: u64,
    jobs: usize,
    passes: u32,
    /// Every `holdout_every`-th game is measured, not fitted (0: none).
    holdout_every: usize,
    bound: i32,
    keys: Vec<String>,
    /// Where to write the games (`--save`), or the file to read them from instead of
    /// playing (`--load`).
    save: Option<String>,
    load: Option<String>,
}

/// Reads the files the arguments name.
fn options(arguments: Arguments) -> Result<Options, String> {
    let rules = match &arguments.rules {
        None => hnefatafl_matches::fetlar_rules(),
        Some(path) => {
            let path = path.display();
            let text = std::fs::read(path.to_string()).map_err(|e| format!("{path}: {e}"))?;
            Rules::parse(&text).map_err(|e| format!("{path}: {e}"))?
        }
    };
    let openings = match &arguments.openings {
        None => Vec::new(),
        Some(path) => {
            let path = path.display();
            let text =
                std::fs::read_to_string(path.to_string()).map_err(|e| format!("{path}: {e}"))?;
            read_openings(&rules, &text).map_err(|e| format!("{path}: {e}"))?
        }
    };
    Ok(Options {
        rules,
        games: arguments.games,
        nodes: arguments.nodes.max(1),
        nodes_as: [arguments.nodes0, arguments.nodes1].map(|n| n.map(|n| n.max(1))),
        openings,
        opening: arguments.opening,
        plies: arguments.plies,
        seed: arguments.seed,
        jobs: arguments.jobs.max(1),
        passes: arguments.passes,
        holdout_every: 100u64.checked_div(arguments.holdout).unwrap_or(0) as usize,
        bound: arguments.bound,
        keys: if arguments.keys.is_empty() {
            default_keys()
        } else {
            arguments.keys
        },
        save: arguments.save,
        load: arguments.load,
    })
}

/// A position and the result of its game for its side to move (1, ½ or 0).
struct Sample {
    position: Position,
    result: f64,
    /// Whether player 1 is to move (the fit's colour offset is added for player 1 and
    /// taken off for player 0).
    player1: bool,
}

/// One self-play game's samples and its winner (`None`: drawn).
struct Played {
    number: usize,
    winner: Option<usize>,
    samples: Vec<Sample>,
    /// The game as a line of a `--save` file.
    line: String,
}

/// Plays one self-play game from a random opening and returns its samples.
fn self_play(options: &Options, number: usize) -> Played {
    let seed = options.seed.wrapping_mul(1_000_003) + number as u64;
    let mut game: Game = if options.openings.is_empty() {
        random_opening(&options.rules, options.opening, seed)
    } else {
        // The set's opening, then `--opening` random plies.
        let mut game = options.openings[number % options.openings.len()].clone();
        random_plies(&mut game, options.opening, seed);
        game
    };
    let mut engine = Engine::new(EngineConfig {
        threads: 1,
        hash_mib: 16,
    });
    let mut kept = Vec::new();
    for _ in 0..options.plies {
        if game.outcome().is_some() {
            break;
        }
        let limits = Limits {
            nodes: Some(options.nodes_as[game.side_to_move().index()].unwrap_or(options.nodes)),
            ..Limits::default()
        };
        let found = engine.search_within(&game, &limits);
        if found.score.mate_plies().is_none() {
            kept.push(game.moves().len());
        }
        let Some(mv) = found.best else {
            break;
        };
        if game.try_play(mv).is_err() {
            break;
        }
    }
    let winner = game.outcome().and_then(|outcome| outcome.winner);
    let line = format!(
        "{number};{};{};{}",
        winner.map_or("-".to_string(), |w| w.index().to_string()),
        kept.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(","),
        opening_line(&game)
    );
    read_played(&options.rules, &line).unwrap_or(Played {
        number,
        winner: winner.map(|w| w.index()),
        samples: Vec::new(),
        line,
    })
}

/// Reads a game of a `--save` file: `number;winner;kept plies;moves`, the winner `0`, `1`
/// or `-` (drawn), the kept plies the numbers of moves played before each kept position,
/// and the moves from the start as in an opening set.
fn read_played(rules: &Rules, line: &str) -> Result<Played, String> {
    let fields: Vec<&str> = line.splitn(4, ';').collect();
    let [number, winner, kept, moves] = fields[..] else {
        return Err("not `number;winner;plies;moves`".to_string());
    };
    let number = number
        .parse::<usize>()
        .map_err(|_| format!("`{number}` is not a game number"))?;
    let winner = match winner {
        "-" => None,
        "0" => Some(0),
        "1" => Some(1),
        _ => return Err(format!("`{winner}` is not a winner (0, 1 or -)")),
    };
    let mut kept_plies = Vec::new();
    for ply in kept.split(',').filter(|p| !p.is_empty()) {
        kept_plies.push(
            ply.parse::<usize>()
                .map_err(|_| format!("`{ply}` is not a ply"))?,
        );
    }
    let mut game = Game::new(rules.clone());
    let mut samples = Vec::new();
    let keep = |game: &Game, samples: &mut Vec<Sample>| {
        if kept_plies.contains(&game.moves().len()) {
            let mover = game.side_to_move().index();
            samples.push(Sample {
                position: game.position().clone(),
                player1: mover == 1,
                result: match winner {
                    Some(w) if w == mover => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                },
            });
        }
    };
    keep(&game, &mut samples);
    for text in moves.split(',').filter(|m| !m.trim().is_empty()) {
        play_written(&mut game, text)?;
        keep(&game, &mut samples);
    }
    Ok(Played {
        number,
        winner,
        samples,
        line: line.to_string(),
    })
}

/// The range a weight may take: within `bound` times its default either way with its sign
/// kept, or from 0 to `bound` pieces for a weight whose default is 0 (a term that is off).
fn weight_range(default: i32, piece: i32, bound: i32) -> (i32, i32) {
    match default {
        0 => (0, bound * piece.abs()),
        d if d > 0 => ((d / bound).max(1), d.saturating_mul(bound)),
        d => (d.saturating_mul(bound), (d / bound).min(-1)),
    }
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

/// How evaluations are read as expected results: the logistic
/// `1 / (1 + 10^(-k x (eval ± offset) / 400))`, the offset added when player 1 is to move
/// and taken off when player 0 is. The offset takes up what the colour alone predicts (on a
/// rule file whose one side wins most games), so that the weights are fitted to what
/// predicts the result beyond it. It plays no part in the tuned evaluation: a constant for
/// each side changes no move of a search.
#[derive(Clone, Copy, Debug)]
struct Fit {
    k: f64,
    offset: f64,
}

/// The mean squared error of the results predicted from the evaluations.
fn error(samples: &[Sample], evaluations: &[f64], fit: Fit) -> f64 {
    let sum: f64 = samples
        .iter()
        .zip(evaluations)
        .map(|(sample, &eval)| {
            let eval = if sample.player1 {
                eval + fit.offset
            } else {
                eval - fit.offset
            };
            let predicted = 1.0 / (1.0 + 10f64.powf(-fit.k * eval / 400.0));
            (sample.result - predicted).powi(2)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The colour offset that fits best at scale `k` (steps of 20 within ±10,000, then of 1).
fn fit_offset(samples: &[Sample], evaluations: &[f64], k: f64) -> f64 {
    let error_at = |offset| error(samples, evaluations, Fit { k, offset });
    let mut best = (f64::INFINITY, 0.0);
    for step in -500..=500 {
        let offset = f64::from(step * 20);
        let e = error_at(offset);
        if e < best.0 {
            best = (e, offset);
        }
    }
    let centre = best.1;
    for step in -20..=20 {
        let offset = centre + f64::from(step);
        let e = error_at(offset);
        if e < best.0 {
            best = (e, offset);
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

/// Plays the self-play games, shared between `--jobs` threads, each written to `save` as
/// soon as it ends (so that a run cut short keeps its games).
fn play(options: &Options, save: Option<std::fs::File>) -> Vec<Played> {
    let next = AtomicUsize::new(0);
    let save = std::sync::Mutex::new(save);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..options.jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let number = next.fetch_add(1, Ordering::Relaxed);
                        if number >= options.games {
                            return mine;
                        }
                        let game = self_play(options, number);
                        eprintln!(
                            "game {number}: {} positions, {}",
                            game.samples.len(),
                            game.winner
                                .map_or("drawn".to_string(), |w| format!("won by player {w}"))
                        );
                        if let Ok(mut file) = save.lock()
                            && let Some(file) = file.as_mut()
                            && let Err(e) = writeln!(file, "{}", game.line)
                        {
                            eprintln!("tune: --save: {e}");
                        }
                        mine.push(game);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().unwrap_or_default())
            .collect()
    })
}

/// Reads the games of a `--save` file.
fn load(rules: &Rules, path: &str) -> Result<Vec<Played>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            read_played(rules, line).map_err(|e| format!("{path}: line {}: {e}", index + 1))
        })
        .collect()
}

/// The games to tune on: those of `--load`, or games played now (each written to
/// `--save` as it ends), in the order of their numbers.
fn games(options: &Options) -> Result<Vec<Played>, String> {
    let mut played = match &options.load {
        Some(path) => load(&options.rules, path)?,
        None => {
            let save = options
                .save
                .as_deref()
                .map(std::fs::File::create)
                .transpose()
                .map_err(|e| format!("{}: {e}", options.save.as_deref().unwrap_or("")))?;
            play(options, save)
        }
    };
    played.sort_by_key(|game| game.number);
    Ok(played)
}

/// Prints who won the games and how many positions there are, and splits the positions
/// into those fitted and those of the hold-out games.
fn split(options: &Options, played: Vec<Played>) -> (Vec<Sample>, Vec<Sample>) {
    let won_by = |player: Option<usize>| played.iter().filter(|g| g.winner == player).count();
    let source = match (&options.load, options.nodes_as) {
        (Some(path), _) => format!("from {path}"),
        (None, [None, None]) => format!("at {} nodes a move", options.nodes),
        (None, [n0, n1]) => format!(
            "at {} nodes a move (player 0 {}, player 1 {})",
            options.nodes,
            n0.unwrap_or(options.nodes),
            n1.unwrap_or(options.nodes)
        ),
    };
    println!(
        "{} games {source}: player 0 won {}, player 1 won {}, {} drawn",
        played.len(),
        won_by(Some(0)),
        won_by(Some(1)),
        won_by(None)
    );
    let is_holdout =
        |number: usize| options.holdout_every > 0 && number % options.holdout_every == 0;
    let (mut samples, mut holdout): (Vec<Sample>, Vec<Sample>) = (Vec::new(), Vec::new());
    for game in played {
        if is_holdout(game.number) {
            holdout.extend(game.samples);
        } else {
            samples.extend(game.samples);
        }
    }
    samples.shrink_to_fit();
    let describe = |set: &[Sample]| {
        format!(
            "{} positions ({} won by the side to move, {} drawn)",
            set.len(),
            set.iter().filter(|s| s.result == 1.0).count(),
            set.iter().filter(|s| s.result == 0.5).count()
        )
    };
    println!("training: {}", describe(&samples));
    println!("hold-out: {}", describe(&holdout));
    (samples, holdout)
}

/// The scale and the colour offset that fit the default weights best: the best offset
/// for each scale of a log grid, then of a finer one around the best.
fn fit_scale(samples: &[Sample], default_evaluations: &[f64]) -> Fit {
    let mut fit = Fit {
        k: 1.0,
        offset: 0.0,
    };
    let mut fit_error = f64::INFINITY;
    let mut try_scale = |k: f64, fit: &mut Fit| {
        let offset = fit_offset(samples, default_evaluations, k);
        let e = error(samples, default_evaluations, Fit { k, offset });
        if e < fit_error {
            fit_error = e;
            *fit = Fit { k, offset };
        }
    };
    for step in 0..=50 {
        try_scale(0.0005 * 1.2f64.powi(step), &mut fit);
    }
    let centre = fit.k;
    for step in -10..=10 {
        try_scale(centre * (1.0 + 0.02 * f64::from(step)), &mut fit);
    }
    fit
}

/// Where the walk of the weights stands: the weights, the fit and the training error.
struct Walk {
    weights: EvalWeights,
    fit: Fit,
    error: f64,
}

/// One round of steps of `1/divisor` of each weight's scale, repeated until no step
/// lowers the training error.
fn walk_pass(
    options: &Options,
    samples: &[Sample],
    ranges: &[(i32, i32)],
    divisor: i32,
    walk: &mut Walk,
) {
    let defaults = EvalWeights::default();
    let piece = defaults.piece;
    loop {
        let mut moved = false;
        for (key, &(low, high)) in options.keys.iter().zip(ranges) {
            let Some(&mut current) = weight_mut(&mut walk.weights, key) else {
                continue;
            };
            let default = weight_mut(&mut defaults.clone(), key).map_or(0, |w| *w);
            let scale = if default == 0 { piece } else { default };
            let step = (scale.abs() / divisor).max(1);
            for candidate in [current + step, current - step] {
                let candidate = candidate.clamp(low, high);
                if candidate == current {
                    continue;
                }
                let mut trial = walk.weights.clone();
                if let Some(weight) = weight_mut(&mut trial, key) {
                    *weight = candidate;
                }
                let e = error(samples, &evaluations(samples, &trial), walk.fit);
                if e < walk.error {
                    walk.error = e;
                    walk.weights = trial;
                    moved = true;
                    break;
                }
            }
        }
        // The colour offset walks with the weights, in steps of a piece's share.
        let now = evaluations(samples, &walk.weights);
        let step = f64::from((piece.abs() / divisor).max(1));
        for offset in [walk.fit.offset + step, walk.fit.offset - step] {
            let e = error(samples, &now, Fit { offset, ..walk.fit });
            if e < walk.error {
                walk.error = e;
                walk.fit.offset = offset;
                moved = true;
                break;
            }
        }
        if !moved {
            break;
        }
    }
}

fn tune(options: &Options) -> Result<(), String> {
    let (samples, holdout) = split(options, games(options)?);
    if samples.is_empty() {
        return Err("no positions to tune on".to_owned());
    }
    let defaults = EvalWeights::default();
    let default_evaluations = evaluations(&samples, &defaults);
    let fit = fit_scale(&samples, &default_evaluations);
    let start_error = error(&samples, &default_evaluations, fit);
    let start_holdout = error(&holdout, &evaluations(&holdout, &defaults), fit);
    println!(
        "scale k = {:.4}, colour offset {:.0} (player 1); default weights: training error \
{start_error:.6}, hold-out {start_holdout:.6}",
        fit.k, fit.offset
    );
    let ranges: Vec<(i32, i32)> = options
        .keys
        .iter()
        .map(|key| {
            let default = weight_mut(&mut defaults.clone(), key).map_or(0, |w| *w);
            weight_range(default, defaults.piece, options.bound)
        })
        .collect();
    let mut walk = Walk {
        weights: defaults,
        fit,
        error: start_error,
    };
    for pass in 0..options.passes {
        // Steps: a quarter of each weight's scale (its default, or the piece for a weight
        // that is off by default) at first, halving every pass (at least 1).
        let divisor = 4 << pass;
        walk_pass(options, &samples, &ranges, divisor, &mut walk);
        println!(
            "pass {} (steps of 1/{divisor}): training error {:.6}, hold-out {:.6}, \
colour offset {:.0}",
            pass + 1,
            walk.error,
            error(&holdout, &evaluations(&holdout, &walk.weights), walk.fit),
            walk.fit.offset
        );
    }
    let end_holdout = error(&holdout, &evaluations(&holdout, &walk.weights), walk.fit);
    println!(
        "training error {start_error:.6} -> {:.6} on {} positions; \
hold-out {start_holdout:.6} -> {end_holdout:.6} on {}",
        walk.error,
        samples.len(),
        holdout.len()
    );
    println!("tuned: {}", side_text(&walk.weights, &options.keys));
    Ok(())
}

fn main() -> ExitCode {
    match options(Arguments::parse()).and_then(|options| tune(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tune: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_stay_within_their_bound_with_their_sign() {
        assert_eq!(weight_range(40, 100, 4), (10, 160));
        assert_eq!(weight_range(3, 100, 4), (1, 12));
        assert_eq!(weight_range(-400, 100, 4), (-1600, -100));
        assert_eq!(weight_range(-3, 100, 4), (-12, -1));
        // A term that is off may be turned on, up to four pieces, never below 0.
        assert_eq!(weight_range(0, 100, 4), (0, 400));
    }

    fn samples(results: &[(f64, bool)]) -> Vec<Sample> {
        let position = Game::new(hnefatafl_matches::fetlar_rules())
            .position()
            .clone();
        results
            .iter()
            .map(|&(result, player1)| Sample {
                position: position.clone(),
                result,
                player1,
            })
            .collect()
    }

    #[test]
    fn the_colour_offset_takes_up_what_the_colour_predicts() {
        // Player 1 wins every game, and the evaluations say nothing.
        let won = samples(&[(1.0, true), (0.0, false), (1.0, true), (0.0, false)]);
        let flat = [0.0; 4];
        let offset = fit_offset(&won, &flat, 1.0);
        assert!(offset >= 1000.0, "{offset}");
        assert!(
            error(&won, &flat, Fit { k: 1.0, offset })
                < error(
                    &won,
                    &flat,
                    Fit {
                        k: 1.0,
                        offset: 0.0
                    }
                )
        );
        // Even results: no offset.
        let even = samples(&[(1.0, true), (1.0, false), (0.0, true), (0.0, false)]);
        assert_eq!(fit_offset(&even, &flat, 1.0), 0.0);
        // Player 0 wins: the offset goes the other way.
        let lost = samples(&[(0.0, true), (1.0, false)]);
        assert!(fit_offset(&lost, &flat[..2], 1.0) <= -1000.0);
    }

    #[test]
    fn an_error_is_the_mean_squared_distance_from_the_results() {
        // At eval 0 every prediction is ½: the error is ¼ whatever the results.
        let s = samples(&[(1.0, true), (0.0, false)]);
        let e = error(
            &s,
            &[0.0, 0.0],
            Fit {
                k: 1.0,
                offset: 0.0,
            },
        );
        assert!((e - 0.25).abs() < 1e-12, "{e}");
        // eval 400 at k = 1: 1 / (1 + 10^-1) = 10/11 for player 1's won position, and the
        // same offset of 400 taken off player 0's position at eval 0 predicts 1/11 for its
        // loss.
        let e = error(
            &s,
            &[0.0, 0.0],
            Fit {
                k: 1.0,
                offset: 400.0,
            },
        );
        let expected = (1.0f64 / 11.0).powi(2);
        assert!((e - expected).abs() < 1e-12, "{e} against {expected}");
    }
}
