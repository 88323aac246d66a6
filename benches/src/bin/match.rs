//! The engine match runner: plays two engine configurations against each other.
//!
//! ```text
//! match --rules data/rules/brandub --games 40 --a level=3 --b depth=2
//!       [--plies 300] [--opening 4] [--seed 1] [--jobs 1] [--clock 60+1]
//! ```
//!
//! With `--clock`, both sides play on a clock of that many seconds plus an increment per
//! move; a side whose clock runs out loses, and the runner reports the games lost on time
//! and the least time either side had left.
//!
//! Games come in pairs from the same random opening, A playing each colour once. A game
//! that reaches the ply cap is a draw. Prints wins, draws and losses of A and the Elo
//! difference of A over B with its 95% error margin.

use aim::Clock;
use hnefatafl_benches::{
    GameResult, GameSettings, Side, elo_with_margin, parse_clock, parse_side, random_opening,
};
use hnefatafl_core::{Player, Rules};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

struct Options {
    rules: Rules,
    rules_path: String,
    games: usize,
    a: Side,
    b: Side,
    a_text: String,
    b_text: String,
    max_plies: usize,
    opening: usize,
    seed: u64,
    jobs: usize,
    verbose: bool,
    a_plays: Option<usize>,
    clock: Option<Clock>,
}

const USAGE: &str = "usage: match --rules <file> [--games N] --a <side> --b <side> \
[--plies N] [--opening N] [--seed N] [--jobs N] [--a-plays 0|1] [--clock S[+I]] [--verbose]
a side is a list of words: limit words (d2 t0.5 n100000 3) or key=value (level depth time \
nodes threads hash reductions piece mobility open_move open_one open_two two_moves routes \
guard enclosure1 enclosure2 threat tempo), separated by commas";

fn parse_args() -> Result<Options, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rules_path = None;
    let (mut games, mut max_plies, mut opening, mut seed, mut jobs) =
        (20usize, 300usize, 4usize, 1u64, 1usize);
    let (mut a_text, mut b_text) = (String::new(), String::new());
    let mut verbose = false;
    let mut a_plays = None;
    let mut clock = None;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--verbose" {
            verbose = true;
            i += 1;
            continue;
        }
        let value = args
            .get(i + 1)
            .cloned()
            .ok_or_else(|| format!("`{}` needs a value", args[i]))?;
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("bad number `{value}` for {}", args[i]))
        };
        match args[i].as_str() {
            "--rules" => rules_path = Some(value.clone()),
            "--games" => games = number()? as usize,
            "--a" => a_text = value.clone(),
            "--b" => b_text = value.clone(),
            "--plies" => max_plies = number()? as usize,
            "--opening" => opening = number()? as usize,
            "--seed" => seed = number()?,
            "--a-plays" => a_plays = Some((number()? as usize).min(1)),
            "--jobs" => jobs = (number()? as usize).max(1),
            "--clock" => clock = Some(parse_clock(&value)?),
            other => return Err(format!("unknown argument `{other}`")),
        }
        i += 2;
    }
    let rules_path = rules_path.ok_or("--rules is required")?;
    let text = std::fs::read(&rules_path).map_err(|e| format!("{rules_path}: {e}"))?;
    let rules = Rules::parse(&text).map_err(|e| format!("{rules_path}: {e:?}"))?;
    let a = parse_side(&a_text).map_err(|e| format!("--a: {e}"))?;
    let b = parse_side(&b_text).map_err(|e| format!("--b: {e}"))?;
    Ok(Options {
        rules,
        rules_path,
        games,
        a,
        b,
        a_text,
        b_text,
        max_plies,
        opening,
        seed,
        jobs,
        verbose,
        a_plays,
        clock,
    })
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("match: {message}\n{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{}: A = [{}] against B = [{}], {} games, cap {} plies, {} random opening plies, seed {}",
        options.rules_path,
        options.a_text,
        options.b_text,
        options.games,
        options.max_plies,
        options.opening,
        options.seed
    );
    let next = AtomicUsize::new(0);
    let tally = Mutex::new([0u32; 3]);
    let plies_total = AtomicUsize::new(0);
    let time_losses = AtomicUsize::new(0);
    let least_left = Mutex::new([Duration::MAX; 2]);
    std::thread::scope(|scope| {
        for _ in 0..options.jobs {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= options.games {
                        break;
                    }
                    // Both games of a pair start from the same opening.
                    let pair = (index / 2) as u64;
                    let seed = options.seed.wrapping_mul(1_000_003).wrapping_add(pair);
                    let start = random_opening(&options.rules, options.opening, seed);
                    let a_player = match options.a_plays {
                        Some(1) => Player::One,
                        Some(_) => Player::Zero,
                        None if index % 2 == 0 => Player::Zero,
                        None => Player::One,
                    };
                    let settings = GameSettings {
                        max_plies: options.max_plies,
                        clock: options.clock,
                        seed,
                        verbose: options.verbose,
                    };
                    let played = hnefatafl_benches::play_game(
                        &start, &options.a, &options.b, a_player, &settings,
                    );
                    let (result, plies) = (played.result, played.plies);
                    if played.on_time {
                        time_losses.fetch_add(1, Ordering::Relaxed);
                    }
                    if let Some(left) = played.least_left {
                        let mut least = least_left.lock().unwrap_or_else(|p| p.into_inner());
                        for (least, left) in least.iter_mut().zip(left) {
                            *least = (*least).min(left);
                        }
                    }
                    plies_total.fetch_add(plies, Ordering::Relaxed);
                    let slot = match result {
                        GameResult::Win => 0,
                        GameResult::Draw => 1,
                        GameResult::Loss => 2,
                    };
                    let mut counts = tally
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                    counts[slot] += 1;
                    println!(
                        "game {:3}: A plays {} -> {:?} in {plies} plies (A {}-{}-{})",
                        index + 1,
                        a_player.index(),
                        result,
                        counts[0],
                        counts[1],
                        counts[2]
                    );
                }
            });
        }
    });
    let [wins, draws, losses] = *tally
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let played = (wins + draws + losses).max(1);
    println!(
        "A: {wins} wins, {draws} draws, {losses} losses ({:.1}%), mean {} plies a game",
        100.0 * (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(played),
        plies_total.load(Ordering::Relaxed) / played as usize
    );
    if options.clock.is_some() {
        let least = *least_left.lock().unwrap_or_else(|p| p.into_inner());
        println!(
            "clock: {} games lost on time; least main time left after a move: A {:.3} s, B {:.3} s",
            time_losses.load(Ordering::Relaxed),
            least[0].as_secs_f64(),
            least[1].as_secs_f64()
        );
    }
    match elo_with_margin(wins, draws, losses) {
        Some((elo, margin)) => println!("Elo A - B: {elo:+.0} +/- {margin:.0} (95%)"),
        None if wins > losses => println!("Elo A - B: beyond +800 (A scored 100%)"),
        None => println!("Elo A - B: beyond -800 (A scored 0%)"),
    }
    ExitCode::SUCCESS
}
