//! The match runner: two engine configurations play each other, as `match` asks on its
//! command line ([`Arguments`]) or a program asks through [`run`] (`train --sprt`).
//!
//! Games come in pairs from the same opening, A playing each colour once: a random opening
//! of `--opening` plies, or the next opening of an `--openings` set (once the set is used
//! up, pair `k` plays opening `k mod len` and then two random plies from the pair's seed:
//! two engines at fixed nodes would otherwise play the same pair again). A game that
//! reaches the ply cap is a draw. It prints wins, draws and losses of A, the pairs by A's
//! points and the Elo difference of A over B with its 95% error margin.
//!
//! With an SPRT the match stops as soon as the sequential probability ratio test decides
//! (`--games` is then the most it plays) and says which hypothesis it accepted; with
//! `--jobs` over 1 the games under way then are played out and counted, and it says where
//! the test stood when it decided. With a clock, both sides play on a clock of that many
//! seconds plus an increment per move; a side whose clock runs out loses, and the runner
//! reports the games lost on time and the least time either side had left. With a
//! gauntlet, A plays a match against each side of the file in turn (one `name: side` a
//! line) and a table of the results ends the report. With `--resume`, the games an earlier
//! report of the same match finished are booked from it and only the others are played
//! (`matches/src/runner/resume.rs`).

pub mod resume;

use crate::contender::{self, Contender, parse_contender};
use crate::content_lines;
use crate::networks::load_network;
use crate::openings::{random_plies, read_openings};
use crate::sprt::{Pentanomial, Sprt, Verdict};
use crate::{GameResult, GameSettings, Played, elo_with_margin, parse_clock, random_opening};
use aim::Clock;
use clap::Parser;
use hnefatafl_core::{Game, Player, Rules};
use resume::{Finished, HEADER_A, HEADER_B, finished_games, game_line};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The random plies after a set's opening once the set is used up.
const FRESH_PLIES: usize = 2;

/// A side of a match as written (for the report) and as read.
#[derive(Clone, Debug)]
pub struct Written {
    /// The text it was given as.
    pub text: String,
    /// The contender it names.
    pub contender: Contender,
}

impl Written {
    /// Reads a side: see [`parse_contender`].
    ///
    /// # Errors
    ///
    /// What cannot be read.
    pub fn parse(text: &str) -> Result<Written, String> {
        Ok(Written {
            text: text.to_owned(),
            contender: parse_contender(text)?,
        })
    }
}

/// Plays two engine configurations against each other: games in pairs from the same
/// opening, A playing each colour once, and reports A's wins, draws and losses, the pairs
/// by A's points and the Elo difference of A over B with its 95% margin.
///
/// A side (`--a`, `--b`, each line of a gauntlet) is a list of words, separated by commas
/// or spaces, perhaps after `ours:`: limit words (`d2 t0.5 n100000 j2 3`) or `key=value`
/// settings (the table below). Or it is an external engine run as a command line (split
/// at spaces, no shell): `otep:<command line>`, `htp:<command line>`, or
/// `htp-host:<command line>` (hnefatafl-copenhagen's engine in its `--host` mode: it is
/// started with `--host <loopback address>` added and connects to the runner on port
/// 49152).
#[derive(Clone, Debug, Parser)]
#[command(name = "match", version, after_long_help = crate::settings_help())]
pub struct Arguments {
    /// The rule file the games are played by.
    #[arg(long, value_name = "FILE")]
    pub rules: PathBuf,
    /// The most games [default: 20, or 20000 with --sprt, which stops when it decides].
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Side A.
    #[arg(long = "a", value_name = "SIDE", default_value = "", value_parser = Written::parse)]
    pub a: Written,
    /// Side B (the opponent, unless a gauntlet gives the opponents).
    #[arg(long = "b", value_name = "SIDE", default_value = "", value_parser = Written::parse)]
    pub b: Written,
    /// A game that reaches this many plies is a draw.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub plies: usize,
    /// The random plies of each pair's opening (without --openings).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub opening: usize,
    /// An opening set: pair k plays opening k of it (then two random plies once the set is
    /// used up); --opening then plays no part.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The seed of the random openings and of the engines' random choices.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, each on its own thread.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// A plays this player (0 or 1) in every game, instead of each in turn.
    #[arg(long, value_name = "0|1", value_parser = clap::value_parser!(u8).range(0..=1))]
    pub a_plays: Option<u8>,
    /// Both sides play on a clock: seconds, or seconds+increment (60+1, 0.5+0.1); a side
    /// whose clock runs out loses.
    #[arg(long, value_name = "S[+I]", value_parser = parse_clock)]
    pub clock: Option<Clock>,
    /// Stop when the sequential probability ratio test decides whether A is elo1 better
    /// (H1) or no better than elo0 (H0): elo0,elo1 or elo0,elo1,alpha,beta, alpha and beta 0.05 by
    /// default.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", value_parser = Sprt::parse)]
    pub sprt: Option<Sprt>,
    /// A plays a match against each side of this file in turn (one `name: side` a line,
    /// `#` comments), and a table of the results ends the report.
    #[arg(long, value_name = "FILE")]
    pub gauntlet: Option<PathBuf>,
    /// Print every move with what the side said of it.
    #[arg(long)]
    pub verbose: bool,
    /// Go on from an earlier report of this match (its standard output, perhaps cut
    /// short; the same arguments but this one): the games it finished count, the test
    /// included, and only the others are played. Write the new report to another file: it
    /// holds the earlier games too.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

impl Arguments {
    /// A match of `a` against `b` on the rule file `rules`, every other setting as the
    /// command line's defaults.
    pub fn new(rules: PathBuf, a: Written, b: Written) -> Arguments {
        Arguments {
            rules,
            games: None,
            a,
            b,
            plies: 300,
            opening: 4,
            openings: None,
            seed: 1,
            jobs: 1,
            a_plays: None,
            clock: None,
            sprt: None,
            gauntlet: None,
            verbose: false,
            resume: None,
        }
    }
}

/// Where the games of a match start.
enum Openings {
    /// `plies` random moves from the start, from the pair's seed.
    Random(usize),
    /// The openings of a set, in turn.
    Set(Vec<Game>),
}

/// A match as it is played: the arguments read, their files too.
struct Options {
    rules: Rules,
    rules_path: String,
    games: usize,
    a: Contender,
    a_text: String,
    max_plies: usize,
    openings: Openings,
    openings_name: String,
    seed: u64,
    jobs: usize,
    verbose: bool,
    a_plays: Option<u8>,
    clock: Option<Clock>,
    sprt: Option<Sprt>,
    /// The opponents: a name (empty without a gauntlet), the side as written, and what it
    /// names.
    opponents: Vec<(String, String, Contender)>,
}

/// Reads a gauntlet file: `name: side` a line, `#` comments.
fn read_gauntlet(path: &str) -> Result<Vec<(String, String, Contender)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut sides = Vec::new();
    for (number, line) in content_lines(&text) {
        let (name, side) = line
            .split_once(':')
            .ok_or_else(|| format!("{path}:{number}: not `name: side`"))?;
        let contender = parse_contender(side).map_err(|e| format!("{path}:{number}: {e}"))?;
        sides.push((name.trim().to_string(), side.trim().to_string(), contender));
    }
    if sides.is_empty() {
        return Err(format!("{path}: no side in the gauntlet"));
    }
    Ok(sides)
}

/// Reads the files the arguments name.
fn options(arguments: &Arguments) -> Result<Options, String> {
    let rules_path = arguments.rules.display().to_string();
    let text = std::fs::read(&arguments.rules).map_err(|e| format!("{rules_path}: {e}"))?;
    let rules = Rules::parse(&text).map_err(|e| format!("{rules_path}: {e}"))?;
    let opponents = match &arguments.gauntlet {
        Some(path) => read_gauntlet(&path.display().to_string())?,
        None => vec![(
            String::new(),
            arguments.b.text.clone(),
            arguments.b.contender.clone(),
        )],
    };
    let (openings, openings_name) = match &arguments.openings {
        Some(path) => {
            let path = path.display().to_string();
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
            let set = read_openings(&rules, &text).map_err(|e| format!("{path}: {e}"))?;
            let name = format!("{} openings from {path}", set.len());
            (Openings::Set(set), name)
        }
        None => (
            Openings::Random(arguments.opening),
            format!("{} random opening plies", arguments.opening),
        ),
    };
    // A test runs until it decides; the cap only bounds it.
    let games = arguments
        .games
        .unwrap_or(if arguments.sprt.is_some() { 20_000 } else { 20 });
    Ok(Options {
        rules,
        rules_path,
        games,
        a: arguments.a.contender.clone(),
        a_text: arguments.a.text.clone(),
        max_plies: arguments.plies,
        openings,
        openings_name,
        seed: arguments.seed,
        jobs: arguments.jobs.max(1),
        verbose: arguments.verbose,
        a_plays: arguments.a_plays,
        clock: arguments.clock,
        sprt: arguments.sprt,
        opponents,
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

/// The player A plays in game `index` (from 0).
fn a_player(options: &Options, index: usize) -> Player {
    match options.a_plays {
        Some(1) => Player::One,
        Some(_) => Player::Zero,
        None if index % 2 == 0 => Player::Zero,
        None => Player::One,
    }
}

/// Plays one match of A against `b`, after booking (and printing again) the games an
/// earlier report of it finished.
fn play_match(options: &Options, b: &Contender, resumed: &[Finished]) -> Tally {
    let mut earlier = Tally {
        results: vec![None; options.games],
        ..Tally::default()
    };
    for game in resumed {
        book(&mut earlier, options, game.index, &game.played);
        println!(
            "{}",
            game_line(game.index, game.a_player, &game.played, earlier.counts)
        );
    }
    let finished: Vec<bool> = earlier.results.iter().map(Option::is_some).collect();
    let next = AtomicUsize::new(0);
    let decided = AtomicBool::new(earlier.verdict.is_some());
    let tally = Mutex::new(earlier);
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
                    if finished[index] {
                        continue;
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
                    let a_player = a_player(options, index);
                    let settings = GameSettings {
                        max_plies: options.max_plies,
                        clock: options.clock,
                        verbose: options.verbose,
                    };
                    let report = contender::play(&start, &options.a, b, a_player, &settings, seed);
                    if let Some((side, why)) = &report.failure {
                        eprintln!("game {}: {} failed: {why}", index + 1, ["A", "B"][*side]);
                    }
                    let played = report.played;
                    let mut tally = tally.lock().unwrap_or_else(|p| p.into_inner());
                    book(&mut tally, options, index, &played);
                    println!("{}", game_line(index, a_player, &played, tally.counts));
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
fn book(tally: &mut Tally, options: &Options, index: usize, played: &Played) {
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

/// The header of one match: the rules, both sides and how the games are played.
fn header(options: &Options, name: &str, text: &str) -> String {
    format!(
        "{}{HEADER_A}{}{HEADER_B}{}]{}, {} games{}, cap {} plies, {}, seed {}{}",
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
    )
}

/// The games the report at `path` finished, for each match of `headers` (a gauntlet's
/// later matches may have none yet, but the report must be of one of them).
fn resumed_games(
    path: &str,
    options: &Options,
    headers: &[String],
) -> Result<Vec<Vec<Finished>>, String> {
    let report = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut found = false;
    let mut games = Vec::new();
    for header in headers {
        let finished = finished_games(path, &report, header, options.games, |index| {
            a_player(options, index)
        })?;
        found |= finished.is_some();
        games.push(finished.unwrap_or_default());
    }
    if !found {
        return Err(format!(
            "{path}: not a report of this match: no line reads `{}`",
            headers[0]
        ));
    }
    Ok(games)
}

/// Plays the match (or the gauntlet) the arguments ask for, printing each game and the
/// results on standard output as `match` does.
///
/// # Errors
///
/// A file that cannot be read: the rules, the opening set, the gauntlet or the report to
/// resume (also one that is not a report of this match).
pub fn run(arguments: &Arguments) -> Result<(), String> {
    let mut options = options(arguments)?;
    let headers: Vec<String> = options
        .opponents
        .iter()
        .map(|(name, text, _)| header(&options, name, text))
        .collect();
    // Each opponent's games of the report to resume, read before anything is played.
    let resumed: Vec<Vec<Finished>> = match &arguments.resume {
        Some(path) => resumed_games(&path.display().to_string(), &options, &headers)?,
        None => vec![Vec::new(); headers.len()],
    };
    let mut a = options.a.clone();
    with_network(&mut a, &options, "A");
    options.a = a;
    let mut table = Vec::new();
    for (((name, _, b), header), resumed) in options.opponents.iter().zip(&headers).zip(&resumed) {
        let mut b = b.clone();
        with_network(&mut b, &options, "B");
        println!("{header}");
        let tally = play_match(&options, &b, resumed);
        report(&options, &tally);
        table.push((name.clone(), tally.counts));
    }
    if arguments.gauntlet.is_some() {
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
    Ok(())
}
