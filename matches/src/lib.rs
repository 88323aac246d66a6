//! hnefatafl-matches: engine matches. The match runner ([`runner`], the `match` program),
//! the SPRT ([`sprt`]), opening sets ([`openings`], the `openings` program), files of
//! recorded games ([`record`]), gauntlets,
//! the contenders of a match, this project's engine or an external one ([`contender`]),
//! the weight tuner (`tune`), and the proof search for forced wins with the puzzle sets
//! made from them ([`solve`], the `puzzles` program). The trainer (`hnefatafl-learn`) calls the runner as a
//! library to test a new network.
//!
//! This file holds what they share: a side's settings, engine-against-engine games, clocks
//! and the Elo arithmetic.

pub mod contender;
pub mod networks;
pub mod openings;
pub mod record;
pub mod runner;
pub mod solve;
pub mod sprt;

use aim::nnue::Network;
use aim::settings::{SETTINGS, WEIGHT_KEYS};
use aim::{Clock, Engine, EngineConfig, Evaluation, Limits, Tuning};
use hnefatafl_core::{Game, Move, Player, Rules};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The shipped 11x11 rules (`data/rules/hnefatafl`, Fetlar), the tuner's default.
pub fn fetlar_rules() -> Rules {
    let text = hnefatafl_data::rules("hnefatafl").expect("the 11x11 rules are shipped");
    Rules::parse(text.as_bytes()).expect("the shipped 11x11 rules are valid")
}

pub use hnefatafl_core::random::random_opening;

/// One side of a match: its limits and engine settings.
#[derive(Clone, Debug)]
pub struct Side {
    /// Limits of every move.
    pub limits: Limits,
    /// Engine settings.
    pub config: EngineConfig,
    /// Search and evaluation knobs.
    pub tuning: Tuning,
    /// A node limit for the moves it plays as player 0 or 1 instead of its limits' one
    /// (`nodes0`, `nodes1`): a handicap that makes a rule file whose one side wins every
    /// game at equal nodes even, so that a match can tell engines apart.
    pub nodes_as: [Option<u64>; 2],
    /// The network file of `network=<path>` (`eval=network` alone: the rule file's own,
    /// see [`networks::load_network`]).
    pub network_file: Option<String>,
    /// The network its engine is given ([`aim::Engine::set_network`]), once read.
    pub network: Option<Arc<Network>>,
}

impl Side {
    /// A fresh engine for this side, its weak levels' random choices seeded with `seed`.
    pub fn engine(&self, seed: u64) -> Engine {
        let mut engine = Engine::with_tuning(self.config.clone(), self.tuning.clone());
        engine.set_network(self.network.clone());
        engine.seed(seed);
        engine
    }
}

/// The settings of a side that are the match runner's own, not the engine's: the node
/// handicap and the network file.
pub const RUNNER_KEYS: [(&str, &str); 3] = [
    (
        "nodes0",
        "the node limit of the moves it plays as player 0 (a handicap)",
    ),
    (
        "nodes1",
        "the node limit of the moves it plays as player 1 (a handicap)",
    ),
    (
        "network",
        "a network file: the learned evaluation with it (eval=network alone: the rule file's own)",
    ),
];

/// The settings a side may give as `key=value`, for the usage text: the engine's, from
/// aim's table of settings, and the runner's own.
pub fn settings_help() -> String {
    let mut text = String::from(
        "Settings of a side (key=value; a side plays on one thread with a 16 MiB table unless it says otherwise):\n",
    );
    let defaults = side_defaults();
    for setting in &SETTINGS[..SETTINGS.len() - WEIGHT_KEYS.len()] {
        text += &format!(
            "  {}: {} ({}; default {})\n",
            setting.name,
            setting.doc,
            setting.kind.describe(),
            setting.value(&defaults)
        );
    }
    for (key, doc) in RUNNER_KEYS {
        text += &format!("  {key}: {doc}\n");
    }
    text += &format!(
        "Evaluation weights (key=value, hundredths of a piece): {}.",
        WEIGHT_KEYS.join(" ")
    );
    text
}

/// A side's settings before its words: aim's defaults on one thread with a table of 16
/// MiB, so that games played at once do not compete for cores or memory.
fn side_defaults() -> aim::Settings {
    aim::Settings {
        config: EngineConfig {
            threads: 1,
            hash_mib: 16,
        },
        ..aim::Settings::default()
    }
}

/// Reads a side: words separated by commas or spaces, each a limit word (`d2`, `t0.5`,
/// `n100000`, `j2`, `3`) or `key=value`: a setting of aim's table ([`aim::settings`]:
/// `level`, `depth`, `time`, `nodes`, `threads`, `eval`, `hash`, the knobs of the search
/// and the evaluation weights of [`WEIGHT_KEYS`]) or one of the runner's own
/// ([`RUNNER_KEYS`]: `nodes0` and `nodes1`, the node limit when it plays player 0 or 1,
/// and `network`, a network file). A side plays on one thread with a table of 16 MiB
/// unless it says otherwise.
///
/// # Errors
///
/// The word that could not be read.
pub fn parse_side(text: &str) -> Result<Side, String> {
    let mut settings = side_defaults();
    let (mut nodes_as, mut network_file) = ([None; 2], None);
    for word in text.split([',', ' ']).filter(|w| !w.is_empty()) {
        let Some((key, value)) = word.split_once('=') else {
            settings.limit_word(word).map_err(|e| e.to_string())?;
            continue;
        };
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("bad value in `{word}`"))
        };
        match key {
            "nodes0" => nodes_as[0] = Some(number()?.max(1)),
            "nodes1" => nodes_as[1] = Some(number()?.max(1)),
            "network" => {
                settings.limits.evaluation = Some(Evaluation::Network);
                network_file = Some(value.to_string());
            }
            _ => settings.set(key, value).map_err(|e| e.to_string())?,
        }
    }
    Ok(Side {
        limits: settings.limits,
        config: settings.config,
        tuning: settings.tuning,
        nodes_as,
        network_file,
        network: None,
    })
}

/// A player of match games: the engine of this project ([`Side`]), or any other that can
/// answer a position with a move (an external engine through a protocol).
pub trait Contestant {
    /// A short name for reports.
    fn name(&self) -> String;

    /// The move for the game's position, with `clock` its clock when the game is played on
    /// one. `None` when it has no move (it resigns, or it failed).
    fn choose(&mut self, game: &Game, clock: Option<Clock>) -> Choice;
}

/// What a contestant answered.
#[derive(Clone, Debug, Default)]
pub struct Choice {
    /// The move; `None` loses the game.
    pub mv: Option<Move>,
    /// What it said of the move, for the verbose listing (score, depth, nodes).
    pub note: String,
}

/// This project's engine with a side's limits and settings.
pub struct EngineContestant {
    side: Side,
    engine: Engine,
}

impl EngineContestant {
    /// A fresh engine for `side`, its weak levels' random choices seeded with `seed`.
    pub fn new(side: &Side, seed: u64) -> EngineContestant {
        EngineContestant {
            side: side.clone(),
            engine: side.engine(seed),
        }
    }
}

impl Contestant for EngineContestant {
    fn name(&self) -> String {
        self.side.limits.to_words().join(" ")
    }

    fn choose(&mut self, game: &Game, clock: Option<Clock>) -> Choice {
        let mut limits = self.side.limits.clone();
        if let Some(nodes) = self.side.nodes_as[game.position().side_to_move().index()] {
            limits.nodes = Some(nodes);
        }
        if clock.is_some() {
            limits.clock = clock;
        }
        let found = self.engine.search_within(game, &limits);
        Choice {
            mv: found.best,
            note: format!(
                "score {} depth {} nodes {}",
                found.score, found.depth, found.nodes
            ),
        }
    }
}

/// How a game ended, for the side called A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A won.
    Win,
    /// Neither (the ply cap).
    Draw,
    /// A lost.
    Loss,
}

impl GameResult {
    /// The same game seen from the other side.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// How one game is played, the same for both sides.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// A game longer than this many plies is a draw.
    pub max_plies: usize,
    /// Both sides' clock at the start, when the game is played on a clock: each move's
    /// limits then get the mover's clock, the time the search takes (measured around the
    /// whole call) is booked on it, and a side whose clock runs out loses.
    pub clock: Option<Clock>,
    /// Print each move with its score, depth, nodes and time.
    pub verbose: bool,
}

/// A finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The result for A.
    pub result: GameResult,
    /// Plies played.
    pub plies: usize,
    /// The game was lost on time (by the loser).
    pub on_time: bool,
    /// On a clock: the least main time each side (A, B) had left after a move.
    pub least_left: Option<[Duration; 2]>,
}

/// Plays one game from `start`: `a` plays `a_player`, `b` the other.
pub fn play_game(
    start: &Game,
    a: &mut dyn Contestant,
    b: &mut dyn Contestant,
    a_player: Player,
    settings: &GameSettings,
) -> Played {
    let mut game = start.clone();
    let players: [&mut dyn Contestant; 2] = [a, b];
    let mut clocks = settings.clock.map(|clock| [clock; 2]);
    let mut least_left = settings.clock.map(|clock| [clock.remaining; 2]);
    let mut plies = 0;
    let end = |result: GameResult, plies, on_time, least_left| Played {
        result,
        plies,
        on_time,
        least_left,
    };
    while plies < settings.max_plies {
        if let Some(outcome) = game.outcome() {
            let result = match outcome.winner {
                Some(winner) if winner == a_player => GameResult::Win,
                Some(_) => GameResult::Loss,
                None => GameResult::Draw,
            };
            return end(result, plies, false, least_left);
        }
        let index = usize::from(game.side_to_move() != a_player);
        // The result when the side to move loses.
        let mover_loses = if index == 0 {
            GameResult::Loss
        } else {
            GameResult::Win
        };
        let started = Instant::now();
        let choice = players[index].choose(&game, clocks.map(|clocks| clocks[index]));
        let used = started.elapsed();
        if settings.verbose {
            print_move(&game, index, &choice, used);
        }
        if let (Some(clocks), Some(least)) = (&mut clocks, &mut least_left) {
            if clocks[index].spend(used).is_err() {
                least[index] = Duration::ZERO;
                return end(mover_loses, plies, true, least_left);
            }
            let left = clocks[index]
                .remaining
                .saturating_sub(clocks[index].increment);
            least[index] = least[index].min(left);
        }
        // No move although the game is not over, or an illegal one: a loss for the mover.
        let Some(mv) = choice.mv else {
            return end(mover_loses, plies, false, least_left);
        };
        if game.try_play(mv).is_err() {
            return end(mover_loses, plies, false, least_left);
        }
        plies += 1;
    }
    let result = match game.outcome() {
        Some(outcome) if outcome.winner == Some(a_player) => GameResult::Win,
        Some(outcome) if outcome.winner.is_some() => GameResult::Loss,
        _ => GameResult::Draw,
    };
    end(result, plies, false, least_left)
}

/// Prints one move of a game with what the contestant said of it.
fn print_move(game: &Game, index: usize, choice: &Choice, used: Duration) {
    let Some(mv) = choice.mv else {
        return;
    };
    println!(
        "  ply {:3}: {} {} {} time {:.3} s",
        game.moves().len(),
        if index == 0 { 'A' } else { 'B' },
        game.rules()
            .format_move(mv, hnefatafl_core::Notation::Numeric),
        choice.note,
        used.as_secs_f64()
    );
}

/// Reads a clock: `<seconds>[+<increment seconds>]`, decimals allowed (`60+1`, `300`,
/// `0.5+0.1`).
///
/// # Errors
///
/// A text that is not of that form, or a main time of zero.
pub fn parse_clock(text: &str) -> Result<Clock, String> {
    let bad = || format!("bad clock `{text}` (seconds, or seconds+increment: 60+1)");
    let seconds = |part: &str| {
        part.parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Duration::from_secs_f64)
            .ok_or_else(bad)
    };
    let (main, increment) = text.split_once('+').unwrap_or((text, "0"));
    let clock = Clock::fischer(seconds(main)?, seconds(increment)?);
    if clock.remaining.is_zero() {
        return Err(bad());
    }
    Ok(clock)
}

/// The lines of a text file that say something, trimmed, each with its number (from 1):
/// blank lines and `#` comments left out. Opening sets, gauntlets, recorded games and
/// puzzle files are read this way.
pub(crate) fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// The Elo difference of a score fraction (0..1), if finite.
pub fn elo(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// The Elo difference of A over B and its 95% error margin, from wins, draws and losses.
/// A score of 0% or 100% has no finite Elo: `None`.
pub fn elo_with_margin(wins: u32, draws: u32, losses: u32) -> Option<(f64, f64)> {
    let games = f64::from(wins + draws + losses);
    if games == 0.0 {
        return None;
    }
    let score = (f64::from(wins) + 0.5 * f64::from(draws)) / games;
    let variance = (f64::from(wins) * (1.0 - score).powi(2)
        + f64::from(draws) * (0.5 - score).powi(2)
        + f64::from(losses) * score.powi(2))
        / games;
    let deviation = (variance / games).sqrt();
    let centre = elo(score)?;
    let low = elo((score - 1.96 * deviation).max(1e-6)).unwrap_or(f64::NEG_INFINITY);
    let high = elo((score + 1.96 * deviation).min(1.0 - 1e-6)).unwrap_or(f64::INFINITY);
    Some((centre, (high - low) / 2.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_uneven_scores() {
        assert_eq!(elo(0.5), Some(0.0));
        let (centre, margin) = elo_with_margin(30, 0, 10).expect("finite");
        assert!((centre - 190.8).abs() < 0.1, "{centre}");
        assert!(margin > 50.0 && margin < 200.0, "{margin}");
        assert_eq!(elo_with_margin(10, 0, 0), None);
    }

    #[test]
    fn a_node_handicap_sets_the_limit_of_one_players_moves() {
        let side = parse_side("n200,nodes0=20000").expect("a side");
        assert_eq!(side.nodes_as, [Some(20000), None]);
        let nodes = |game: &Game| {
            let choice = EngineContestant::new(&side, 1).choose(game, None);
            let nodes = choice.note.rsplit(' ').next().expect("a node count");
            nodes.parse::<u64>().expect("a number")
        };
        let mut game = Game::new(fetlar_rules());
        // Player 0 moves first: the handicap's limit, far more than the side's own.
        assert!(nodes(&game) > 2000, "{}", nodes(&game));
        let first = game.legal_moves().next().expect("a legal move");
        game.play(first);
        assert!(nodes(&game) < 2000, "{}", nodes(&game));
    }

    #[test]
    fn a_side_reads_the_evaluation_weights_of_aims_table() {
        let side = parse_side("d2,guard=7,threat=-3").expect("a side");
        assert_eq!(
            (
                side.tuning.weights.guard,
                side.tuning.weights.threat_percent
            ),
            (7, -3)
        );
    }

    #[test]
    fn clocks_are_read() {
        assert_eq!(
            parse_clock("60+1"),
            Ok(Clock::fischer(
                Duration::from_secs(60),
                Duration::from_secs(1)
            ))
        );
        assert_eq!(
            parse_clock("0.5"),
            Ok(Clock::fischer(Duration::from_millis(500), Duration::ZERO))
        );
        for bad in ["", "0", "x", "60+", "+1", "-1+1", "60+1+1", "inf"] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sides_are_read() {
        let side = parse_side("level=3,threads=2 d4").expect("valid");
        assert_eq!(side.limits.level, Some(3));
        assert_eq!(side.limits.depth, Some(4));
        assert_eq!(side.limits.threads, Some(2));
        assert!(parse_side("speed=3").is_err());
        // A switch is 0 or 1, and says so.
        let refused = parse_side("null=2").expect_err("not a switch");
        assert!(refused.contains("0 or 1"), "{refused}");
    }

    #[test]
    fn every_setting_key_is_read_and_changes_the_side() {
        let plain = parse_side("").expect("valid");
        let keys = SETTINGS
            .iter()
            .map(|setting| setting.name)
            .chain(RUNNER_KEYS.iter().map(|(key, _)| *key));
        for key in keys {
            let values: &[&str] = match key {
                "parallel" => &["lazy"],
                "eval" => &["network"],
                "network" => &["x.nnue"],
                _ => &["0", "1", "3"],
            };
            let changes = |value: &&str| {
                parse_side(&format!("{key}={value}")).is_ok_and(|side| {
                    side.limits != plain.limits
                        || side.config != plain.config
                        || side.tuning != plain.tuning
                        || side.nodes_as != plain.nodes_as
                        || side.network_file != plain.network_file
                })
            };
            assert!(values.iter().any(changes), "`{key}` is not read");
        }
    }
}
