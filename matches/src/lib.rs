//! hnefatafl-matches: engine matches. The match runner ([`runner`], the `match` program),
//! the SPRT ([`sprt`]), opening sets ([`openings`], the `openings` program), gauntlets,
//! the contenders of a match, this project's engine or an external one ([`contender`]),
//! and the weight tuner (`tune`). The trainer (`hnefatafl-learn`) calls the runner as a
//! library to test a new network.
//!
//! This file holds what they share: a side's settings, engine-against-engine games, clocks
//! and the Elo arithmetic.

pub mod contender;
pub mod networks;
pub mod openings;
pub mod runner;
pub mod sprt;

use aim::{
    Clock, Engine, EngineConfig, EvalWeights, Evaluation, Limits, Parallel, Quiescence, Tuning,
};
use hnefatafl_core::{Game, Move, Player, Rules};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
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
}

/// The keys of a side's `key=value` settings other than the evaluation weights, in the
/// order the usage lists them; [`parse_side`] reads each.
pub const SETTING_KEYS: [&str; 20] = [
    "level",
    "depth",
    "time",
    "nodes",
    "nodes0",
    "nodes1",
    "threads",
    "hash",
    "reductions",
    "extension",
    "null",
    "stability",
    "quiescence",
    "lmr",
    "unfinished",
    "draw",
    "repetition",
    "parallel",
    "eval",
    "network",
];

/// The settings a side may give as `key=value`, for the usage text: each key of
/// [`SETTING_KEYS`] and the evaluation weights of [`WEIGHT_KEYS`].
pub fn settings_help() -> String {
    format!(
        "Settings of a side (key=value): {}.\nEvaluation weights (key=value): {}.",
        SETTING_KEYS.join(" "),
        WEIGHT_KEYS.join(" ")
    )
}

/// Reads a side: words separated by commas or spaces, each a limit word (`d2`, `t0.5`,
/// `n100000`, `j2`, `3`) or `key=value`: `level`, `depth`, `time` (seconds), `nodes`,
/// `nodes0` and `nodes1` (the node limit when it plays player 0 or 1: a handicap),
/// `threads`, `hash` (MiB), `reductions` (0/1), `extension` (0/1), `null` (0/1, null-move
/// pruning), `stability` (0/1, time management by the best move's stability),
/// `quiescence` (0/1, the capture quiescence search at the horizon on every board or on
/// none; without the key, the engine's default by board size), `lmr` (0/1,
/// late-move reductions in place of the static ones), `unfinished` (0/1, use what an
/// unfinished depth found and, with a fixed time a move, search until the time is up),
/// `draw` (what a draw costs the king's side, in hundredths of a piece), `repetition`
/// (0/1, repetitions inside the tree short of the rules' count score as its end), `parallel`
/// (`split` or `lazy`), `eval` (`classic` or `network`: the learned evaluation, the rule
/// file's network), `network` (a network file: the learned evaluation with it), and the
/// evaluation weights of [`WEIGHT_KEYS`].
///
/// # Errors
///
/// The word that could not be read.
pub fn parse_side(text: &str) -> Result<Side, String> {
    let mut side = Side {
        limits: Limits::default(),
        config: EngineConfig {
            threads: 1,
            hash_mib: 16,
        },
        tuning: Tuning::default(),
        nodes_as: [None; 2],
        network_file: None,
    };
    let mut limit_words = Vec::new();
    for word in text.split([',', ' ']).filter(|w| !w.is_empty()) {
        let Some((key, value)) = word.split_once('=') else {
            limit_words.push(word.to_string());
            continue;
        };
        let number = || {
            value
                .parse::<i64>()
                .map_err(|_| format!("bad value in `{word}`"))
        };
        let weights: &mut EvalWeights = &mut side.tuning.weights;
        match key {
            "level" => limit_words.push(value.to_string()),
            "depth" => limit_words.push(format!("d{value}")),
            "time" => limit_words.push(format!("t{value}")),
            "nodes" => limit_words.push(format!("n{value}")),
            "nodes0" => side.nodes_as[0] = Some(number()?.max(1) as u64),
            "nodes1" => side.nodes_as[1] = Some(number()?.max(1) as u64),
            "threads" => side.config.threads = number()? as usize,
            "hash" => side.config.hash_mib = number()? as usize,
            "reductions" => side.tuning.reductions = number()? != 0,
            "extension" => side.tuning.escape_extension = number()? != 0,
            "null" => side.tuning.null_move = number()? != 0,
            "stability" => side.tuning.stability = number()? != 0,
            "quiescence" => {
                side.tuning.quiescence = if number()? != 0 {
                    Quiescence::On
                } else {
                    Quiescence::Off
                }
            }
            "lmr" => side.tuning.late_move_reductions = number()? != 0,
            "unfinished" => side.tuning.unfinished_depths = number()? != 0,
            "draw" => side.tuning.king_side_draw = number()? as i32,
            "repetition" => side.tuning.tree_repetition = number()? != 0,
            "parallel" => {
                side.tuning.parallel = match value {
                    "split" => Parallel::RootSplit,
                    "lazy" => Parallel::LazySmp,
                    _ => return Err(format!("bad value in `{word}` (split or lazy)")),
                }
            }
            Evaluation::KEY => {
                side.tuning.evaluation = Evaluation::from_word(value)
                    .ok_or_else(|| format!("bad value in `{word}` (classic or network)"))?;
            }
            "network" => {
                side.tuning.evaluation = Evaluation::Network;
                side.network_file = Some(value.to_string());
            }
            _ if weight_mut(weights, key).is_some() => {
                let value =
                    i32::try_from(number()?).map_err(|_| format!("bad value in `{word}`"))?;
                if let Some(weight) = weight_mut(weights, key) {
                    *weight = value;
                }
            }
            _ => return Err(format!("unknown setting `{word}`")),
        }
    }
    let words: Vec<&str> = limit_words.iter().map(String::as_str).collect();
    side.limits = Limits::from_words(&words).map_err(|e| e.to_string())?;
    Ok(side)
}

/// Where a weight lives in [`EvalWeights`].
type WeightField = fn(&mut EvalWeights) -> &mut i32;

/// Each evaluation weight's key in a side (`mobility=5`) and its field: the one list that
/// the match runner reads and the tuner writes. The piece comes first: it sets the scale.
const WEIGHTS: [(&str, WeightField); 20] = [
    ("piece", |w| &mut w.piece),
    ("mobility", |w| &mut w.mobility),
    ("escape1", |w| &mut w.escape_distance[1]),
    ("escape2", |w| &mut w.escape_distance[2]),
    ("escape3", |w| &mut w.escape_distance[3]),
    ("open_move", |w| &mut w.open_line_to_move),
    ("open_one", |w| &mut w.open_line_one),
    ("open_two", |w| &mut w.open_line_two),
    ("two_moves", |w| &mut w.two_moves_to_escape),
    ("routes", |w| &mut w.escape_route),
    ("guard", |w| &mut w.guard),
    ("enclosure1", |w| &mut w.enclosure[0]),
    ("enclosure2", |w| &mut w.enclosure[1]),
    ("enclosure3", |w| &mut w.enclosure[2]),
    ("threat", |w| &mut w.threat_percent),
    ("tempo", |w| &mut w.tempo),
    ("fork_move", |w| &mut w.fork_to_move),
    ("fork_one", |w| &mut w.fork_one),
    ("fork_two", |w| &mut w.fork_two),
    ("three_moves", |w| &mut w.three_moves_to_escape),
];

/// The keys of the evaluation weights in a side (`mobility=5`), the piece first.
pub const WEIGHT_KEYS: [&str; 20] = {
    let mut keys = [""; 20];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = WEIGHTS[i].0;
        i += 1;
    }
    keys
};

/// The weight a key of [`WEIGHT_KEYS`] names, or `None` for any other text.
pub fn weight_mut<'a>(weights: &'a mut EvalWeights, key: &str) -> Option<&'a mut i32> {
    WEIGHTS
        .iter()
        .find(|(name, _)| *name == key)
        .map(|(_, field)| field(weights))
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
        let mut engine = Engine::with_tuning(side.config.clone(), side.tuning.clone());
        engine.seed(seed);
        EngineContestant {
            side: side.clone(),
            engine,
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
        let found =
            self.engine
                .search(game, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
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
    fn each_weight_key_names_its_own_field() {
        let mut weights = EvalWeights::default();
        for (value, key) in (1000..).zip(WEIGHT_KEYS) {
            *weight_mut(&mut weights, key).expect(key) = value;
        }
        // Every field was written once: two keys naming one field would leave one value out.
        let read: Vec<i32> = WEIGHT_KEYS
            .iter()
            .map(|key| *weight_mut(&mut weights, key).expect(key))
            .collect();
        assert_eq!(read, (1000..1020).collect::<Vec<_>>());
        assert_eq!(weights.piece, 1000);
        assert_eq!(weights.tempo, 1015);
        assert_eq!(weights.escape_distance, [0, 1002, 1003, 1004]);
        assert_eq!(weights.enclosure, [1011, 1012, 1013]);
        assert_eq!(weights.three_moves_to_escape, 1019);
        assert!(weight_mut(&mut weights, "escape0").is_none());
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
        assert_eq!(side.config.threads, 2);
        assert!(parse_side("speed=3").is_err());
    }

    #[test]
    fn every_setting_key_is_read_and_changes_the_side() {
        let plain = parse_side("").expect("valid");
        for key in SETTING_KEYS {
            let values: &[&str] = match key {
                "parallel" => &["lazy"],
                "eval" => &["network"],
                "network" => &["x.nnue"],
                _ => &["0", "3"],
            };
            let changes = |value: &&str| {
                parse_side(&format!("{key}={value}")).is_ok_and(|side| {
                    side.limits != plain.limits
                        || side.config.threads != plain.config.threads
                        || side.config.hash_mib != plain.config.hash_mib
                        || side.tuning != plain.tuning
                        || side.nodes_as != plain.nodes_as
                        || side.network_file != plain.network_file
                })
            };
            assert!(values.iter().any(changes), "`{key}` is not read");
        }
    }
}
