//! The engine match runner: plays two engine configurations against each other.
//!
//! ```text
//! match --rules data/rules/brandub --games 40 --a level=3 --b depth=2
//!       [--plies 300] [--opening 4 | --openings benches/openings/brandub.txt]
//!       [--seed 1] [--jobs 1] [--a-plays 0|1] [--clock 60+1] [--sprt 0,10]
//!       [--gauntlet benches/gauntlet.txt] [--verbose]
//! ```
//!
//! A side may be an external engine that speaks a protocol, run as a command line:
//! `--b 'htp:/path/to/engine args'`, `--b 'otep:hnefatafl --engine otep'`, or
//! `--b 'htp-host:hnefatafl-text-protocol --depth 2'` for hnefatafl-copenhagen's engine in
//! its `--host` mode, where its options act (see `protocol_engine`); `ours:` may stand
//! before a side of this project's engine.
//!
//! Games come in pairs from the same opening, A playing each colour once: a random opening
//! of `--opening` plies, or the next opening of an `--openings` set (once the set is used
//! up, pair `k` plays opening `k mod len` and then two random plies from the pair's seed:
//! two engines at fixed nodes would otherwise play the same pair again). A game that reaches the
//! ply cap is a draw. Prints wins, draws and losses of A, the pairs by A's points and the
//! Elo difference of A over B with its 95% error margin.
//!
//! With `--sprt elo0,elo1[,alpha,beta]` the match stops as soon as the sequential
//! probability ratio test decides (`--games` is then the most it plays) and says which
//! hypothesis it accepted; with `--jobs` over 1 the games under way then are played out and
//! counted, and it says where the test stood when it decided. With `--clock`, both sides
//! play on a clock of that many seconds plus an increment per move; a side whose clock runs
//! out loses, and the runner reports the games lost on time and the least time either side
//! had left. With `--gauntlet`, A plays a match against each side of the file in turn (one
//! `name: side` a line) and a table of the results ends the report.

use aim::Clock;
use hnefatafl_benches::networks::load_network;
use hnefatafl_benches::openings::{random_plies, read_openings};
use hnefatafl_benches::protocol_engine::{self, Contender, parse_contender};
use hnefatafl_benches::sprt::{Pentanomial, Sprt, Verdict};
use hnefatafl_benches::{GameResult, GameSettings, elo_with_margin, parse_clock, random_opening};
use hnefatafl_core::{Game, Player, Rules};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The random plies after a set's opening once the set is used up.
const FRESH_PLIES: usize = 2;

/// Where the games of a match start.
enum Openings {
    /// `plies` random moves from the start, from the pair's seed.
    Random(usize),
    /// The openings of a set, in turn.
    Set(Vec<Game>),
}

struct Options {
    rules: Rules,
    rules_path: String,
    games: usize,
    a: Contender,
    b: Contender,
    a_text: String,
    b_text: String,
    max_plies: usize,
    openings: Openings,
    openings_name: String,
    seed: u64,
    jobs: usize,
    verbose: bool,
    a_plays: Option<usize>,
    clock: Option<Clock>,
    sprt: Option<Sprt>,
    gauntlet: Vec<(String, String)>,
}

/// The usage text, with the evaluation weights' keys from their one list.
fn usage() -> String {
    format!(
        "usage: match --rules <file> [--games N] --a <side> --b <side> \
[--plies N] [--opening N | --openings <file>] [--seed N] [--jobs N] [--a-plays 0|1] \
[--clock S[+I]] [--sprt elo0,elo1[,alpha,beta]] [--gauntlet <file>] [--verbose]
a side is a list of words: limit words (d2 t0.5 n100000 j2 3) or key=value ({}, or an \
evaluation weight: {}), separated by commas, perhaps after `ours:`; or an external engine: \
`otep:<command line>`, `htp:<command line>`, or `htp-host:<command line>` (the engine is \
started with `--host <loopback address>` added and connects to the runner on port {})",
        hnefatafl_benches::SETTING_KEYS.join(" "),
        hnefatafl_benches::WEIGHT_KEYS.join(" "),
        protocol_engine::HOST_PORT
    )
}

/// Reads a gauntlet file: `name: side` a line, `#` comments.
fn read_gauntlet(path: &str) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut sides = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, side) = line
            .split_once(':')
            .ok_or_else(|| format!("{path}:{}: not `name: side`", number + 1))?;
        parse_contender(side).map_err(|e| format!("{path}:{}: {e}", number + 1))?;
        sides.push((name.trim().to_string(), side.trim().to_string()));
    }
    if sides.is_empty() {
        return Err(format!("{path}: no side in the gauntlet"));
    }
    Ok(sides)
}

fn parse_args() -> Result<Options, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rules_path = None;
    let (mut games, mut max_plies, mut opening, mut seed, mut jobs) =
        (None, 300usize, 4usize, 1u64, 1usize);
    let (mut a_text, mut b_text) = (String::new(), String::new());
    let mut verbose = false;
    let (mut a_plays, mut clock, mut sprt, mut openings_path, mut gauntlet_path) =
        (None, None, None, None, None);
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
            "--games" => games = Some(number()? as usize),
            "--a" => a_text = value.clone(),
            "--b" => b_text = value.clone(),
            "--plies" => max_plies = number()? as usize,
            "--opening" => opening = number()? as usize,
            "--openings" => openings_path = Some(value.clone()),
            "--seed" => seed = number()?,
            "--a-plays" => a_plays = Some((number()? as usize).min(1)),
            "--jobs" => jobs = (number()? as usize).max(1),
            "--clock" => clock = Some(parse_clock(&value)?),
            "--sprt" => sprt = Some(Sprt::parse(&value)?),
            "--gauntlet" => gauntlet_path = Some(value.clone()),
            other => return Err(format!("unknown argument `{other}`")),
        }
        i += 2;
    }
    let rules_path = rules_path.ok_or("--rules is required")?;
    let text = std::fs::read(&rules_path).map_err(|e| format!("{rules_path}: {e}"))?;
    let rules = Rules::parse(&text).map_err(|e| format!("{rules_path}: {e}"))?;
    let a = parse_contender(&a_text).map_err(|e| format!("--a: {e}"))?;
    let gauntlet = match &gauntlet_path {
        Some(path) => read_gauntlet(path)?,
        None => Vec::new(),
    };
    let b = parse_contender(&b_text).map_err(|e| format!("--b: {e}"))?;
    let (openings, openings_name) = match &openings_path {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let set = read_openings(&rules, &text).map_err(|e| format!("{path}: {e}"))?;
            let name = format!("{} openings from {path}", set.len());
            (Openings::Set(set), name)
        }
        None => (
            Openings::Random(opening),
            format!("{opening} random opening plies"),
        ),
    };
    // A test runs until it decides; the cap only bounds it.
    let games = games.unwrap_or(if sprt.is_some() { 20_000 } else { 20 });
    Ok(Options {
        rules,
        rules_path,
        games,
        a,
        b,
        a_text,
        b_text,
        max_plies,
        openings,
        openings_name,
        seed,
        jobs,
        verbose,
        a_plays,
        clock,
        sprt,
        gauntlet,
    })
}

/// What a match gives: A's wins, draws and losses and the complete pairs.
#[derive(Default)]
struct Tally {
    counts: [u32; 3],
    pairs: Pentanomial,
    plies: usize,
    time_losses: usize,
    least_left: Option<[Duration; 2]>,
    verdict: Option<Verdict>,
    /// The pairs when the verdict came: games in flight then end after it and are booked.
    decided_with: Option<Pentanomial>,
    /// Each game's result by index, to put the pairs together.
    results: Vec<Option<GameResult>>,
}

/// A's points of a game in half points.
fn half_points(result: GameResult) -> usize {
    match result {
        GameResult::Win => 2,
        GameResult::Draw => 1,
        GameResult::Loss => 0,
    }
}

/// Plays one match of A against `b`.
fn play_match(options: &Options, b: &Contender) -> Tally {
    let next = AtomicUsize::new(0);
    let decided = AtomicBool::new(false);
    let tally = Mutex::new(Tally {
        results: vec![None; options.games],
        ..Tally::default()
    });
    std::thread::scope(|scope| {
        for _ in 0..options.jobs {
            scope.spawn(|| {
                loop {
                    if decided.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= options.games {
                        break;
                    }
                    // Both games of a pair start from the same opening.
                    let pair = index / 2;
                    let seed = options
                        .seed
                        .wrapping_mul(1_000_003)
                        .wrapping_add(pair as u64);
                    let start = match &options.openings {
                        Openings::Random(plies) => random_opening(&options.rules, *plies, seed),
                        Openings::Set(set) => {
                            let mut game = set[pair % set.len()].clone();
                            // Past the set's end, fresh games: at fixed nodes the same
                            // opening would give the same pair again.
                            if pair >= set.len() {
                                random_plies(&mut game, FRESH_PLIES, seed);
                            }
                            game
                        }
                    };
                    let a_player = match options.a_plays {
                        Some(1) => Player::One,
                        Some(_) => Player::Zero,
                        None if index % 2 == 0 => Player::Zero,
                        None => Player::One,
                    };
                    let settings = GameSettings {
                        max_plies: options.max_plies,
                        clock: options.clock,
                        verbose: options.verbose,
                    };
                    let report =
                        protocol_engine::play(&start, &options.a, b, a_player, &settings, seed);
                    if let Some((side, why)) = &report.failure {
                        eprintln!("game {}: {} failed: {why}", index + 1, ["A", "B"][*side]);
                    }
                    let played = report.played;
                    let mut tally = tally.lock().unwrap_or_else(|p| p.into_inner());
                    book(&mut tally, options, index, &played);
                    println!(
                        "game {:3}: A plays {} -> {:?} in {} plies{} (A {}-{}-{})",
                        index + 1,
                        a_player.index(),
                        played.result,
                        played.plies,
                        if played.on_time { " on time" } else { "" },
                        tally.counts[0],
                        tally.counts[1],
                        tally.counts[2]
                    );
                    if tally.verdict.is_some() {
                        decided.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    tally.into_inner().unwrap_or_else(|p| p.into_inner())
}

/// Books a finished game, its pair when the pair is complete, and the test's verdict.
fn book(tally: &mut Tally, options: &Options, index: usize, played: &hnefatafl_benches::Played) {
    let slot = 2 - half_points(played.result);
    tally.counts[slot] += 1;
    tally.plies += played.plies;
    tally.time_losses += usize::from(played.on_time);
    if let Some(left) = played.least_left {
        let least = tally.least_left.get_or_insert([Duration::MAX; 2]);
        for (least, left) in least.iter_mut().zip(left) {
            *least = (*least).min(left);
        }
    }
    tally.results[index] = Some(played.result);
    let pair = index / 2 * 2;
    if let (Some(first), Some(Some(second))) =
        (tally.results[pair], tally.results.get(pair + 1).copied())
    {
        tally.pairs.add(half_points(first) + half_points(second));
        if let Some(sprt) = &options.sprt {
            let verdict = sprt.verdict(&tally.pairs);
            if verdict != Verdict::Continue && tally.verdict.is_none() {
                tally.verdict = Some(verdict);
                tally.decided_with = Some(tally.pairs);
            }
        }
    }
}

/// Prints a match's results; answers A's Elo and margin when finite.
fn report(options: &Options, tally: &Tally) {
    let [wins, draws, losses] = tally.counts;
    let played = (wins + draws + losses).max(1);
    println!(
        "A: {wins} wins, {draws} draws, {losses} losses ({:.1}%), mean {} plies a game",
        100.0 * (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(played),
        tally.plies / played as usize
    );
    println!(
        "pairs by A's points (0, 1/2, 1, 1 1/2, 2): {:?}",
        tally.pairs.0
    );
    if let Some(least) = tally.least_left {
        println!(
            "clock: {} games lost on time; least main time left after a move: A {:.3} s, B {:.3} s",
            tally.time_losses,
            least[0].as_secs_f64(),
            least[1].as_secs_f64()
        );
    }
    match elo_with_margin(wins, draws, losses) {
        Some((elo, margin)) => println!("Elo A - B: {elo:+.0} +/- {margin:.0} (95%)"),
        None if wins > losses => println!("Elo A - B: beyond +800 (A scored 100%)"),
        None => println!("Elo A - B: beyond -800 (A scored 0%)"),
    }
    if let Some(sprt) = &options.sprt {
        let (lower, upper) = sprt.bounds();
        let verdict = match tally.verdict {
            Some(Verdict::H1) => "H1 accepted: A is stronger",
            Some(Verdict::H0) => "H0 accepted: A is not stronger",
            _ => "undecided (the game cap came first)",
        };
        println!(
            "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.2} ({:.2}, {:.2}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(&tally.pairs),
            lower,
            upper
        );
        // With several jobs, the games under way when the test decided are played out and
        // counted above; say where it stood when it decided.
        if let Some(then) = tally.decided_with.filter(|then| *then != tally.pairs) {
            println!(
                "  decided after {} pairs at LLR {:.2}; {} more pairs, under way then, ended after it",
                then.pairs(),
                sprt.llr(&then),
                tally.pairs.pairs() - then.pairs()
            );
        }
    }
}

/// Gives an engine side that asks for the learned evaluation its network (the classic
/// evaluation where it has none that fits), and says what the side evaluates with.
fn with_network(contender: &mut Contender, options: &Options, label: &str) {
    if let Contender::Ours(side) = contender {
        let rules_path = std::path::Path::new(&options.rules_path);
        let said = load_network(side, &options.rules, rules_path);
        println!("{label} evaluates with {said}");
    }
}

fn main() -> ExitCode {
    if hnefatafl_benches::asks_for_help() {
        println!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let mut options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("match: {message}\n{}", usage());
            return ExitCode::FAILURE;
        }
    };
    let opponents: Vec<(String, String, Contender)> = if options.gauntlet.is_empty() {
        vec![(String::new(), options.b_text.clone(), options.b.clone())]
    } else {
        options
            .gauntlet
            .iter()
            .map(|(name, text)| {
                let side = parse_contender(text).expect("checked when the file was read");
                (name.clone(), text.clone(), side)
            })
            .collect()
    };
    let mut a = options.a.clone();
    with_network(&mut a, &options, "A");
    options.a = a;
    let mut table = Vec::new();
    for (name, text, b) in &opponents {
        let mut b = b.clone();
        with_network(&mut b, &options, "B");
        println!(
            "{}: A = [{}] against B = [{}]{}, {} games{}, cap {} plies, {}, seed {}{}",
            options.rules_path,
            options.a_text,
            text,
            if name.is_empty() {
                String::new()
            } else {
                format!(" ({name})")
            },
            options.games,
            if options.sprt.is_some() {
                " at most"
            } else {
                ""
            },
            options.max_plies,
            options.openings_name,
            options.seed,
            match &options.clock {
                Some(clock) => format!(
                    ", clock {:.1} s + {:.1} s",
                    clock.remaining.as_secs_f64(),
                    clock.increment.as_secs_f64()
                ),
                None => String::new(),
            }
        );
        let tally = play_match(&options, &b);
        report(&options, &tally);
        table.push((name.clone(), tally.counts));
    }
    if !options.gauntlet.is_empty() {
        println!("gauntlet of A = [{}]:", options.a_text);
        for (name, [wins, draws, losses]) in table {
            let elo = match elo_with_margin(wins, draws, losses) {
                Some((elo, margin)) => format!("{elo:+.0} +/- {margin:.0}"),
                None if wins > losses => "beyond +800".to_string(),
                None => "beyond -800".to_string(),
            };
            println!("  against {name}: {wins}-{draws}-{losses}, Elo {elo}");
        }
    }
    ExitCode::SUCCESS
}
